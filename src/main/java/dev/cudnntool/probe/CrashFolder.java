package dev.cudnntool.probe;
import dev.cudnntool.host.fetch.SafeFiles;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;

/**
 * #32 item 3: the probe child's JVM crash report goes into a private folder of the tool's own, never to
 * a predictable name in a shared folder. The folder is {@code <temp>/cudnn-tool-crash-<user>}: created
 * fresh (mode 0700) when missing; used when it exists only if it is a real folder (not a link), owned by
 * the caller and open to nobody else. Anything else there is left alone and the report is turned off
 * (the JVM writes it to the child's standard error, which the tool reads and never stores).
 */
public final class CrashFolder {
    static final String PREFIX = "cudnn-tool-crash-";
    private static final Set<PosixFilePermission> NOT_OURS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private CrashFolder() {
    }

    /** The private folder under {@code temp} for {@code caller}, or null when none is safe to use. */
    public static Path prepare(Path temp, UserPrincipal caller) {
        if (temp == null) {
            return null;
        }
        Path dir;
        try {
            dir = temp.resolve(PREFIX + safeName(caller == null ? "user" : caller.getName()));
        } catch (RuntimeException x) {
            return null;
        }
        boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
        try {
            if (posix) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException x) {
            // checked below, as any existing one
        } catch (IOException | RuntimeException x) {
            return null;
        }
        return safe(dir, caller, posix) ? dir : null;
    }

    private static boolean safe(Path dir, UserPrincipal caller, boolean posix) {
        try {
            BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink() || !a.isDirectory()) {
                return false;
            }
            if (caller != null) {
                try {
                    if (!Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName().equals(caller.getName())) {
                        return false;
                    }
                } catch (UnsupportedOperationException x) {
                    // owners not told here
                }
            }
            if (posix) {
                PosixFileAttributes p = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                for (PosixFilePermission perm : p.permissions()) {
                    if (NOT_OURS.contains(perm)) {
                        return false;
                    }
                }
            }
            return true;
        } catch (IOException | RuntimeException x) {
            return false;
        }
    }

    /** A user name as a file name part: letters, digits, '.', '_' and '-' only, at most 64. */
    static String safeName(String user) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < user.length() && b.length() < 64; i++) {
            char c = user.charAt(i);
            b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '-') || c == '.' && i > 0 ? c : '_');
        }
        return b.length() == 0 ? "user" : b.toString();
    }

    /** This machine's folder for the current user, or null. */
    static Path forThisProcess() {
        String t = System.getProperty("java.io.tmpdir");
        if (t == null || t.isBlank()) {
            return null;
        }
        try {
            FileSystem fs = FileSystems.getDefault();
            return prepare(fs.getPath(t), SafeFiles.caller(fs));
        } catch (RuntimeException x) {
            return null;
        }
    }
}
