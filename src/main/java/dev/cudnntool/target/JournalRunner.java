package dev.cudnntool.target;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.cudnntool.BoundedFiles;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs one journal: its steps forward (an install, a rollback) or backward (undoing either),
 * appending "done N" / "undone N" to journal.log, forced to disk, after each step. After a
 * crash the log says how many steps are in effect; only the one step at that boundary (carried
 * out, but the crash came before its line) is judged from the disk, which for a single step is
 * unambiguous even where later steps reuse its paths (a rollback puts the old cudnn.h back where
 * it moved the new one from).
 */
public final class JournalRunner {
    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final FileOps ops;
    private final StatePaths paths;
    private final Path stateDir;
    private final FaultHook faults;
    private final TreeRemoval removal;
    private int inEffect;
    private FolderGuard guard;

    /**
     * Runs journals whose paths are stored relative to {@code paths}' target; {@code faults} after
     * each forward step; folders deleted by {@code removal}.
     */
    public JournalRunner(FileOps ops, StatePaths paths, FaultHook faults, TreeRemoval removal) {
        this.ops = ops;
        this.paths = paths;
        this.stateDir = paths.stateDir();
        this.faults = faults;
        this.removal = removal;
    }

    /** Runs journals whose paths are stored relative to {@code paths}' target; {@code faults} after each forward step. */
    public JournalRunner(FileOps ops, StatePaths paths, FaultHook faults) {
        this(ops, paths, faults, new TreeRemoval(ops));
    }

    /** A runner for clean-up only (leftovers, trash): no forward steps, so no fault hook. */
    public JournalRunner(FileOps ops, StatePaths paths) {
        this(ops, paths, FaultHook.NONE);
    }

    private Path path(String stored) {
        return paths.resolve(stored);
    }

    public static Path journalFile(Path stateDir) {
        return StateFolder.at(stateDir).journal();
    }

    public static Path progressFile(Path stateDir) {
        return StateFolder.at(stateDir).progressLog();
    }

    /**
     * The journal on disk, unproven (for a diagnosis such as cudnn verify's); null when none. A
     * damaged one is an IOException with a one-line message naming the file (never Jackson's
     * location text). Anything that acts on a journal reads it through {@link StateReader}.
     */
    public static Journal read(Path stateDir) throws IOException {
        Path f = journalFile(stateDir);
        if (!Files.isRegularFile(f)) {
            return null;
        }
        Journal j;
        try {
            j = JSON.readValue(BoundedFiles.read(f, BoundedFiles.DOCUMENT), Journal.class);
        } catch (JsonProcessingException e) {
            throw new IOException(f + " is damaged: " + StateReader.jsonProblem(e) + "; cudnn rollback --repair sets it aside");
        }
        if (j == null || j.id() == null || j.kind() == null || j.ops() == null) {
            throw new IOException(f + " is damaged: a field is missing; cudnn rollback --repair sets it aside");
        }
        return j;
    }

    /**
     * Writes the journal before the first step; no step is in effect yet. The progress log gets
     * its first line before the journal, so its space is taken while a failure still changes
     * nothing (a full disk then fails here, not halfway through the steps). On failure no
     * journal is in place: the caller may say "nothing changed".
     */
    public void begin(Journal j) throws IOException {
        begin(j, FolderGuard.at(paths.root()));
    }

    /**
     * {@link #begin(Journal)} with the folders as the plan saw them: the journal's own paths are
     * added to {@code planned}, and every step checks its folders against it first.
     */
    public void begin(Journal j, FolderGuard planned) throws IOException {
        guard = watchAll(planned, j);
        if (Files.exists(progressFile(stateDir), LinkOption.NOFOLLOW_LINKS)) {
            ops.delete(progressFile(stateDir)); // left by a run that finished but could not tidy up
        }
        ops.appendLine(progressFile(stateDir), "begin " + j.id());
        write(j);
        inEffect = 0;
    }

    /** After a failed {@link #begin}: removes what it left, so no trace of a journal stays. */
    public void abandon() {
        for (Path p : List.of(StateReader.tempJournal(stateDir), progressFile(stateDir))) {
            try {
                if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                    ops.delete(p);
                }
            } catch (IOException ignored) {
                // a stray progress log or temp journal is removed by the next run holding the lock
            }
        }
    }

    /** Rewrites the journal with a new state; the steps and the progress log stay. */
    public void write(Journal j) throws IOException {
        ops.writeAtomically(journalFile(stateDir), JSON.writeValueAsBytes(j));
    }

    /**
     * The commit point: without journal.json the run is over. The progress log goes after it,
     * as a courtesy: one left behind is meaningless without its journal and the next run removes it.
     */
    public void finish() throws IOException {
        if (Files.exists(journalFile(stateDir))) {
            ops.delete(journalFile(stateDir));
        }
        try {
            if (Files.exists(progressFile(stateDir))) {
                ops.delete(progressFile(stateDir));
            }
        } catch (IOException ignored) {
            // harmless: see above
        }
    }

    /**
     * How many steps of a journal found on disk are in effect: {@code logged} (what its progress
     * log says, read and checked by {@link StateReader}), then the boundary step.
     */
    public void recover(Journal j, int logged) throws IOException {
        guard = watchAll(FolderGuard.at(paths.root()), j);
        int p = logged;
        List<Journal.Op> list = j.ops();
        if (p < list.size() && isDone(list.get(p))) {
            p++;
        } else if (p > 0 && isUndone(list.get(p - 1))) {
            p--;
        }
        inEffect = p;
    }

    private FolderGuard watchAll(FolderGuard g, Journal j) throws IOException {
        for (Journal.Op op : j.ops()) {
            g.watch(path(op.to()));
            if (op.from() != null) {
                g.watch(path(op.from()));
            }
        }
        return g;
    }

    private FolderGuard guard() {
        if (guard == null) {
            guard = FolderGuard.at(paths.root());
        }
        return guard;
    }

    public int inEffect() {
        return inEffect;
    }

    /** Carries out the steps not yet in effect, in order. */
    public void forward(Journal j) throws IOException {
        List<Journal.Op> list = j.ops();
        while (inEffect < list.size()) {
            int i = inEffect;
            apply(list.get(i));
            inEffect = i + 1;
            ops.appendLine(progressFile(stateDir), "done " + i);
            faults.afterCommitStep();
        }
    }

    /** Undoes the steps in effect, last first. */
    public void backward(Journal j) throws IOException {
        List<Journal.Op> list = j.ops();
        while (inEffect > 0) {
            int i = inEffect - 1;
            revert(list.get(i));
            inEffect = i;
            ops.appendLine(progressFile(stateDir), "undone " + i);
        }
    }

    private void apply(Journal.Op op) throws IOException {
        Path to = path(op.to());
        FolderGuard g = guard();
        g.check(to);
        if (op.type() == null) {
            throw new IOException("unknown journal step");
        }
        switch (op.type()) {
            case MKDIR -> {
                if (!exists(to)) {
                    ops.createDirectory(to);
                }
                g.created(to);
            }
            case RMDIR -> {
                if (exists(to)) {
                    if (!isEmptyDir(to)) {
                        throw new IOException(to + " is not empty, so it cannot be removed");
                    }
                    ops.delete(to);
                }
                g.removed(to);
            }
            case MOVE -> {
                Path from = path(op.from());
                g.check(from);
                if (exists(to)) {
                    throw new IOException(to + " exists although the journal has not put it there");
                }
                if (!exists(from)) {
                    throw new IOException(from + " is missing: it was moved or deleted by something else");
                }
                ops.move(from, to);
            }
        }
    }

    private void revert(Journal.Op op) throws IOException {
        Path to = path(op.to());
        FolderGuard g = guard();
        g.check(to);
        if (op.type() == null) {
            throw new IOException("unknown journal step");
        }
        switch (op.type()) {
            case MKDIR -> {
                if (exists(to)) {
                    if (!isEmptyDir(to)) {
                        throw new IOException(to + " is not empty, so it cannot be removed");
                    }
                    ops.delete(to);
                }
                g.removed(to);
            }
            case RMDIR -> {
                if (!exists(to)) {
                    ops.createDirectory(to);
                }
                g.created(to);
            }
            case MOVE -> {
                Path from = path(op.from());
                g.check(from);
                if (!exists(to)) {
                    throw new IOException(to + " is missing, so it cannot be moved back to " + from);
                }
                if (exists(from)) {
                    throw new IOException(from + " is occupied, so " + to + " cannot be moved back");
                }
                mkdirs(from.getParent()); // a staging folder may have been cleaned already
                ops.move(to, from);
            }
        }
    }

    /** Whether one step's effect is on the disk (used only at the boundary the log leaves open). */
    private boolean isDone(Journal.Op op) throws IOException {
        Path to = path(op.to());
        return switch (op.type()) {
            case MKDIR -> exists(to);
            case RMDIR -> !exists(to);
            default -> exists(to) && !exists(path(op.from()));
        };
    }

    private boolean isUndone(Journal.Op op) throws IOException {
        Path to = path(op.to());
        return switch (op.type()) {
            case MKDIR -> !exists(to);
            case RMDIR -> exists(to);
            default -> !exists(to) && exists(path(op.from()));
        };
    }

    private void mkdirs(Path dir) throws IOException {
        if (dir == null || exists(dir)) {
            return;
        }
        mkdirs(dir.getParent());
        ops.createDirectory(dir);
    }

    /**
     * Deletes a folder of the tool's own (staging, history entry) with everything in it, through
     * {@link TreeRemoval}: never through a link, never onto another file system (such a folder is
     * left in place and listed in {@link #leftInPlace()}).
     */
    public void deleteTree(Path dir) throws IOException {
        removal.remove(dir);
    }

    /** The folders {@link #deleteTree} left in place because they are on another file system. */
    public List<Path> leftInPlace() {
        return removal.leftInPlace();
    }

    static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    public static boolean isEmptyDir(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            return !ds.iterator().hasNext();
        }
    }
}
