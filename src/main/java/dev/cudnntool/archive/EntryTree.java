package dev.cudnntool.archive;

import dev.cudnntool.archive.format.EntryType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The shape of the archive as its entries arrive: which names are folders (written or implied by
 * a deeper entry) and which are files or links. Refuses an entry that would be written through
 * an earlier link or file, a file or link where the archive has a folder, and (once every entry is
 * known, since tar order is free) a symbolic link that does not name a file of the same role in
 * its own folder, or a chain of links that never reaches a file. Names compare without case.
 */
final class EntryTree {
    private record Node(String name, EntryType type, EntryRole role, String targetKey) {
    }

    private final Map<String, Node> nonFolders = new HashMap<>();
    private final Set<String> folders = new HashSet<>();
    private final List<String> links = new ArrayList<>();

    /** Adds one entry (its normalised segments, top folder first); {@code linkTarget} is the plain name of a symlink's target. */
    void add(String name, List<String> segs, EntryType type, EntryRole role, String linkTarget) {
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < segs.size() - 1; i++) {
            if (i > 0) {
                prefix.append('/');
            }
            prefix.append(segs.get(i).toLowerCase(Locale.ROOT));
            Node above = nonFolders.get(prefix.toString());
            if (above != null) {
                throw EntrySafety.unsafe(name, "it lies below '" + above.name() + "', which the archive made a "
                        + (above.type() == EntryType.SYMLINK ? "symbolic link: it would be written through the link"
                        : "file"));
            }
        }
        for (String f = prefix.toString(); !f.isEmpty(); f = parent(f)) {
            folders.add(f);
        }
        String key = key(segs);
        if (type == EntryType.DIRECTORY) {
            folders.add(key);
            return;
        }
        if (folders.contains(key)) {
            throw EntrySafety.unsafe(name, "a " + (type == EntryType.SYMLINK ? "symbolic link" : "file")
                    + " where the archive has a folder of that name");
        }
        String targetKey = linkTarget == null ? null : parent(key) + "/" + linkTarget.toLowerCase(Locale.ROOT);
        nonFolders.put(key, new Node(name, type, role, targetKey));
        if (type == EntryType.SYMLINK) {
            links.add(key);
        }
    }

    /**
     * Every symbolic link names a file (or a link that ends at a file) of the same role in its own
     * folder, so once the files are spread into the target's folders it still lands on a file of
     * this install beside it, never on a folder, never elsewhere.
     */
    void checkLinks() {
        for (String key : links) {
            Node link = nonFolders.get(key);
            Set<String> seen = new HashSet<>();
            Node at = link;
            while (at.type() == EntryType.SYMLINK) {
                if (!seen.add(at.targetKey())) {
                    throw EntrySafety.unsafe(link.name(), "its chain of symbolic links loops");
                }
                if (folders.contains(at.targetKey())) {
                    throw EntrySafety.unsafe(link.name(), "a symbolic link to a folder (archives from NVIDIA have none)");
                }
                Node next = nonFolders.get(at.targetKey());
                if (next == null) {
                    throw EntrySafety.unsafe(link.name(), "the symbolic link names no file of the archive in its own folder");
                }
                if (next.role() != link.role()) {
                    throw EntrySafety.unsafe(link.name(), "the symbolic link names '" + next.name()
                            + "', which is not the same kind of file and is installed elsewhere");
                }
                at = next;
            }
        }
    }

    private static String key(List<String> segs) {
        return String.join("/", segs).toLowerCase(Locale.ROOT);
    }

    private static String parent(String key) {
        int slash = key.lastIndexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }
}
