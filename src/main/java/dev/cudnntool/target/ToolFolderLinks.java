package dev.cudnntool.target;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Links where the tool's own folders go ({@code trash}, {@code kept/<id>/<n>},
 * {@code quarantine}, {@code history/<id>/removed/<n>}): the tool never makes them, and files it
 * moved there would leave the target. Rollback refuses them (exit 8); {@code --repair} renames
 * them (the link, never what it points to).
 */
public final class ToolFolderLinks {
    private ToolFolderLinks() {
    }

    public static List<Path> find(Path state) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(state, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        StateFolder folder = StateFolder.at(state);
        collect(folder.trash(), 2, out);
        collect(folder.kept(), 3, out);
        collect(folder.quarantine(), 1, out);
        for (Path record : Leftovers.list(History.dir(state))) {
            if (Files.isDirectory(record, LinkOption.NOFOLLOW_LINKS)) {
                collect(StateFolder.removed(record), 2, out);
            }
        }
        return out;
    }

    /** Links at {@code dir} and in its folders, {@code depth} levels of folders deep. */
    private static void collect(Path dir, int depth, List<Path> out) {
        if (Files.isSymbolicLink(dir)) {
            if (!dir.getFileName().toString().contains(".link-")) { // one --repair renamed already
                out.add(dir);
            }
            return;
        }
        if (depth <= 1 || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        for (Path c : Leftovers.list(dir)) {
            collect(c, depth - 1, out);
        }
    }

}
