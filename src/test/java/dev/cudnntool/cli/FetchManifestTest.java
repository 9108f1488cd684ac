package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.LocalHttpServer;
import dev.cudnntool.testing.TestHosts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
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
 * #30 item 2 against a local server laid out as NVIDIA's redist folder: a release the catalogue has never heard
 * of, a manifest that disagrees with the catalogue, and hostile manifests.
 */
class FetchManifestTest {
    private static final String NEW = "cudnn-linux-x86_64-9.30.0.7_cuda12-archive.tar.xz";
    private static final String KNOWN = "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz";
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private LocalHttpServer server;
    private byte[] bytes;
    private String sha;
    private Host host;
    private Catalogue catalogue;

    @BeforeEach
    void start() throws Exception {
        host = TestHosts.linux(TestHosts.unixFs(), Map.of("PATH", "/usr/bin"), new FakeRunner());
        bytes = Files.readAllBytes(ArchiveFixture.linux("9.5.1.17", "12").writeTo(Files.createDirectories(host.path("/fixture"))));
        sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        catalogue = Catalogue.of(List.of(CatalogueEntry.of(KNOWN, sha, null).withRedist(false)));
        server = LocalHttpServer.start(LocalHttpServer.serving(files, new CopyOnWriteArrayList<>()));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    static String manifest(String label, String product, String platform, String relativePath, String sha, String size) {
        return "{\"release_date\":\"2027-01-05\",\"release_label\":\"" + label + "\",\"release_product\":\"" + product + "\","
                + "\"cudnn\":{\"name\":\"NVIDIA CUDA Deep Neural Network library\",\"license\":\"cudnn\",\"version\":\"x\","
                + "\"cuda_variant\":[\"12\"],\"" + platform + "\":{\"cuda12\":{\"relative_path\":\"" + relativePath + "\","
                + "\"sha256\":\"" + sha + "\",\"md5\":\"00\",\"size\":\"" + size + "\"}}},"
                + "\"cudnn_samples\":{\"source\":{\"relative_path\":\"cudnn_samples/source/x.tar.xz\",\"sha256\":\"zz\",\"size\":\"1\"}}}";
    }

    private void serve(String path, String text) {
        files.put(path, text.getBytes(StandardCharsets.UTF_8));
    }

    private Path to() {
        return host.path("/home/me/Downloads");
    }

    private Cli.Run fetch(String... args) {
        return Cli.on(host).withCatalogue(catalogue).run(args);
    }

    @Test
    void aReleaseTheCatalogueLacksIsFetchedByItsManifest() throws Exception {
        serve("/redistrib_9.30.0.json", manifest("9.30.0", "cudnn", "linux-x86_64", "cudnn/linux-x86_64/" + NEW, sha,
                Integer.toString(bytes.length)));
        files.put("/cudnn/linux-x86_64/" + NEW, bytes);
        Cli.Run r = fetch("fetch", "9.30.0", "--from", server.base(), "--to", to().toString(), "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(NEW, r.json().get("file").asText());
        assertEquals(server.base() + "cudnn/linux-x86_64/" + NEW, r.json().get("url").asText());
        assertArrayEquals(bytes, Files.readAllBytes(to().resolve(NEW)));
        Cli.Run byName = fetch("fetch", NEW, "--from", server.base(), "--to", host.path("/other").toString());
        assertEquals(0, byName.exit(), byName.err());
    }

    @Test
    void aManifestThatDisagreesWithTheCatalogueIsExit3NamingBoth() {
        String other = "c".repeat(64);
        serve("/redistrib_9.5.1.json", manifest("9.5.1", "cudnn", "linux-x86_64", "cudnn/linux-x86_64/" + KNOWN, other,
                Integer.toString(bytes.length)));
        Cli.Run r = fetch("fetch", "9.5.1", "--from", server.base(), "--to", to().toString());
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains(other) && r.err().contains(sha), r.err());
        assertFalse(Files.exists(to()));
    }

    @Test
    void aManifestGivesTheSizeTheCatalogueLacks() throws Exception {
        serve("/redistrib_9.5.1.json", manifest("9.5.1", "cudnn-v9", "linux-x86_64", "cudnn/linux-x86_64/" + KNOWN, sha,
                Integer.toString(bytes.length)));
        files.put("/cudnn/linux-x86_64/" + KNOWN, bytes);
        Cli.Run r = fetch("fetch", "9.5.1", "--from", server.base(), "--to", to().toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        assertEquals(bytes.length, r.json().get("size").asLong());
    }

    @TestFactory
    Stream<DynamicTest> hostileManifestsAreRefusedAndNothingIsFetched() {
        Random r = new Random(30_2);
        String good = "cudnn/linux-x86_64/" + NEW;
        List<String[]> cases = List.of(
                new String[] {"traversal", "9.30.0", "cudnn", "linux-x86_64", "cudnn/linux-x86_64/../../../etc/" + NEW},
                new String[] {"absolute", "9.30.0", "cudnn", "linux-x86_64", "/etc/" + NEW},
                new String[] {"other folder", "9.30.0", "cudnn", "linux-x86_64", "cuda/linux-x86_64/" + NEW},
                new String[] {"other platform", "9.30.0", "cudnn", "linux-sbsa", "cudnn/linux-sbsa/" + NEW},
                new String[] {"not cudnn", "9.30.0", "cuda", "linux-x86_64", good},
                new String[] {"other release", "9.31.0", "cudnn", "linux-x86_64", good},
                new String[] {"backslash", "9.30.0", "cudnn", "linux-x86_64", "cudnn\\\\linux-x86_64\\\\" + NEW},
                new String[] {"bad sha", "9.30.0", "cudnn", "linux-x86_64", good},
                new String[] {"bad size", "9.30.0", "cudnn", "linux-x86_64", good},
                new String[] {"huge", "9.30.0", "cudnn", "linux-x86_64", good},
                new String[] {"not json", "9.30.0", "cudnn", "linux-x86_64", good});
        return cases.stream().map(c -> DynamicTest.dynamicTest(c[0], () -> {
            files.clear();
            String s = c[0].equals("bad sha") ? "ZZ" + sha.substring(2) : sha;
            String size = c[0].equals("bad size") ? (r.nextBoolean() ? "-5" : "99999999999999999999999") : Integer.toString(bytes.length);
            String text = manifest(c[1], c[2], c[3], c[4], s, size);
            if (c[0].equals("huge")) {
                text = text.replace("\"name\":", "\"pad\":\"" + "x".repeat((1 << 20) + r.nextInt(1000)) + "\",\"name\":");
            } else if (c[0].equals("not json")) {
                text = text.substring(0, r.nextInt(text.length() - 1));
            }
            serve("/redistrib_9.30.0.json", text);
            files.put("/cudnn/linux-x86_64/" + NEW, bytes);
            Cli.Run run = fetch("fetch", "9.30.0", "--from", server.base(), "--to", to().toString());
            assertEquals(3, run.exit(), c[0] + ": " + run.err());
            assertTrue(run.err().contains("manifest"), run.err());
            assertEquals(1, run.err().lines().count(), run.err());
            assertFalse(Files.exists(to()), "nothing fetched");
        }));
    }

    @Test
    void withoutAManifestAnUnknownReleaseStaysAUsageError() {
        Cli.Run r = fetch("fetch", "9.31.0", "--from", server.base(), "--to", to().toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("redistrib_9.31.0.json"), r.err());
    }
}
