package dev.cudnntool.target;

import dev.cudnntool.BoundedFiles;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The one way the tool deletes a folder with everything in it (a staging folder, a history
 * folder, the trash, leftovers of stopped runs). The walk never follows a link: a link, and a
 * Windows junction or mount folder (a directory reparse point), is deleted as itself, never what it
 * leads to. It never enters a folder on another file system than the one the tree is on (a mount
 * point someone made inside the tool's folder): such a folder is left in place, with the folders
 * that lead to it, and named in {@link #leftInPlace()}, so the caller warns
 * ({@code cleanup.other-file-system}) instead of failing. Deletions go through {@link FileOps}.
 */
public final class TreeRemoval {
    /** Whether {@code dir} is on the same file system as {@code reference}; both are real folders, never links. */
    @FunctionalInterface
    public interface SameFileSystem {
        boolean test(Path reference, Path dir) throws IOException;
    }

    /**
     * The device number ({@code unix:dev}) where the file system has it, else the file store; on
     * Linux also never a folder {@code /proc/self/mountinfo} lists as a mount point (a bind mount of
     * the same device has the same number).
     */
    public static SameFileSystem standard() {
        return new Standard();
    }

    private final FileOps ops;
    private final SameFileSystem same;
    private final List<Path> leftInPlace = new ArrayList<>();

    /** With the file operations' own test of "same file system" ({@link FileOps#sameFileSystem}). */
    public TreeRemoval(FileOps ops) {
        this(ops, ops.sameFileSystem());
    }

    public TreeRemoval(FileOps ops, SameFileSystem same) {
        this.ops = ops;
        this.same = same;
    }

    /** Every folder left in place so far because it is on another file system. */
    public List<Path> leftInPlace() {
        return List.copyOf(leftInPlace);
    }

    /**
     * Removes {@code root} and what it holds, except folders on another file system than the
     * folder {@code root} is in (and the folders on the way to them). Nothing there is no error.
     * Returns the folders left in place by this call.
     */
    public List<Path> remove(Path root) throws IOException {
        BasicFileAttributes a = attributes(root);
        if (a == null) {
            return List.of();
        }
        if (!isRealFolder(a)) {
            ops.delete(root); // a file or a link: itself, never what a link leads to
            return List.of();
        }
        Path reference = root.getParent() != null && Files.isDirectory(root.getParent(), LinkOption.NOFOLLOW_LINKS)
                ? root.getParent() : root;
        List<Path> kept = new ArrayList<>();
        if (!reference.equals(root) && !same(reference, root)) {
            kept.add(root);
            leftInPlace.addAll(kept);
            return kept;
        }
        Deque<Frame> stack = new ArrayDeque<>();
        stack.push(new Frame(root, children(root, a)));
        while (!stack.isEmpty()) {
            Frame f = stack.peek();
            if (f.children.hasNext()) {
                Path c = f.children.next();
                BasicFileAttributes ca = attributes(c);
                if (ca == null) {
                    continue; // gone meanwhile
                }
                if (!isRealFolder(ca)) {
                    ops.delete(c);
                } else if (!same(reference, c)) {
                    kept.add(c);
                    f.keep = true;
                } else {
                    stack.push(new Frame(c, children(c, ca))); // an explicit stack: no depth overflows it
                }
                continue;
            }
            stack.pop();
            if (f.keep) {
                if (!stack.isEmpty()) {
                    stack.peek().keep = true;
                }
            } else {
                ops.delete(f.dir);
            }
        }
        leftInPlace.addAll(kept);
        return kept;
    }

    /** A folder whose file system cannot be told is treated as another one: left in place, never crossed. */
    private boolean same(Path reference, Path dir) {
        try {
            return same.test(reference, dir);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** One warning per folder left in place. */
    public static List<Finding> findings(List<Path> left) {
        List<Finding> out = new ArrayList<>();
        for (Path p : left) {
            out.add(Finding.warn(FindingId.CLEANUP_OTHER_FILE_SYSTEM, StatePaths.printable(p.toString())
                    + " is on another file system (a mount point inside the tool's folder): it was left in place and"
                    + " nothing on it was deleted", "unmount it, then remove the folder; the next install or rollback"
                    + " cleans up the rest"));
        }
        return out;
    }

    private static final class Frame {
        final Path dir;
        final Iterator<Path> children;
        boolean keep;

        Frame(Path dir, List<Path> children) {
            this.dir = dir;
            this.children = children.iterator();
        }
    }

    /** A folder itself: not a link, not a junction or other reparse point (those report "other" too). */
    private static boolean isRealFolder(BasicFileAttributes a) {
        return a.isDirectory() && !a.isSymbolicLink() && !a.isOther();
    }

    private static BasicFileAttributes attributes(Path p) throws IOException {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * The entries of a folder checked as a real folder ({@code checked}); refused when, by the time
     * it was listed, it had been swapped for a link or another folder (its file key changed).
     */
    private static List<Path> children(Path dir, BasicFileAttributes checked) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            ds.forEach(out::add);
        }
        BasicFileAttributes now = attributes(dir);
        if (now == null || !isRealFolder(now) || !Objects.equals(now.fileKey(), checked.fileKey())) {
            throw new IOException(dir + " changed while it was being removed (replaced by a link or another folder)");
        }
        return out;
    }

    private static final class Standard implements SameFileSystem {
        private Set<String> mountPoints; // read once, on first use

        @Override
        public boolean test(Path reference, Path dir) throws IOException {
            FileSystem fs = dir.getFileSystem();
            boolean sameDevice = fs.supportedFileAttributeViews().contains("unix")
                    ? Objects.equals(Files.getAttribute(reference, "unix:dev", LinkOption.NOFOLLOW_LINKS),
                    Files.getAttribute(dir, "unix:dev", LinkOption.NOFOLLOW_LINKS))
                    : Files.getFileStore(reference).equals(Files.getFileStore(dir));
            return sameDevice && !mountPoints(fs).contains(dir.toRealPath().toString());
        }

        private Set<String> mountPoints(FileSystem fs) {
            if (mountPoints == null) {
                mountPoints = new HashSet<>();
                Path info = fs.getSeparator().equals("/") ? fs.getPath("/proc/self/mountinfo") : null;
                if (info != null && BoundedFiles.isRegularFile(info)) {
                    try {
                        for (String line : BoundedFiles.readLines(info, BoundedFiles.TEXT)) {
                            String[] f = line.split(" ");
                            if (f.length > 4) {
                                mountPoints.add(unescapeMountPoint(f[4]));
                            }
                        }
                    } catch (IOException ignored) {
                        // the device numbers still tell file systems apart
                    }
                }
            }
            return mountPoints;
        }
    }

    /** mountinfo writes a space, tab, newline and backslash as \040, \011, \012 and \134. */
    static String unescapeMountPoint(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 4 <= s.length() && s.substring(i + 1, i + 4).chars().allMatch(d -> d >= '0' && d <= '7')) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
