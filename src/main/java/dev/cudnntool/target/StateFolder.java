package dev.cudnntool.target;

import dev.cudnntool.archive.EntrySafety;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The tool's own folder inside a target, {@code <target>/.cudnn-tool}, and the one place its
 * file names are spelled: the lock, the journal with its temporary file and progress log, the
 * staging folder of a run, the history of installs (each with its backup, removed files and
 * --add-to-path record), and the trash, kept and quarantine folders of rollback and repair.
 */
public final class StateFolder {
    /** The folder's name; an archive may not carry it (see {@link EntrySafety}). */
    public static final String NAME = EntrySafety.STATE_FOLDER;
    static final String STAGING_PREFIX = "staging-";
    /** What a history folder's --add-to-path record is called. */
    public static final String SEARCH_PATH_RECORD = "search-path.json";

    private final Path dir;

    private StateFolder(Path dir) {
        this.dir = dir;
    }

    /** The state folder of the target whose root is given. */
    public static StateFolder of(Path targetRoot) {
        return new StateFolder(targetRoot.resolve(NAME));
    }

    /** The state folder at {@code dir} (a path ending in {@value #NAME}). */
    public static StateFolder at(Path dir) {
        return new StateFolder(dir);
    }

    public Path dir() {
        return dir;
    }

    public Path lock() {
        return dir.resolve("lock");
    }

    public Path journal() {
        return dir.resolve("journal.json");
    }

    /** The journal as it is written, before the rename that puts it in place. */
    public Path tempJournal() {
        return dir.resolve("journal.json.tmp");
    }

    public Path progressLog() {
        return dir.resolve("journal.log");
    }

    public Path history() {
        return dir.resolve("history");
    }

    public Path history(String installId) {
        return history().resolve(installId);
    }

    /** Where one run unpacks the archive before its commit. */
    public Path staging(String runId) {
        return dir.resolve(STAGING_PREFIX + runId);
    }

    static boolean isStaging(String fileName) {
        return fileName.startsWith(STAGING_PREFIX);
    }

    public Path trash() {
        return dir.resolve("trash");
    }

    public Path kept() {
        return dir.resolve("kept");
    }

    public Path quarantine() {
        return dir.resolve("quarantine");
    }

    /** One install's record inside its history folder. */
    public static Path installRecord(Path historyDir) {
        return historyDir.resolve("install.json");
    }

    /** Where a rollback moves the files an install put in place (inside that install's history folder). */
    public static Path removed(Path historyDir) {
        return historyDir.resolve("removed");
    }

    /** The --add-to-path record of one install's history folder. */
    public static Path searchPathRecord(Path historyDir) {
        return historyDir.resolve(SEARCH_PATH_RECORD);
    }

    /**
     * After a run, holding the lock no longer: removes an empty history folder and then, when
     * {@code folderToo} and nothing but the lock file is left, the lock file and the folder itself,
     * so a run that leaves no record leaves the target as it found it. True when the folder is gone.
     */
    public boolean tidy(FileOps ops, boolean folderToo) {
        try {
            Path hist = history();
            if (Files.isDirectory(hist) && JournalRunner.isEmptyDir(hist)) {
                ops.delete(hist);
            }
            if (folderToo && onlyLockLeft()) {
                Files.deleteIfExists(lock());
                ops.delete(dir);
                return true;
            }
        } catch (IOException ignored) {
            // an empty tool folder is harmless; nothing of cuDNN's was left behind
        }
        return false;
    }

    private boolean onlyLockLeft() throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (!p.getFileName().equals(lock().getFileName())) {
                    return false;
                }
            }
        }
        return true;
    }
}
