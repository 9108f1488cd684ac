package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.LocalHttpServer;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code cudnn fetch} against a local HTTP server in the test JVM with faults (issue 20 item 5): no
 * test touches the internet. The catalogue names the fixture archive with its own size and sha256.
 */
class FetchCommandTest {
    private static final String NAME = "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz";
    private static final String PATH = "/cudnn/linux-x86_64/" + NAME;

    enum Mode { OK, CUT_FIRST, NOT_FOUND, FORBIDDEN, ERROR, STALL, WRONG, REDIRECT }

    private LocalHttpServer server;
    private volatile Mode mode = Mode.OK;
    private final List<String> ranges = new CopyOnWriteArrayList<>();
    private final List<String> uris = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private byte[] bytes;
    private Catalogue catalogue;
    private Host host;

    @BeforeEach
    void start() throws Exception {
        host = TestHosts.linux(TestHosts.unixFs(), Map.of("PATH", "/usr/bin"), new FakeRunner());
        Path tmp = Files.createDirectories(host.path("/fixture"));
        bytes = Files.readAllBytes(ArchiveFixture.linux("9.5.1.17", "12").writeTo(tmp));
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        catalogue = Catalogue.of(List.of(
                CatalogueEntry.of(NAME, sha, (long) bytes.length).withRedist(true),
                CatalogueEntry.of("cudnn-linux-x86_64-9.5.1.17_cuda11-archive.tar.xz", "a".repeat(64), 10L).withRedist(true),
                CatalogueEntry.of("cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz", "b".repeat(64), 10L)));
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
        requests.incrementAndGet();
        uris.add(x.getRequestURI().toString());
        String range = x.getRequestHeaders().getFirst("Range");
        if (range != null) {
            ranges.add(range);
        }
        try (x) {
            String path = x.getRequestURI().getPath();
            if (mode == Mode.REDIRECT && path.equals(PATH)) {
                x.getResponseHeaders().add("Location", "/moved" + PATH);
                x.sendResponseHeaders(302, -1);
                return;
            }
            if (!path.endsWith(PATH) || mode == Mode.NOT_FOUND) {
                x.sendResponseHeaders(404, -1);
                return;
            }
            switch (mode) {
                case FORBIDDEN -> x.sendResponseHeaders(403, -1);
                case ERROR -> x.sendResponseHeaders(500, -1);
                case STALL -> {
                    x.sendResponseHeaders(200, bytes.length);
                    x.getResponseBody().write(bytes, 0, 100);
                    x.getResponseBody().flush();
                    sleep(20_000);
                }
                case WRONG -> {
                    byte[] wrong = bytes.clone();
                    wrong[wrong.length / 2] ^= 1;
                    x.sendResponseHeaders(200, wrong.length);
                    x.getResponseBody().write(wrong);
                }
                case CUT_FIRST -> {
                    if (requests.get() == 1) {
                        x.sendResponseHeaders(200, bytes.length);
                        x.getResponseBody().write(bytes, 0, bytes.length / 3);
                        x.getResponseBody().flush();
                        throw new IOException("cut"); // the server drops the connection
                    }
                    serve(x, range);
                }
                default -> serve(x, range);
            }
        }
    }

    private void serve(HttpExchange x, String range) throws IOException {
        int from = 0;
        if (range != null && range.startsWith("bytes=") && range.endsWith("-")) {
            from = Integer.parseInt(range.substring(6, range.length() - 1));
            x.getResponseHeaders().add("Content-Range", "bytes " + from + "-" + (bytes.length - 1) + "/" + bytes.length);
            x.sendResponseHeaders(206, bytes.length - from);
        } else {
            x.sendResponseHeaders(200, bytes.length);
        }
        OutputStream out = x.getResponseBody();
        out.write(bytes, from, bytes.length - from);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Cli.Run fetch(String... args) {
        return Cli.on(host).withCatalogue(catalogue).run(args);
    }

    private Path to() {
        return host.path("/home/me/Downloads");
    }

    private Cli.Run fetchFromServer(String... extra) {
        List<String> a = new ArrayList<>(List.of("fetch", "9.5.1", "--from", base(), "--to", to().toString(), "--json"));
        a.addAll(List.of(extra));
        return fetch(a.toArray(String[]::new));
    }

    @Test
    void downloadsTheArchiveForThisMachineIntoPartThenRenames() throws Exception {
        Cli.Run r = fetchFromServer();
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode j = r.json();
        assertEquals("fetch", j.get("command").asText());
        assertEquals(NAME, j.get("file").asText(), "the newest CUDA build, no toolkit found");
        assertEquals(base() + "cudnn/linux-x86_64/" + NAME, j.get("url").asText());
        assertEquals(bytes.length, j.get("size").asLong());
        assertEquals(64, j.get("sha256").asText().length());
        assertEquals(to().resolve(NAME).toString(), j.get("path").asText());
        assertTrue(j.get("downloaded").asBoolean());
        assertArrayEquals(bytes, Files.readAllBytes(to().resolve(NAME)));
        assertFalse(Files.exists(to().resolve(NAME + ".part")));
        assertEquals(List.of(), ranges);
    }

    @Test
    void aFileAlreadyThereAndGenuineIsNotDownloadedAgain() throws Exception {
        assertEquals(0, fetchFromServer().exit());
        int before = requests.get();
        Cli.Run again = fetchFromServer();
        assertEquals(0, again.exit(), again.err());
        assertFalse(again.json().get("downloaded").asBoolean());
        assertEquals(before, requests.get(), "no request made");
        Cli.Run text = fetch("fetch", NAME, "--from", base(), "--to", to().toString());
        assertTrue(text.out().contains("already there and genuine"), text.out());
    }

    @Test
    void aFileThereThatDiffersIsNeverOverwritten() throws Exception {
        Files.createDirectories(to());
        Files.write(to().resolve(NAME), new byte[] {1, 2, 3});
        Cli.Run r = fetchFromServer();
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains("never overwrites"), r.err());
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(to().resolve(NAME)));
        assertEquals(0, requests.get());
    }

    @Test
    void aConnectionCutMidwayIsResumedWithARangeRequest() throws Exception {
        mode = Mode.CUT_FIRST;
        Cli.Run r = fetchFromServer();
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(1, ranges.size(), "one resume: " + ranges);
        assertTrue(ranges.get(0).matches("bytes=[1-9]\\d*-"), ranges.get(0));
        assertArrayEquals(bytes, Files.readAllBytes(to().resolve(NAME)));
    }

    @Test
    void aPartLeftByAnEarlierRunIsResumed() throws Exception {
        Files.createDirectories(to());
        Files.write(to().resolve(NAME + ".part"), Arrays.copyOf(bytes, 1000));
        Cli.Run r = fetchFromServer();
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("bytes=1000-"), ranges);
        assertArrayEquals(bytes, Files.readAllBytes(to().resolve(NAME)));
    }

    @Test
    void notFoundIsExit3NamingTheUrl() {
        mode = Mode.NOT_FOUND;
        Cli.Run r = fetchFromServer();
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains(base() + "cudnn/linux-x86_64/" + NAME), r.err());
        assertEquals(3, r.json().get("exitCode").asInt());
        assertTrue(r.json().get("error").get("message").asText().contains("not found"));
    }

    @Test
    void theLoginWallIsExit3WithTheBrowserFix() {
        mode = Mode.FORBIDDEN;
        Cli.Run r = fetchFromServer();
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains("behind NVIDIA's login"), r.err());
        assertTrue(r.err().contains("cudnn install --archive FILE"), r.err());
    }

    @Test
    void aFileNoManifestListsHasItsRedistUrlAndComesFromTheMirrorsRedistPath() {
        // #30 item 1 replaces "behind NVIDIA's login" for a modern name: every one lies on the redist server
        Cli.Run list = fetch("fetch", "--list", "8.9.7", "--json");
        assertEquals(0, list.exit(), list.err());
        assertEquals(CatalogueEntry.REDIST + "cudnn/linux-x86_64/cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz",
                list.json().get("archives").get(0).get("url").asText());
        Cli.Run r = fetch("fetch", "8.9.7", "--from", base(), "--to", to().toString());
        assertEquals(3, r.exit(), r.err());
        assertTrue(uris.contains("/cudnn/linux-x86_64/cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz"), uris.toString());
        assertFalse(r.err().contains("behind NVIDIA's login"), r.err());
    }

    @Test
    void aServerErrorIsExit4() {
        mode = Mode.ERROR;
        Cli.Run r = fetchFromServer();
        assertEquals(4, r.exit(), r.err());
        assertTrue(r.err().contains("HTTP 500"), r.err());
    }

    @Test
    void aRefusedConnectionIsExit4() {
        String closed = base();
        server.close();
        Cli.Run r = fetch("fetch", "9.5.1", "--from", closed, "--to", to().toString(), "--timeout", "2");
        assertEquals(4, r.exit(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    @Test
    void aStalledBodyEndsWithATimeoutWithinSeconds() throws Exception {
        mode = Mode.STALL;
        long t0 = System.nanoTime();
        Cli.Run r = fetchFromServer("--timeout", "1");
        long secs = (System.nanoTime() - t0) / 1_000_000_000L;
        assertEquals(4, r.exit(), r.err());
        assertTrue(r.err().contains("stalled"), r.err());
        assertTrue(secs < 8, "took " + secs + " s");
        assertTrue(Files.exists(to().resolve(NAME + ".part")), "the .part stays for a resume");
        assertFalse(Files.exists(to().resolve(NAME)));
    }

    @Test
    void wrongBytesAreExit3AndThePartIsDeleted() {
        mode = Mode.WRONG;
        Cli.Run r = fetchFromServer();
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains("not NVIDIA's"), r.err());
        assertFalse(Files.exists(to().resolve(NAME + ".part")));
        assertFalse(Files.exists(to().resolve(NAME)));
    }

    @Test
    void aRedirectIsFollowed() throws Exception {
        mode = Mode.REDIRECT;
        Cli.Run r = fetchFromServer();
        assertEquals(0, r.exit(), r.err());
        assertTrue(uris.contains("/moved" + PATH), uris.toString());
        assertArrayEquals(bytes, Files.readAllBytes(to().resolve(NAME)));
    }

    @Test
    void theMirrorComesFromTheEnvironmentAndTheProxyToo() throws Exception {
        host = TestHosts.linux(host.fs(), Map.of("CUDNN_TOOL_MIRROR", "http://mirror.invalid/redist",
                "HTTP_PROXY", "127.0.0.1:" + server.port()), new FakeRunner());
        Cli.Run r = fetch("fetch", NAME, "--to", to().toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(uris.contains("http://mirror.invalid/redist" + PATH), "asked through the proxy: " + uris);
        host = TestHosts.linux(host.fs(), Map.of("CUDNN_TOOL_MIRROR", "http://mirror.invalid/redist",
                "HTTP_PROXY", "127.0.0.1:" + server.port(), "NO_PROXY", ".invalid"), new FakeRunner());
        Files.delete(to().resolve(NAME));
        Cli.Run direct = fetch("fetch", NAME, "--to", to().toString(), "--timeout", "3");
        assertEquals(4, direct.exit(), "NO_PROXY: straight to a host that does not exist: " + direct.err());
    }

    @Test
    void aBadProxyIsAUsageError() {
        host = TestHosts.linux(host.fs(), Map.of("HTTPS_PROXY", "http://"), new FakeRunner());
        Cli.Run r = fetch("fetch", NAME, "--from", base(), "--to", to().toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("HTTPS_PROXY"), r.err());
    }

    @Test
    void fromAFolderCopiesAndChecks() throws Exception {
        Path mirror = Files.createDirectories(host.path("/mnt/mirror"));
        Files.write(mirror.resolve(NAME), bytes);
        Cli.Run r = fetch("fetch", "9.5.1", "--cuda", "12", "--from", mirror.toString(), "--to", to().toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        assertEquals(0, requests.get());
        assertArrayEquals(bytes, Files.readAllBytes(to().resolve(NAME)));
        Files.delete(to().resolve(NAME));
        bytes[10] ^= 1;
        Files.write(mirror.resolve(NAME), bytes);
        Cli.Run wrong = fetch("fetch", "9.5.1", "--from", mirror.toString(), "--to", to().toString());
        assertEquals(3, wrong.exit(), wrong.err());
        assertFalse(Files.exists(to().resolve(NAME + ".part")));
    }

    @Test
    void unknownVersionsAndNamesAreUsageErrors() {
        assertEquals(2, fetch("fetch", "9.99.0", "--to", to().toString()).exit());
        assertEquals(2, fetch("fetch", "cudnn.zip", "--to", to().toString()).exit());
        assertEquals(2, fetch("fetch").exit());
        assertEquals(2, fetch("fetch", "9.5.1", "--timeout", "0").exit());
    }

    @Test
    void listNamesFilesUrlsSizesAndSha256() {
        Cli.Run r = fetch("fetch", "--list", "9.5.1", "--os", "linux", "--arch", "x86_64", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode a = r.json().get("archives");
        assertEquals(2, a.size(), a.toString());
        assertEquals(NAME, a.get(0).get("file").asText());
        assertEquals(CatalogueEntry.REDIST + "cudnn/linux-x86_64/" + NAME, a.get(0).get("url").asText());
        assertEquals(bytes.length, a.get(0).get("size").asLong());
        assertEquals(64, a.get(0).get("sha256").asText().length());
        Cli.Run newest = fetch("fetch", "--list", "--cuda", "12", "--json");
        assertEquals(1, newest.json().get("archives").size(), newest.out());
        Cli.Run text = fetch("fetch", "--list", "9.5.1");
        assertTrue(text.out().contains(NAME) && text.out().contains(CatalogueEntry.REDIST), text.out());
        assertEquals(0, requests.get());
    }
}
