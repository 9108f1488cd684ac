package dev.cudnntool.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/** Issue 9 C5 (folders the tool creates are 0755) and B1 (a failed atomic write leaves no temp file). */
class NioFileOpsTest {
    @Test
    void foldersTheToolCreatesAreRwxrXrXWhateverTheUmask() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path d = fs.getPath("/opt/x");
            Files.createDirectories(d.getParent());
            new NioFileOps().createDirectory(d);
            assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)));
            Path loose = fs.getPath("/opt/y");
            Files.createDirectory(loose, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
            assertEquals("rwxrwxrwx", PosixFilePermissions.toString(Files.getPosixFilePermissions(loose)), "jimfs keeps what it is given");
        }
    }

    @Test
    void aFailedAtomicWriteLeavesNoHalfWrittenTempFile() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path file = fs.getPath("/state/journal.json");
            Files.createDirectories(file.getParent());
            Files.createDirectory(file); // the rename onto a non-empty folder fails after the temp file was written
            Files.writeString(file.resolve("x"), "x");
            assertThrows(IOException.class, () -> new NioFileOps().writeAtomically(file, "{}".getBytes()));
            assertFalse(Files.exists(fs.getPath("/state/journal.json.tmp")));
        }
    }
}
