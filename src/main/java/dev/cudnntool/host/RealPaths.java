package dev.cudnntool.host;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The one way the tool resolves real paths and compares files (#29 item 5), as static functions so
 * that code under {@code host} without a {@link Host} at hand uses the same rule; {@link Host#realPath}
 * and {@link Host#sameFile} delegate here.
 */
public final class RealPaths {
    private RealPaths() {
    }

    /** Links followed, or the absolute normal path when it cannot be resolved (missing, dangling, a loop, unreadable). */
    public static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | RuntimeException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    /**
     * The same file: the same real path (without case on Windows), or the same path when neither can be
     * resolved. Hard links are not followed: two hard links of one file are two copies (installed and
     * removed apart), as the loader's $ORIGIN sees them.
     */
    public static boolean sameFile(Path a, Path b, boolean ignoreCase) {
        String x = real(a).toString();
        String y = real(b).toString();
        return ignoreCase ? x.equalsIgnoreCase(y) : x.equals(y);
    }
}
