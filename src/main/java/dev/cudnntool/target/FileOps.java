package dev.cudnntool.target;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * Every change the tool makes to a target goes through this port, one call per change, so
 * tests can make any single call fail and check the target comes back exactly as it was.
 */
public interface FileOps {
    void createDirectory(Path dir) throws IOException;

    /** An atomic rename within one file system; never a copy. */
    void move(Path from, Path to) throws IOException;

    void delete(Path path) throws IOException;

    /** A new file (it must not exist) to write content into. */
    OutputStream newFile(Path file) throws IOException;

    void createSymbolicLink(Path link, String target) throws IOException;

    /** Sets POSIX permission bits where the file system has them; a no-op elsewhere. */
    void setMode(Path file, int mode) throws IOException;

    /** Writes the whole file through a temporary file, forced to disk, then renamed over it. */
    void writeAtomically(Path file, byte[] content) throws IOException;

    /** Appends one line to a file (creating it), forced to disk before it returns. */
    void appendLine(Path file, String line) throws IOException;

    /**
     * Opens an existing file for writing and closes it again, changing nothing. On Windows this
     * fails while a running program has the file open or loaded (a sharing violation).
     */
    void checkNotInUse(Path file) throws IOException;

    /** Proves the folder accepts new files by creating and removing one. */
    void checkWritable(Path dir) throws IOException;

    /**
     * How a folder deletion tells that a folder is on another file system (where it stops, see
     * {@link TreeRemoval}): device numbers, file stores and the mount table by default; tests
     * simulate a mount point with their own.
     */
    default TreeRemoval.SameFileSystem sameFileSystem() {
        return TreeRemoval.standard();
    }
}
