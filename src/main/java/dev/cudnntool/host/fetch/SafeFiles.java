package dev.cudnntool.host.fetch;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;

/**
 * #32 item 1: nothing is read or written through a link in a download or cache folder. A {@code FILE} or
 * {@code FILE.part} there is used only when it is a plain file (never a symbolic link, FIFO, device or
 * folder), has one name (link count 1, where the file system tells it) and is owned by the caller (where
 * it tells owners); anything else is refused with one line (exit 5), never opened.
 */
public final class SafeFiles {
    private SafeFiles() {
    }

    /**
     * The user a file this process creates belongs to: on the machine's own file system the JVM's user, on
     * another (jimfs in tests) the owner it gives new files ({@code user}). Null when owners are not told.
     */
    public static UserPrincipal caller(FileSystem fs) {
        try {
            String name = fs == FileSystems.getDefault() ? System.getProperty("user.name") : "user";
            return fs.getUserPrincipalLookupService().lookupPrincipalByName(name);
        } catch (IOException | UnsupportedOperationException x) {
            return null;
        }
    }

    /** Whether {@code p} exists as itself (a link counts, whatever it names). */
    public static boolean present(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Checks a file the tool is about to read, append to or keep: absent (false), or a plain file of one
     * name owned by {@code caller} (true); anything else is exit 5 naming it and what it is.
     */
    public static boolean plainOwnFile(Path p, UserPrincipal caller) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException x) {
            return false;
        } catch (IOException x) {
            throw refuse(p, "cannot be read (" + x.getMessage() + ")");
        }
        if (a.isSymbolicLink()) {
            throw refuse(p, "is a symbolic link");
        }
        if (!a.isRegularFile()) {
            throw refuse(p, a.isDirectory() ? "is a folder" : "is not a plain file (a FIFO, socket or device)");
        }
        Integer links = linkCount(p);
        if (links != null && links != 1) {
            throw refuse(p, "has " + links + " hard links");
        }
        if (caller != null) {
            try {
                UserPrincipal owner = Files.getOwner(p, LinkOption.NOFOLLOW_LINKS);
                if (!owner.getName().equals(caller.getName())) {
                    throw refuse(p, "is owned by " + owner.getName() + ", not by " + caller.getName());
                }
            } catch (UnsupportedOperationException | IOException x) {
                // owners not told here (Windows without the owner view)
            }
        }
        return true;
    }

    private static Integer linkCount(Path p) {
        try {
            Object n = Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
            return n instanceof Integer i ? i : null;
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException x) {
            return null;
        }
    }

    /**
     * Why a cache folder is not the caller's to use (#32 item 2), or null when it is: an existing folder
     * must be the caller's (owner) and not writable by others, and not a link; for one still to be created the
     * nearest existing folder above must be the caller's or root's (root never creates folders in another
     * user's home).
     */
    public static String notOwn(Path dir, UserPrincipal caller) {
        Path p = dir;
        while (p != null && !present(p)) {
            p = p.getParent();
        }
        if (p == null) {
            return null;
        }
        boolean exists = p.equals(dir);
        try {
            if (exists && Files.isSymbolicLink(p)) {
                return p + " is a symbolic link";
            }
            if (caller != null) {
                String owner = Files.getOwner(p).getName();
                if (!owner.equals(caller.getName()) && (exists || !owner.equals("root"))) {
                    return p + " is owned by " + owner + ", not by " + caller.getName();
                }
            }
            if (exists) {
                PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                if (a.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
                    return p + " is writable by others";
                }
            }
        } catch (UnsupportedOperationException | IOException x) {
            return null; // no owners or modes here (Windows): the user's own profile folder
        }
        return null;
    }

    static ToolException refuse(Path p, String what) {
        return new ToolException(ExitCode.TARGET_NOT_WRITABLE, p + " " + what + ": fetch never reads or writes through it",
                "remove it (or pass --to another folder), then run the same command again");
    }
}
