package dev.cudnntool.host.fetch;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Where {@code cudnn install --release} keeps the archives it fetches: a per-user cache, so one
 * download serves every toolkit and prefix, and the target's own state folder holds only the
 * tool's small records. {@code CUDNN_TOOL_CACHE} wins; else Linux
 * {@code $XDG_CACHE_HOME/cudnn-tool/archives} or {@code $HOME/.cache/cudnn-tool/archives}, Windows
 * {@code %LOCALAPPDATA%\cudnn-tool\archives}. Files there are only ever NVIDIA's: the fetch renames a
 * download into place only once its size and sha256 are the catalogue's, and never overwrites.
 */
public final class ArchiveCache {
    /** Overrides the cache folder. */
    public static final String ENV = "CUDNN_TOOL_CACHE";

    private ArchiveCache() {
    }

    public static Path dir(Host host) {
        String own = blankToNull(host.env(ENV));
        if (own != null) {
            return path(host, ENV, own);
        }
        if (host.windows()) {
            String local = blankToNull(host.env("LOCALAPPDATA"));
            if (local != null) {
                return path(host, "LOCALAPPDATA", local).resolve("cudnn-tool").resolve("archives");
            }
        } else {
            String xdg = blankToNull(host.env("XDG_CACHE_HOME"));
            if (xdg != null && xdg.startsWith("/")) {
                return path(host, "XDG_CACHE_HOME", xdg).resolve("cudnn-tool").resolve("archives");
            }
            String home = blankToNull(host.env("HOME"));
            if (home != null && home.startsWith("/")) {
                return path(host, "HOME", home).resolve(".cache").resolve("cudnn-tool").resolve("archives");
            }
        }
        throw new ToolException(ExitCode.USAGE, "no folder to fetch the archive into ("
                + (host.windows() ? "LOCALAPPDATA" : "HOME and XDG_CACHE_HOME") + " not set)",
                "set " + ENV + " to a folder you can write, or download the archive (cudnn fetch VERSION --to DIR) and pass --archive");
    }

    /**
     * A private temporary folder (mode 0700 where modes exist) for a download when the cache folder is not the
     * caller's (#32 item 2): under {@code java.io.tmpdir} ({@code TEMP} on Windows), a new random name.
     */
    public static Path privateTemp(Host host) {
        try {
            String t = host.windows() && blankToNull(host.env("TEMP")) != null ? host.env("TEMP") : System.getProperty("java.io.tmpdir");
            Path base = host.path(t);
            Files.createDirectories(base);
            if (base.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                return Files.createTempDirectory(base, "cudnn-tool-fetch-",
                        PosixFilePermissions.asFileAttribute(
                                PosixFilePermissions.fromString("rwx------")));
            }
            return Files.createTempDirectory(base, "cudnn-tool-fetch-");
        } catch (IOException | RuntimeException x) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "cannot create a private temporary folder: " + x.getMessage(),
                    "set " + ENV + " to a folder of your own", x);
        }
    }

    private static Path path(Host host, String name, String value) {
        try {
            Path p = host.path(value);
            if (!p.isAbsolute()) {
                throw new InvalidPathException(value, "not an absolute path");
            }
            return p.normalize();
        } catch (InvalidPathException e) {
            throw new ToolException(ExitCode.USAGE, name + "=" + Text.printable(Text.oneLine(value)) + " is not a usable folder ("
                    + e.getReason() + ")", "set " + ENV + " to an absolute folder you can write", e);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
