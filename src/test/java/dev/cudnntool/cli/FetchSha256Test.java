package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** #30 item 3: {@code fetch --sha256 HEX} for a file neither the catalogue nor a manifest knows. */
class FetchSha256Test {
    private static final String REPACK = "cudnn-linux-x86_64-9.5.1.99_cuda12-archive.tar.xz";
    private static final String KNOWN = "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz";
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
        catalogue = Catalogue.of(List.of(CatalogueEntry.of(KNOWN, sha, (long) bytes.length).withRedist(true)));
        server = LocalHttpServer.start(this::handle);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            String p = x.getRequestURI().getPath();
            if (!p.equals("/cudnn/linux-x86_64/" + REPACK) && !p.equals("/cudnn/linux-x86_64/" + KNOWN)) {
                x.sendResponseHeaders(404, -1);
                return;
            }
            x.sendResponseHeaders(200, bytes.length);
            x.getResponseBody().write(bytes);
        }
    }

    private Path to() {
        return host.path("/home/me/Downloads");
    }

    private Cli.Run fetch(String... args) {
        return Cli.on(host).withCatalogue(catalogue).run(args);
    }

    @Test
    void aFileTheCatalogueLacksIsFetchedAndCheckedAgainstHex() throws Exception {
        Cli.Run r = fetch("fetch", REPACK, "--sha256", sha.toUpperCase(), "--from", server.base(), "--to", to().toString(), "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(sha, r.json().get("sha256").asText());
        assertArrayEquals(bytes, Files.readAllBytes(to().resolve(REPACK)));
    }

    @Test
    void otherBytesThanHexAreExit3AndNothingIsKept() throws Exception {
        String other = "0".repeat(64);
        Cli.Run r = fetch("fetch", REPACK, "--sha256", other, "--from", server.base(), "--to", to().toString());
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains(other) && r.err().contains(sha), r.err());
        assertFalse(Files.exists(to().resolve(REPACK)));
        assertFalse(Files.exists(to().resolve(REPACK + ".part")));
    }

    @Test
    void withoutHexAnUnknownFileIsAUsageError() {
        Cli.Run r = fetch("fetch", REPACK, "--from", server.base(), "--to", to().toString());
        assertEquals(2, r.exit(), r.err());
    }

    @Test
    void hexThatDisagreesWithTheCatalogueIsRefusedBeforeAnyDownload() {
        String other = "ab".repeat(32);
        Cli.Run r = fetch("fetch", KNOWN, "--sha256", other, "--from", server.base(), "--to", to().toString());
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains(other) && r.err().contains(sha), r.err());
        assertFalse(Files.exists(to()));
        Cli.Run agree = fetch("fetch", "9.5.1", "--sha256", sha, "--from", server.base(), "--to", to().toString());
        assertEquals(0, agree.exit(), agree.err());
    }

    @Test
    void hexThatIsNotHexIsExit2() {
        assertEquals(2, fetch("fetch", REPACK, "--sha256", "xyz", "--to", to().toString()).exit());
    }
}
