package dev.cudnntool;

import java.nio.file.Path;

/**
 * Whether a path is one of this machine's files, which another program (a child process, the JDK's
 * {@code java.util.zip.ZipFile}) can open by its name: a path of the platform's own file-system
 * provider ({@code file:}), not of an in-memory one such as jimfs. Asked of the path itself, so a
 * test on jimfs takes the other branch without anything being swapped out.
 */
public final class PlatformFiles {
    private PlatformFiles() {
    }

    public static boolean openableByName(Path p) {
        return "file".equalsIgnoreCase(p.getFileSystem().provider().getScheme());
    }
}
