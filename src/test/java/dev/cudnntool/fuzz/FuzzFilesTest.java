package dev.cudnntool.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Fuzzed text that its charset cannot encode still reaches the reader (the harness must not crash first). */
class FuzzFilesTest {
    @Test
    void aCharBeyondLatin1IsReplacedNotThrown() throws IOException {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path f = fs.getPath("/journal.log");
            FuzzFiles.writeText(f, "a\u00e9\u20acb", StandardCharsets.ISO_8859_1);
            assertArrayEquals(new byte[] {'a', (byte) 0xe9, '?', 'b'}, Files.readAllBytes(f));
        }
    }

    @Test
    void aLoneSurrogateIsReplacedNotThrownInUtf8() throws IOException {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path f = fs.getPath("/RECORD");
            FuzzFiles.writeText(f, "x\ud800y\u00e9", StandardCharsets.UTF_8);
            assertArrayEquals(new byte[] {'x', '?', 'y', (byte) 0xc3, (byte) 0xa9}, Files.readAllBytes(f));
        }
    }
}
