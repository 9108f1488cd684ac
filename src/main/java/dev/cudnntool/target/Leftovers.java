package dev.cudnntool.target;
import dev.cudnntool.Finding;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What killed or failed runs leave in the tool's folder: staging folders (hundreds of MB with a
 * real archive), a half-written {@code journal.json.tmp}, a progress log without its journal,
 * history folders that never got their record, the trash. Removed by the next install or
 * rollback, only while it holds the lock: the lock is held by every run for its whole life and
 * dropped by the operating system when a run dies, so holding it proves no run that made them
 * is alive. What a pending journal still needs (its staging and history folder) stays. Folders go
 * through {@link TreeRemoval}: a link in them is removed as a link, a mount point in them is left.
 */
public final class Leftovers {
    private Leftovers() {
    }

    /**
     * What was found and removed. {@code tempJournal}: a journal that never got written (its run
     * changed nothing); {@code leftInPlace}: folders on another file system the removal did not enter.
     */
    public record Cleaned(boolean tempJournal, List<String> removed, List<Path> leftInPlace) {
        /** A warning for each folder left in place. */
        public List<Finding> findings() {
            return TreeRemoval.findings(leftInPlace);
        }
    }

    public static Cleaned clean(JournalRunner runner, FileOps ops, Path state, Journal pending) {
        List<String> removed = new ArrayList<>();
        boolean temp = false;
        if (!Files.isDirectory(state, LinkOption.NOFOLLOW_LINKS)) {
            return new Cleaned(false, removed, List.of());
        }
        Path tmp = StateReader.tempJournal(state);
        if (Files.exists(tmp, LinkOption.NOFOLLOW_LINKS)) {
            temp = pending == null;
            // a folder there (never the tool's) would block every journal to come: removed with what it holds
            if (Files.isDirectory(tmp, LinkOption.NOFOLLOW_LINKS) ? deleteTree(runner, tmp) : delete(ops, tmp)) {
                removed.add(tmp.getFileName().toString());
            }
        }
        Path log = JournalRunner.progressFile(state);
        if (pending == null && Files.exists(log, LinkOption.NOFOLLOW_LINKS) && delete(ops, log)) {
            removed.add(log.getFileName().toString());
        }
        List<Path> entries = list(state);
        for (Path p : entries) {
            String n = p.getFileName().toString();
            boolean needed = pending != null && n.equals(StateFolder.at(state).staging(pending.id()).getFileName().toString());
            if (StateFolder.isStaging(n) && !needed && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && deleteTree(runner, p)) {
                removed.add(n);
            }
        }
        Path trash = StateFolder.at(state).trash();
        if (pending == null && Files.isDirectory(trash, LinkOption.NOFOLLOW_LINKS) && deleteTree(runner, trash)) {
            removed.add(trash.getFileName().toString());
        }
        for (Path d : list(History.dir(state))) {
            boolean needed = pending != null && d.getFileName().toString().equals(pending.recordId());
            if (!needed && Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)
                    && !Files.exists(StateFolder.installRecord(d), LinkOption.NOFOLLOW_LINKS) && onlyFolders(d)
                    && deleteTree(runner, d)) {
                removed.add("history/" + d.getFileName());
            }
        }
        return new Cleaned(temp, removed, runner.leftInPlace());
    }

    /** The entries of a real folder (never through a link); empty when it is not one or cannot be read. */
    static List<Path> list(Path dir) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            ds.forEach(out::add);
        } catch (IOException ignored) {
            // nothing to clean that can be seen
        }
        return out;
    }

    /** A history folder a run made before its record: empty backup slots only, never a file. */
    private static boolean onlyFolders(Path d) {
        try (Stream<Path> s = Files.walk(d)) {
            return s.allMatch(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean delete(FileOps ops, Path p) {
        try {
            ops.delete(p);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** True when the folder is gone (not when a mount point in it was left in place). */
    private static boolean deleteTree(JournalRunner runner, Path p) {
        try {
            runner.deleteTree(p);
            return !Files.exists(p, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return false;
        }
    }
}
