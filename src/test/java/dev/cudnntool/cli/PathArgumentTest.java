package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 9 C3: a path argument that did not survive the JVM's decoding is refused, never used. */
class PathArgumentTest {
    static final String ARCHIVE = "/home/me/cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz";

    @Test
    void aPathThatLostBytesInDecodingIsRefusedWithExit2() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        // The archive exists: without the check, the first run would install into "/opt/caf\uFFFD".
        ArchiveFixture.linux("8.9.5.30", "12").writeAs(host.path(ARCHIVE));
        Files.createDirectories(host.path("/opt"));
        // "caf\xe9" in Latin-1 under a UTF-8 locale: the JVM hands the program "caf\uFFFD".
        String[][] runs = {
                {"install", "--archive", ARCHIVE, "--prefix", "/opt/caf\uFFFD", "--dry-run"},
                {"install", "--archive", "/home/me/caf\uFFFD/cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz"},
                {"install", "--archive", ARCHIVE, "--cuda-path", "/usr/local/cuda-\uFFFD"},
                {"verify", "--cuda-path", "/usr/local/cuda-\uFFFD"},
                {"rollback", "--prefix", "/opt/caf\uFFFD"},
                {"inspect", "/home/me/\uFFFD/cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz"},
                {"install", "--archive", ARCHIVE, "--manifest", "/home/me/\uFFFD.json"}};
        for (String[] args : runs) {
            Cli.Run r = Cli.run(host, args);
            assertEquals(2, r.exit(), String.join(" ", args) + " -> " + r.err());
            assertTrue(r.err().contains("not valid in this system's character encoding"), r.err());
            assertTrue(r.err().contains("\\ufffd"), "the offending character is shown: " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
    }

    @Test
    void controlCharactersAndEmptyPathsAreRefused() {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Cli.Run newline = Cli.run(host, "install", "--archive", ARCHIVE, "--prefix", "/opt/a\nb");
        assertEquals(2, newline.exit(), newline.err());
        assertTrue(newline.err().contains("control character"), newline.err());
        Cli.Run root = Cli.run(host, "install", "--archive", "/");
        assertEquals(2, root.exit(), root.err());
        assertFalse(root.err().contains("null"), root.err());
    }
}
