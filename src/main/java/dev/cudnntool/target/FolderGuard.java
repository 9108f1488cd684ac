package dev.cudnntool.target;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The folders a journal moves files through, as they were when the plan was made. Right before
 * each step the folders on the way from the target's root to the step's paths are compared with
 * what was recorded (a link or a folder, its file key, a link's target): a target folder swapped
 * for a link to somewhere else while the tool runs stops the journal there ({@link FolderChanged}),
 * so nothing is moved through it and the steps already taken are undone (or, where the swap
 * makes that impossible, left recorded for {@code cudnn rollback}).
 *
 * <p>What is left: the few microseconds between the check and the rename itself. Closing them
 * needs renames relative to an open folder handle ({@code renameat}), which the file-operations
 * port does not offer; see docs/design.md, Security model.
 */
public final class FolderGuard {
    private static final int MAX_DEPTH = 64;
    private final Path root;
    private final Map<Path, Identity> known = new HashMap<>();

    private FolderGuard(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public static FolderGuard at(Path root) {
        return new FolderGuard(root);
    }

    /** Records (once) every existing folder on the way to {@code file}; called when the plan is made. */
    public FolderGuard watch(Path file) throws IOException {
        Path parent = file.toAbsolutePath().normalize().getParent();
        for (Path f : chain(parent)) {
            if (!known.containsKey(f)) {
                Identity id = Identity.of(f);
                if (id != null) {
                    known.put(f, id);
                }
            }
        }
        return this;
    }

    /**
     * Throws {@link FolderChanged} when a folder on the way to {@code file} is not what was
     * recorded, or a link appeared where there was nothing. A folder that appeared (a step
     * created it) is recorded now; one that is gone is forgotten (nothing moves through it).
     */
    public void check(Path file) throws IOException {
        Path parent = file.toAbsolutePath().normalize().getParent();
        for (Path f : chain(parent)) {
            Identity was = known.get(f);
            Identity now = Identity.of(f);
            if (now == null) {
                // Gone (the tool's own staging, cleaned) or not made yet: nothing can be moved through
                // it; whoever makes it next (a step, the undo's mkdirs) is judged then.
                known.remove(f);
                return;
            }
            if (was == null) {
                if (now.link() || !now.dir()) {
                    throw new FolderChanged(f, "it appeared as " + now.describe(f) + " where the plan had no folder");
                }
                known.put(f, now);
            } else if (!was.equals(now)) {
                throw new FolderChanged(f, "it is now " + now.describe(f)
                        + (was.link() ? "" : ", no longer the folder the plan was made for"));
            }
        }
    }

    /** A folder a step created must be a plain folder; it is recorded from now on. */
    public void created(Path dir) throws IOException {
        Path d = dir.toAbsolutePath().normalize();
        Identity id = Identity.of(d);
        if (id == null || id.link() || !id.dir()) {
            throw new FolderChanged(d, id == null ? "it is gone" : "it is " + id.describe(d) + ", not the folder the tool made");
        }
        known.put(d, id);
    }

    /** A folder a step removed. */
    public void removed(Path dir) {
        known.remove(dir.toAbsolutePath().normalize());
    }

    /** The target's root, then each folder below it down to {@code dir}; outside the root, every ancestor. */
    private List<Path> chain(Path dir) {
        List<Path> out = new ArrayList<>();
        if (dir == null) {
            return out;
        }
        Path start = dir.startsWith(root) ? root : dir.getRoot();
        if (start == null) {
            return out;
        }
        out.add(start);
        Path rel = start.relativize(dir);
        Path cur = start;
        for (Path part : rel) {
            if (part.toString().isEmpty()) {
                continue;
            }
            cur = cur.resolve(part.toString());
            out.add(cur);
            if (out.size() > MAX_DEPTH) {
                break;
            }
        }
        return out;
    }

    /** A step stopped because a folder on its way changed while the tool ran. */
    public static final class FolderChanged extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient Path folder;

        FolderChanged(Path folder, String how) {
            super(folder + " changed while the tool was working in it (" + how + "); stopped before moving anything through it");
            this.folder = folder;
        }

        public Path folder() {
            return folder;
        }
    }

    /**
     * What a folder was: a link (with its target) or not, a folder or not, its file key, and its
     * real path. Windows has no file key in Java (null) and Wine reports a folder's change time
     * as its creation time, so there the real path is what tells a junction or link swapped in;
     * a plain folder replaced by another plain folder of the same name goes unseen there.
     */
    record Identity(boolean link, boolean dir, Object key, String real, String linkTarget) {
        static Identity of(Path p) throws IOException {
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return null;
            }
            String target = a.isSymbolicLink() ? Files.readSymbolicLink(p).toString() : null;
            Object key = a.fileKey();
            String real;
            try {
                real = p.toRealPath().toString(); // where it leads: a link or junction swapped in changes it
            } catch (IOException e) {
                real = null; // a dangling link: its target text and key still tell
            }
            return new Identity(a.isSymbolicLink(), a.isDirectory(), key, real, target);
        }

        String describe(Path p) {
            return link ? "a link to " + linkTarget : dir ? "another folder" : "a file";
        }
    }
}
