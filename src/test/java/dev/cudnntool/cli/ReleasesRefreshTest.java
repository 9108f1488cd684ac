package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.LocalHttpServer;
import dev.cudnntool.testing.TestHosts;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * #30 item 2, {@code releases --refresh}, against a local server laid out as NVIDIA's redist folder with an HTML index:
 * new manifests cached and listed (and fetched), hostile listings and manifests, a manifest that disagrees with the
 * catalogue, no network, a cache folder of another user's, and a link planted in the cache.
 */
class ReleasesRefreshTest {
    private static final String NEW = "cudnn-linux-x86_64-9.30.0.7_cuda12-archive.tar.xz";
    private static final String KNOWN = "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz";
    private static final String CACHE = "/home/me/cache";
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final List<String> otherAsked = new CopyOnWriteArrayList<>();
    private LocalHttpServer server;
    private LocalHttpServer other;
    private FileSystem fs;
    private byte[] bytes;
    private String sha;
    private Catalogue catalogue;

    @BeforeEach
    void start() throws Exception {
        fs = TestHosts.unixFs();
        bytes = Files.readAllBytes(ArchiveFixture.linux("9.30.0.7", "12").writeTo(Files.createDirectories(fs.getPath("/fixture"))));
        sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        catalogue = Catalogue.of(List.of(CatalogueEntry.of(KNOWN, "a".repeat(64), 1000L).withRedist(true)));
        server = LocalHttpServer.start(LocalHttpServer.serving(files, asked));
        other = LocalHttpServer.start(LocalHttpServer.serving(files, otherAsked));
        Files.createDirectories(fs.getPath("/home/me"));
    }

    @AfterEach
    void stop() {
        server.close();
        other.close();
    }

    private Host host(Map<String, String> more) {
        Map<String, String> env = new HashMap<>(Map.of("PATH", "/usr/bin", "HOME", "/home/me", "CUDNN_TOOL_CACHE", CACHE));
        env.putAll(more);
        return TestHosts.linux(fs, env, new FakeRunner());
    }

    private Cli.Run run(String... args) {
        return Cli.on(host(Map.of())).withCatalogue(catalogue).run(args);
    }

    /** NVIDIA's index, loosely: a table of links, the manifests among folders and other files. */
    private static String index(String... hrefs) {
        StringBuilder b = new StringBuilder("<html><head><title>Index of /compute/cudnn/redist</title></head><body><pre>\n"
                + "<a href=\"../\">../</a>\n<a href=\"cudnn/\">cudnn/</a>\n<a href=\"cudnn_samples/\">cudnn_samples/</a>\n");
        for (String h : hrefs) {
            b.append("<a href=\"").append(h).append("\">").append(h).append("</a>   05-Jan-2027 10:00   2345\n");
        }
        return b.append("</pre></body></html>\n").toString();
    }

    private void serve(String path, String text) {
        files.put(path, text.getBytes(StandardCharsets.UTF_8));
    }

    private void serveNew() {
        serve("/redistrib_9.30.0.json", FetchManifestTest.manifest("9.30.0", "cudnn", "linux-x86_64", "cudnn/linux-x86_64/" + NEW,
                sha, Integer.toString(bytes.length)));
        files.put("/cudnn/linux-x86_64/" + NEW, bytes);
    }

    private Path cached(String label) {
        return fs.getPath(CACHE, "manifests", "redistrib_" + label + ".json");
    }

    private static JsonNode row(JsonNode doc, String file) {
        for (JsonNode r : doc.get("archives")) {
            if (r.get("fileName").asText().equals(file)) {
                return r;
            }
        }
        return null;
    }

    @Test
    void aReleaseNewerThanTheCatalogueIsCachedListedAndFetched() throws Exception {
        serve("/", index("redistrib_9.5.1.json", "redistrib_9.30.0.json", "redistrib_8.9.7.json"));
        serveNew();
        Instant before = Instant.now().minusSeconds(2);
        Cli.Run r = run("releases", "--refresh", "--from", server.base(), "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode doc = r.json();
        assertEquals(List.of("9.30.0"), List.of(doc.get("refresh").get("read").get(0).asText()));
        assertEquals(server.base(), doc.get("refresh").get("listing").asText());
        JsonNode fresh = row(doc, NEW);
        assertEquals("manifest", fresh.get("source").asText());
        Instant read = Instant.parse(fresh.get("manifestRead").asText());
        assertTrue(!read.isBefore(before) && read.isBefore(Instant.now().plusSeconds(2)), read.toString());
        assertEquals(bytes.length, fresh.get("size").asLong());
        assertEquals(sha, fresh.get("sha256").asText());
        assertEquals("catalogue", row(doc, KNOWN).get("source").asText());
        assertFalse(row(doc, KNOWN).has("manifestRead"));
        assertFalse(asked.contains("/redistrib_9.5.1.json"), "the catalogue has 9.5.1 with its size: " + asked);
        assertTrue(Files.isRegularFile(cached("9.30.0")));
        assertTrue(doc.get("warnings").get(0).asText().contains("redistrib_8.9.7.json"), r.out());

        // later, without --refresh and with the server's manifest gone: the cache answers
        files.remove("/redistrib_9.30.0.json");
        Cli.Run text = run("releases");
        assertEquals(0, text.exit(), text.err());
        String line = text.out().lines().filter(l -> l.contains(NEW)).findFirst().orElseThrow();
        assertTrue(line.contains("[manifest]"), line);
        assertTrue(text.out().contains("[manifest] from NVIDIA's manifest redistrib_9.30.0.json, cached, read " + read), text.out());
        assertFalse(text.out().lines().filter(l -> l.contains(KNOWN)).findFirst().orElseThrow().contains("[manifest]"));

        Cli.Run list = run("fetch", "--list", "9.30.0", "--json");
        assertEquals(0, list.exit(), list.out() + list.err());
        assertTrue(list.out().contains(NEW), list.out());

        asked.clear();
        Path to = fs.getPath("/home/me/Downloads");
        Cli.Run fetch = run("fetch", "9.30.0", "--from", server.base(), "--to", to.toString());
        assertEquals(0, fetch.exit(), fetch.out() + fetch.err());
        assertArrayEquals(bytes, Files.readAllBytes(to.resolve(NEW)));
        assertEquals(List.of("/cudnn/linux-x86_64/" + NEW), asked.stream().distinct().toList());
    }

    @Test
    void releasesHonoursTheMirrorVariableAndAFolder() throws Exception {
        serve("/", index("redistrib_9.30.0.json"));
        serveNew();
        Cli.Run r = Cli.on(host(Map.of("CUDNN_TOOL_MIRROR", server.base()))).withCatalogue(catalogue)
                .run("releases", "--refresh", "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals("manifest", row(r.json(), NEW).get("source").asText());
        assertTrue(asked.contains("/") && asked.contains("/redistrib_9.30.0.json"), asked.toString());

        Files.delete(cached("9.30.0"));
        Path folder = Files.createDirectories(fs.getPath("/mnt/mirror"));
        Files.write(folder.resolve("redistrib_9.30.0.json"), files.get("/redistrib_9.30.0.json"));
        Files.writeString(folder.resolve("notes.txt"), "redistrib_9.31.0.json");
        Cli.Run dir = run("releases", "--refresh", "--from", folder.toString(), "--json");
        assertEquals(0, dir.exit(), dir.out() + dir.err());
        assertEquals("9.30.0", dir.json().get("refresh").get("read").get(0).asText());
        assertEquals(1, dir.json().get("refresh").get("read").size());
        assertTrue(Files.isRegularFile(cached("9.30.0")));
    }

    @TestFactory
    Stream<DynamicTest> hostileListingsAreBoundedAndFollowNoLinkOutOfTheFolder() {
        Random rnd = new Random(30_21);
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("huge", () -> {
            files.clear();
            serve("/", index("redistrib_9.30.0.json") + "x".repeat(2 << 20));
            serveNew();
            Cli.Run r = run("releases", "--refresh", "--from", server.base());
            assertEquals(3, r.exit(), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().contains("listing") && r.err().contains("over"), r.err());
            assertFalse(Files.exists(cached("9.30.0")));
        }));
        tests.add(DynamicTest.dynamicTest("thousands of links", () -> {
            files.clear();
            String[] hrefs = new String[3000];
            for (int i = 0; i < hrefs.length; i++) {
                hrefs[i] = "redistrib_9." + (100 + i) + "." + rnd.nextInt(3) + ".json";
            }
            serve("/", index(hrefs));
            asked.clear();
            Cli.Run r = run("releases", "--refresh", "--from", server.base());
            assertEquals(3, r.exit(), r.err());
            assertTrue(r.err().contains("over 512 manifests"), r.err());
            assertEquals(List.of("/"), asked, "no manifest is read from a refused listing");
        }));
        for (int i = 0; i < 8; i++) {
            int n = i;
            tests.add(DynamicTest.dynamicTest("links outside the folder " + n, () -> {
                files.clear();
                serveNew();
                List<String> outside = new ArrayList<>(List.of("../redistrib_9.31.0.json", "/elsewhere/redistrib_9.32.0.json",
                        other.base() + "redistrib_9.33.0.json", "sub/redistrib_9.34.0.json", "redistrib_9.35.0.json?x=1",
                        "//127.0.0.1:" + other.port() + "/redistrib_9.36.0.json", "file:///etc/redistrib_9.37.0.json",
                        other.base() + "../redistrib_9.38.0.json", "/%2e%2e/redistrib_9.39.0.json", "javascript:redistrib_9.40.0.json",
                        "https://127.0.0.1:" + server.port() + "/redistrib_9.41.0.json", "redistrib_9.42.json",
                        "redistrib_9.43.0.0.json", "REDISTRIB_9.44.0.JSON"));
                Collections.shuffle(outside, rnd);
                List<String> hrefs = new ArrayList<>(outside.subList(0, 6 + n % 8));
                hrefs.add(rnd.nextInt(hrefs.size() + 1), n % 2 == 0 ? "redistrib_9.30.0.json" : server.base() + "redistrib_9.30.0.json");
                serve("/", index(hrefs.toArray(String[]::new)));
                asked.clear();
                otherAsked.clear();
                Files.deleteIfExists(cached("9.30.0"));
                Cli.Run r = run("releases", "--refresh", "--from", server.base(), "--json");
                assertEquals(0, r.exit(), r.out() + r.err());
                assertEquals(1, r.json().get("refresh").get("read").size(), r.out());
                assertEquals("9.30.0", r.json().get("refresh").get("read").get(0).asText());
                assertEquals(List.of(), otherAsked, "nothing is asked of another host");
                assertTrue(asked.stream().allMatch(p -> p.equals("/") || p.equals("/redistrib_9.30.0.json")), asked.toString());
            }));
        }
        return tests.stream();
    }

    @Test
    void aHostileManifestInTheListingIsRefusedAndNotCached() {
        serve("/", index("redistrib_9.30.0.json"));
        serve("/redistrib_9.30.0.json", FetchManifestTest.manifest("9.30.0", "cudnn", "linux-x86_64",
                "cudnn/linux-x86_64/../../../etc/" + NEW, sha, Integer.toString(bytes.length)));
        Cli.Run r = run("releases", "--refresh", "--from", server.base());
        assertEquals(3, r.exit(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("redistrib_9.30.0.json is refused"), r.err());
        assertFalse(Files.exists(cached("9.30.0")));
    }

    @Test
    void aManifestThatDisagreesWithTheCatalogueIsExit3NamingBothLiveOrCached() throws Exception {
        catalogue = Catalogue.of(List.of(CatalogueEntry.of(KNOWN, "a".repeat(64), null).withRedist(false)));
        String otherSha = "c".repeat(64);
        String disagreeing = FetchManifestTest.manifest("9.5.1", "cudnn", "linux-x86_64", "cudnn/linux-x86_64/" + KNOWN, otherSha, "1000");
        serve("/", index("redistrib_9.5.1.json"));
        serve("/redistrib_9.5.1.json", disagreeing);
        Cli.Run r = run("releases", "--refresh", "--from", server.base());
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains(otherSha) && r.err().contains("a".repeat(64)), r.err());
        assertFalse(Files.exists(cached("9.5.1")));

        Files.createDirectories(cached("9.5.1").getParent());
        Files.writeString(cached("9.5.1"), disagreeing);
        for (String[] args : List.of(new String[] {"releases"}, new String[] {"releases", "--json"},
                new String[] {"fetch", "--list", "9.5.1"})) {
            Cli.Run c = run(args);
            assertEquals(3, c.exit(), String.join(" ", args) + ": " + c.out() + c.err());
            assertTrue((c.out() + c.err()).contains(otherSha) && (c.out() + c.err()).contains("a".repeat(64)), c.out() + c.err());
        }
    }

    @Test
    void noNetworkIsOneLineWithFetchsExitCode() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + closed + "/";
        Cli.Run r = run("releases", "--refresh", "--from", url);
        Cli.Run f = run("fetch", KNOWN, "--from", url, "--to", "/home/me/d");
        assertEquals(4, r.exit(), r.err());
        assertEquals(f.exit(), r.exit(), f.err());
        assertEquals(1, r.err().lines().filter(l -> !l.isBlank() && !l.startsWith("  ")).count(), r.err());
        assertTrue(r.err().contains("reading the listing " + url + " failed"), r.err());
        assertFalse(r.err().contains("Exception\n\tat"), r.err());
        Cli.Run json = run("releases", "--refresh", "--from", url, "--json");
        assertEquals(4, json.exit());
        assertEquals(4, json.json().get("exitCode").asInt());
    }

    @Test
    void aCacheFolderOfAnotherUsersIsOneWarningAndNotWritten() throws Exception {
        Path cache = Files.createDirectories(fs.getPath(CACHE));
        Files.setOwner(cache, fs.getUserPrincipalLookupService().lookupPrincipalByName("alice"));
        serve("/", index("redistrib_9.30.0.json"));
        serveNew();
        Cli.Run r = run("releases", "--refresh", "--from", server.base());
        assertEquals(0, r.exit(), r.err());
        List<String> warnings = r.err().lines().filter(l -> l.startsWith("warning:")).toList();
        assertEquals(1, warnings.size(), r.err());
        assertTrue(warnings.get(0).contains("owned by alice"), warnings.get(0));
        assertTrue(r.out().lines().anyMatch(l -> l.contains(NEW) && l.contains("[manifest]")), r.out());
        try (Stream<Path> in = Files.list(cache)) {
            assertEquals(0, in.count(), "nothing is written into another user's folder");
        }
        Cli.Run json = run("releases", "--refresh", "--from", server.base(), "--json");
        assertTrue(json.json().get("warnings").get(0).asText().contains("owned by alice"), json.out());
    }

    @Test
    void aManifestPlantedAsALinkInTheCacheIsNeverReadOrWrittenThrough() throws Exception {
        serveNew();
        Path secret = fs.getPath("/etc/secret.json");
        Files.createDirectories(secret.getParent());
        Files.write(secret, files.get("/redistrib_9.30.0.json"));
        Files.createDirectories(cached("9.30.0").getParent());
        Files.createSymbolicLink(cached("9.30.0"), secret);
        byte[] before = Files.readAllBytes(secret);

        Cli.Run r = run("releases", "--json");
        assertEquals(0, r.exit(), r.err());
        assertEquals(null, row(r.json(), NEW), "a link's target is never read as a manifest");
        assertTrue(r.json().get("warnings").get(0).asText().contains("symbolic link"), r.out());

        serve("/", index("redistrib_9.30.0.json"));
        Cli.Run refresh = run("releases", "--refresh", "--from", server.base());
        assertEquals(5, refresh.exit(), refresh.err());
        assertTrue(refresh.err().contains("is a symbolic link"), refresh.err());
        assertTrue(Files.isSymbolicLink(cached("9.30.0")));
        assertArrayEquals(before, Files.readAllBytes(secret));
    }
}
