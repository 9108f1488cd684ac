package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.LocalHttpServer;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code cudnn install --release VERSION [--cuda N]} (issue 20 item 5): the catalogue's archive for this
 * machine is fetched from a local HTTP server in the test JVM (never the internet) into the cache
 * folder, checked, and installed in the same transaction; a dry run fetches nothing.
 */
class InstallReleaseTest {
    private static final String NAME = "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz";
    private static final String CACHE = "/home/me/.cache/cudnn-tool/archives";

    private LocalHttpServer server;
    private final List<String> uris = new CopyOnWriteArrayList<>();
    private final List<String> heads = new CopyOnWriteArrayList<>();
    private volatile int headStatus = 200;
    private volatile long headLength = -1;
    private volatile boolean wrongBytes;
    private byte[] bytes;
    private Catalogue catalogue;

    @BeforeEach
    void start() throws Exception {
        try (Machine scratch = Machine.linux().build()) {
            Path d = Files.createDirectories(scratch.path("/fixture"));
            bytes = Files.readAllBytes(ArchiveFixture.linux("9.5.1.17", "12").writeTo(d));
        }
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        catalogue = Catalogue.of(List.of(
                CatalogueEntry.of(NAME, sha, (long) bytes.length).withRedist(true),
                CatalogueEntry.of("cudnn-linux-x86_64-9.5.1.17_cuda11-archive.tar.xz", "a".repeat(64), 10L).withRedist(true),
                CatalogueEntry.of("cudnn-linux-x86_64-9.5.1.17_cuda13-archive.tar.xz", "c".repeat(64), 10L).withRedist(true)));
        server = LocalHttpServer.start(this::handle);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String base() {
        return server.base();
    }

    private void handle(HttpExchange x) throws IOException {
        if (x.getRequestMethod().equals("HEAD")) { // #30 item 4: the dry run's check; it downloads nothing
            heads.add(x.getRequestURI().getPath());
            try (x) {
                boolean there = x.getRequestURI().getPath().equals("/cudnn/linux-x86_64/" + NAME);
                if (there) {
                    x.getResponseHeaders().add("Content-Length", Long.toString(headLength >= 0 ? headLength : bytes.length));
                }
                x.sendResponseHeaders(there ? headStatus : 404, -1);
            }
            return;
        }
        uris.add(x.getRequestURI().getPath());
        try (x) {
            if (!x.getRequestURI().getPath().equals("/cudnn/linux-x86_64/" + NAME)) {
                x.sendResponseHeaders(404, -1);
                return;
            }
            byte[] out = bytes.clone();
            if (wrongBytes) {
                out[out.length / 2] ^= 1;
            }
            x.sendResponseHeaders(200, out.length);
            x.getResponseBody().write(out);
        }
    }

    private Machine machine(String toolkit) {
        return Machine.linux().toolkit(toolkit).env("HOME", "/home/me").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build();
    }

    private Cli.Run run(Machine m, String... args) {
        return Cli.on(m.host()).withCatalogue(catalogue).run(args);
    }

    @Test
    void aReleaseIsFetchedIntoTheCacheCheckedAndInstalledAndASecondRunUsesTheCache() throws Exception {
        try (Machine m = machine("12.2.20230823")) {
            Cli.Run r = run(m, "install", "--release", "9.5.1", "--from", base(), "--no-probe", "--json");
            assertEquals(0, r.exit(), r.out() + r.err());
            JsonNode fetch = r.json().get("fetch");
            assertEquals("9.5.1", fetch.get("release").asText());
            assertEquals(NAME, fetch.get("file").asText());
            assertEquals(base() + "cudnn/linux-x86_64/" + NAME, fetch.get("url").asText());
            assertEquals(bytes.length, fetch.get("size").asLong());
            assertEquals(CACHE + "/" + NAME, fetch.get("path").asText());
            assertTrue(fetch.get("downloaded").asBoolean());
            assertFalse(fetch.get("cached").asBoolean());
            assertEquals("9.5.1.17", r.json().get("archive").get("version").asText());
            assertTrue(r.json().get("findings").toString().contains("archive.genuine"), r.out());
            assertTrue(Files.isRegularFile(m.path(CACHE, NAME)));
            assertTrue(Files.isRegularFile(m.toolkit().resolve("targets/x86_64-linux/lib/libcudnn.so.9.5.1"), LinkOption.NOFOLLOW_LINKS));
            assertEquals(List.of("/cudnn/linux-x86_64/" + NAME), uris);

            Cli.Run again = run(m, "install", "--release", "9.5.1", "--from", base(), "--no-probe", "--json");
            assertEquals(0, again.exit(), again.out() + again.err());
            assertTrue(again.json().get("fetch").get("cached").asBoolean());
            assertFalse(again.json().get("fetch").get("downloaded").asBoolean());
            assertEquals(1, uris.size(), "the cache's genuine copy is not downloaded again");
        }
    }

    @Test
    void theMirrorVariableIsHonouredAndTheToolkitsMajorPicksTheBuild() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("HOME", "/home/me")
                .env("CUDNN_TOOL_MIRROR", base()).env("CUDNN_TOOL_CACHE", "/var/cache/cudnn").build()) {
            Cli.Run r = run(m, "install", "--release", "9.5.1", "--no-probe", "--json");
            assertEquals(0, r.exit(), r.out() + r.err());
            assertEquals(NAME, r.json().get("fetch").get("file").asText(), "CUDA 12 from the toolkit, not the newer 13 build");
            assertTrue(Files.isRegularFile(m.path("/var/cache/cudnn", NAME)));
        }
    }

    @Test
    void cudaPicksAnotherBuild() throws Exception {
        try (Machine m = machine("12.2.20230823")) {
            Cli.Run r = run(m, "install", "--release", "9.5.1", "--cuda", "11", "--from", base(), "--no-probe", "--json", "--force");
            assertEquals(3, r.exit(), r.out() + r.err());
            assertTrue(r.json().get("error").get("message").asText().contains("not on the server"), r.out());
            assertEquals(List.of("/cudnn/linux-x86_64/cudnn-linux-x86_64-9.5.1.17_cuda11-archive.tar.xz"), uris);
        }
    }

    @Test
    void wrongBytesAreRefusedAndNothingIsInstalledOrCached() throws Exception {
        wrongBytes = true;
        try (Machine m = machine("12.2.20230823")) {
            Map<String, String> before = TreeSnapshot.of(m.toolkit());
            Cli.Run r = run(m, "install", "--release", "9.5.1", "--from", base(), "--no-probe", "--json");
            assertEquals(3, r.exit(), r.out() + r.err());
            assertTrue(r.json().get("error").get("message").asText().contains("are not NVIDIA's"), r.out());
            assertEquals(before, TreeSnapshot.of(m.toolkit()));
            try (var s = Files.list(m.path(CACHE))) {
                assertEquals(0, s.count(), "no file and no .part left in the cache");
            }
        }
    }

    @Test
    void aDryRunSaysWhatItWouldFetchAndInstallAndFetchesNothing() throws Exception {
        try (Machine m = machine("12.2.20230823")) {
            Map<String, String> before = TreeSnapshot.of(m.toolkit());
            Cli.Run r = run(m, "install", "--release", "9.5.1", "--from", base(), "--dry-run", "--json");
            assertEquals(0, r.exit(), r.out() + r.err());
            JsonNode j = r.json();
            assertTrue(j.get("dryRun").asBoolean());
            assertFalse(j.get("fetch").get("cached").asBoolean());
            assertFalse(j.get("fetch").get("downloaded").asBoolean());
            assertTrue(j.get("summary").asText().startsWith("dry run: would fetch " + NAME + " from " + base()), j.get("summary").asText());
            assertEquals("toolkit", j.get("target").get("kind").asText());
            assertTrue(uris.isEmpty(), "a dry run downloads nothing");
            assertFalse(Files.exists(m.path(CACHE)));
            assertEquals(before, TreeSnapshot.of(m.toolkit()));

            Cli.Run text = run(m, "install", "--release", "9.5.1", "--from", base(), "--dry-run");
            assertEquals(0, text.exit(), text.err());
            assertTrue(text.out().contains("would fetch " + NAME), text.out());

            // once it is in the cache, the dry run reads it as any archive's
            assertEquals(0, run(m, "install", "--release", "9.5.1", "--from", base(), "--no-probe").exit());
            Cli.Run cached = run(m, "install", "--release", "9.5.1", "--from", base(), "--dry-run", "--json");
            assertEquals(0, cached.exit(), cached.out());
            assertTrue(cached.json().get("fetch").get("cached").asBoolean());
            assertTrue(cached.json().has("archive"), cached.out());
        }
    }

    @Test
    void aDryRunExitsAsTheRealRunWouldWhenTheHostIsNotReady() throws Exception {
        try (Machine m = machine("11.8.20220929")) { // a CUDA 11 toolkit, the CUDA 12 build asked for
            Cli.Run dry = run(m, "install", "--release", "9.5.1", "--cuda", "12", "--from", base(), "--dry-run", "--json");
            assertEquals(4, dry.exit(), dry.out() + dry.err());
            assertTrue(dry.json().get("findings").toString().contains("toolkit.cuda-major-mismatch"), dry.out());
            assertTrue(uris.isEmpty());
            Cli.Run real = run(m, "install", "--release", "9.5.1", "--cuda", "12", "--from", base(), "--no-probe", "--json");
            assertEquals(dry.exit(), real.exit(), real.out());
            assertTrue(real.json().get("summary").asText().startsWith("not installed (nothing was fetched): "), real.out());
            assertTrue(uris.isEmpty(), "the host is checked before the download");
        }
    }

    @Test
    void archiveAndReleaseTogetherOrCudaWithoutReleaseAreUsageErrors() throws Exception {
        try (Machine m = machine("12.2.20230823")) {
            Cli.Run both = run(m, "install", "--archive", NAME, "--release", "9.5.1", "--json");
            assertEquals(2, both.exit(), both.out());
            assertTrue(both.json().get("error").get("message").asText().contains("--archive and --release"), both.out());
            Cli.Run none = run(m, "install");
            assertEquals(2, none.exit(), none.err());
            assertTrue(none.err().contains("no --archive or --release"), none.err());
            assertEquals(2, run(m, "install", "--archive", NAME, "--cuda", "12").exit());
            assertEquals(2, run(m, "install", "--archive", NAME, "--from", base()).exit());
            assertEquals(2, run(m, "install", "--release", "9.5.1", "--sha256", "0".repeat(64)).exit());
            Cli.Run unknown = run(m, "install", "--release", "7.0.0", "--from", base(), "--json");
            assertEquals(2, unknown.exit(), unknown.out());
            assertTrue(uris.isEmpty());
        }
    }

    // #30 item 4: the dry run checks the file exists (HEAD) and exits with the code the real run would

    @Test
    void aDryRunSendsOneHeadAndNoGet() throws Exception {
        try (Machine m = machine("12.2.20230823")) {
            Cli.Run dry = run(m, "install", "--release", "9.5.1", "--from", base(), "--dry-run", "--json");
            assertEquals(0, dry.exit(), dry.out() + dry.err());
            assertEquals(List.of("/cudnn/linux-x86_64/" + NAME), heads);
            assertTrue(uris.isEmpty());
        }
    }

    @Test
    void aDryRunOfAFileTheServerLacksExitsAsTheRealRun() throws Exception {
        try (Machine m = machine("12.2.20230823")) {
            for (int status : new int[] {404, 403, 401, 500}) {
                headStatus = status;
                Cli.Run dry = run(m, "install", "--release", "9.5.1", "--from", base(), "--dry-run", "--json");
                int expected = status >= 500 ? 4 : 3;
                assertEquals(expected, dry.exit(), status + ": " + dry.out() + dry.err());
                String msg = dry.json().get("error").get("message").asText();
                assertTrue(msg.contains("HTTP " + status), msg);
                if (status == 401 || status == 403) {
                    assertTrue(msg.contains("the mirror refused the request (HTTP " + status + "; it may need credentials)"), msg);
                }
            }
            headStatus = 404;
            Cli.Run dry = run(m, "install", "--release", "9.5.1", "--cuda", "12", "--from", base(), "--dry-run", "--json");
            assertEquals(3, dry.exit());
            assertTrue(uris.isEmpty(), "the dry runs downloaded nothing");
        }
    }

    @Test
    void aDryRunWhereTheServerTellsAnotherLengthIsExit3() throws Exception {
        headLength = 12;
        try (Machine m = machine("12.2.20230823")) {
            Cli.Run dry = run(m, "install", "--release", "9.5.1", "--from", base(), "--dry-run", "--json");
            assertEquals(3, dry.exit(), dry.out() + dry.err());
            assertTrue(dry.json().get("error").get("message").asText().contains("is 12 bytes"), dry.out());
        }
    }

    @Test
    void aDryRunAgainstAClosedServerIsExit4AsTheRealRun() throws Exception {
        String closed = base();
        server.close();
        try (Machine m = machine("12.2.20230823")) {
            Cli.Run dry = run(m, "install", "--release", "9.5.1", "--from", closed, "--dry-run", "--json");
            Cli.Run real = run(m, "install", "--release", "9.5.1", "--from", closed, "--no-probe", "--json");
            assertEquals(4, dry.exit(), dry.out() + dry.err());
            assertEquals(real.exit(), dry.exit(), real.out());
        }
    }

    // #32 item 2: a cache folder of another user, or writable by others, is not used (one warning line)

    @Test
    void aCacheFolderOfAnotherUserIsNotUsedAndNothingIsWrittenThere() throws Exception {
        for (String variant : List.of("other-owner", "others-write", "home-of-another")) {
            uris.clear();
            try (Machine m = machine("12.2.20230823")) {
                var lookup = m.fs().getUserPrincipalLookupService();
                Path watched;
                if (variant.equals("home-of-another")) { // root under sudo -E: HOME is alice's, no .cache yet
                    watched = Files.createDirectories(m.path("/home/me"));
                    Files.setOwner(watched, lookup.lookupPrincipalByName("alice"));
                } else {
                    watched = Files.createDirectories(m.path(CACHE));
                    if (variant.equals("other-owner")) {
                        Files.setOwner(watched, lookup.lookupPrincipalByName("alice"));
                    } else {
                        Files.setPosixFilePermissions(watched, PosixFilePermissions.fromString("rwxrwxrwx"));
                    }
                }
                Map<String, String> before = TreeSnapshot.of(watched);
                Cli.Run r = run(m, "install", "--release", "9.5.1", "--from", base(), "--no-probe", "--json");
                assertEquals(0, r.exit(), variant + ": " + r.out() + r.err());
                assertEquals(1, r.err().lines().filter(l -> l.startsWith("warning: the cache folder is not used")).count(), r.err());
                JsonNode fetch = r.json().get("fetch");
                assertTrue(fetch.get("cacheWarning").asText().contains("CUDNN_TOOL_CACHE"), fetch.toString());
                assertFalse(fetch.get("path").asText().startsWith("/home/me"), fetch.toString());
                assertEquals(before, TreeSnapshot.of(watched), variant + ": nothing written in the other user's folder");
                assertTrue(Files.isRegularFile(m.toolkit().resolve("targets/x86_64-linux/lib/libcudnn.so.9.5.1"), LinkOption.NOFOLLOW_LINKS));
            }
        }
    }
}
