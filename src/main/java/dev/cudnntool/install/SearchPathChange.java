package dev.cudnntool.install;

import dev.cudnntool.BoundedFiles;
import dev.cudnntool.install.state.IoFailure;
import dev.cudnntool.install.state.JournalRunner;
import dev.cudnntool.install.state.StateFolder;
import dev.cudnntool.install.state.StatePaths;
import dev.cudnntool.install.state.StateReader;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.ToolException;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.searchpath.LdSoConfPathStore;
import dev.cudnntool.host.searchpath.SearchPathEntries;
import dev.cudnntool.host.searchpath.SearchPathStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code install --add-to-path}: puts the runtime folder on the persistent search path (the
 * user's or machine's PATH in the registry; an ld.so.conf.d file on Linux) as a step of the
 * install. The value as it was is written to the install's history folder BEFORE the change
 * ({@value #FILE}), so an automatic undo, a resumed undo or a rollback restores it byte for
 * byte; if the user changed the value since, only the entry added here is taken out.
 */
public final class SearchPathChange {
    public static final String FILE = StateFolder.SEARCH_PATH_RECORD;

    /** What {@value #FILE} holds; {@code before} null when there was no value (or no file). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Recorded(String scope, String location, String entry, SearchPathStore.Raw before,
                           SearchPathStore.Raw after) {
    }

    private final Host host;
    private final FileOps ops;
    private final SearchPathStore store;
    private final SearchPathStore.Scope scope;

    public SearchPathChange(Host host, FileOps ops, SearchPathStore store, SearchPathStore.Scope scope) {
        this.host = host;
        this.ops = ops;
        this.store = store;
        this.scope = scope;
    }

    private String scopeWords() {
        return host.windows() ? "the " + scope.label() + " PATH" : "the loader's search path";
    }

    /** True when the folder is on the persistent search path already: nothing to add. */
    public boolean alreadyThere(Path runtimeDir) {
        String dir = runtimeDir.toString();
        boolean listed = store.persistentEntries().stream()
                .anyMatch(e -> host.windows() ? SearchPathEntries.sameWindowsDir(e, dir) : e.equals(dir));
        // Linux: a line in /etc/ld.so.conf.d means nothing to the loader until ldconfig caches it; the cache decides.
        return listed && (host.windows() || !(store instanceof LdSoConfPathStore) || LdSoCache.of(host).hasFolder(host, runtimeDir));
    }

    /**
     * Before anything changes, dry run or not: exit 2 when the folder cannot be written as one
     * entry that means exactly it (on Linux, ldconfig cuts a line at '#' and '='; see
     * {@link SearchPathEntries#unsafeEntry}).
     */
    public void checkEntry(Path targetRoot, Path runtimeDir) {
        String dir = runtimeDir.toString();
        String why = SearchPathEntries.unsafeEntry(dir, host.windows());
        if (why == null && SearchPathEntries.unsafeEntry(targetRoot.toString(), host.windows()) != null) {
            dir = targetRoot.toString(); // "/opt/cudnn " + "/lib": ldconfig would read it, but a person would not see it
            why = SearchPathEntries.unsafeEntry(dir, host.windows());
        }
        if (why != null) {
            throw new ToolException(ExitCode.USAGE, "--add-to-path: the folder " + StatePaths.printable(dir)
                    + " cannot go on " + scopeWords() + " as it is: " + why + "; nothing was changed",
                    "use a plain path: install into a folder whose path has no "
                            + (host.windows() ? "';', '\"', '%'" : "'#', '='") + ", control characters or blanks at either end"
                            + " and is valid UTF-8 (for example --prefix " + (host.windows() ? "C:\\cudnn" : "/opt/cudnn")
                            + "), or leave out --add-to-path");
        }
    }

    /** Before anything changes: exit 5 when this run may not write where the entry goes. */
    public void checkAllowed(Path runtimeDir) {
        if (alreadyThere(runtimeDir)) {
            return;
        }
        String why = store.cannotWrite(scope);
        if (why != null) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "--add-to-path: " + why + "; nothing was changed",
                    host.windows() ? (scope == SearchPathStore.Scope.MACHINE
                            ? "run from an elevated prompt (Run as administrator), or use --add-to-path for the user PATH"
                            : "check the registry key HKCU\\Environment is writable")
                            : "run the install as root (sudo), or leave out --add-to-path and add to your shell profile: "
                            + "export LD_LIBRARY_PATH=" + runtimeDir + ":$LD_LIBRARY_PATH");
        }
    }

    /** The dry run's line: what the real run would do. */
    public Finding preview(Path runtimeDir, String installId) {
        if (alreadyThere(runtimeDir)) {
            return Finding.info(FindingId.INSTALL_ADD_TO_PATH, runtimeDir + " is on " + scopeWords() + " already; nothing would be added");
        }
        return Finding.info(FindingId.INSTALL_ADD_TO_PATH, "would add " + runtimeDir + " to " + scopeWords() + " ("
                + store.location(scope, installId) + ")" + (host.windows() ? "" : " and run ldconfig"));
    }

    /** After the files are in place: records the value as it is in {@code historyDir}, then changes it. */
    public Finding apply(Path historyDir, String installId, Path runtimeDir) throws IOException {
        if (alreadyThere(runtimeDir)) {
            return Finding.info(FindingId.INSTALL_ADD_TO_PATH, runtimeDir + " is on " + scopeWords() + " already; nothing was added");
        }
        String dir = runtimeDir.toString();
        if (SearchPathEntries.unsafeEntry(dir, host.windows()) != null) { // checked before the commit; never written
            throw new IOException("--add-to-path: " + StatePaths.printable(dir) + " is not a plain path");
        }
        SearchPathStore.Raw before = store.read(scope, installId);
        SearchPathStore.Raw after = host.windows() ? SearchPathEntries.windowsWith(before, dir) : SearchPathEntries.confFile(dir);
        Recorded rec = new Recorded(scope.label(), store.location(scope, installId), dir, before, after);
        ops.writeAtomically(StateFolder.searchPathRecord(historyDir), JournalRunner.JSON.writeValueAsBytes(rec)); // fsync'd, before the change
        store.write(scope, installId, after);
        String told = announce();
        return Finding.info(FindingId.INSTALL_ADD_TO_PATH, "added " + dir + " to " + scopeWords() + " (" + rec.location() + ")"
                + (host.windows() ? "; new terminals see it" : "; ldconfig was run") + told);
    }

    private String announce() {
        try {
            store.announce();
            return "";
        } catch (IOException | RuntimeException e) {
            return " (but telling the system failed: " + e.getMessage() + ")";
        }
    }

    /**
     * Undoes what {@code historyDir} records, if anything: the old value back byte for byte, or,
     * when the value was changed since, only the entry added. Null when nothing was recorded.
     */
    public static Finding undo(Host host, SearchPathStore store, Path historyDir, String installId, boolean dryRun) {
        Path file = StateFolder.searchPathRecord(historyDir);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        Recorded rec;
        try {
            rec = JournalRunner.JSON.readValue(BoundedFiles.read(file, BoundedFiles.TEXT), Recorded.class);
        } catch (IOException e) {
            throw damaged(file, installId, "it cannot be read (" + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                    ? StateReader.jsonProblem(j) : IoFailure.describe(e)) + ")");
        }
        SearchPathStore.Scope scope = validated(host, rec, file, historyDir, installId);
        try {
            SearchPathStore.Raw now = store.read(scope, installId);
            SearchPathStore.Raw restore;
            String said;
            String would;
            if (!host.windows()) {
                restore = null;
                said = now == null ? null : "removed " + rec.location() + " and ran ldconfig";
                would = "would remove " + rec.location() + " and run ldconfig";
            } else if (java.util.Objects.equals(now, rec.after())) {
                restore = rec.before();
                said = "restored " + rec.location() + " exactly as it was before the install";
                would = "would restore " + rec.location() + " exactly as it was before the install";
            } else if (now != null && SearchPathEntries.windowsContains(now, rec.entry())) {
                restore = SearchPathEntries.windowsWithout(now, rec.entry());
                said = rec.location() + " was changed since the install: only the entry it added (" + rec.entry()
                        + ") was removed, the rest was kept";
                would = rec.location() + " was changed since the install: would remove only the entry it added ("
                        + rec.entry() + ") and keep the rest";
            } else {
                restore = now;
                said = null;
                would = null;
            }
            if (said == null) {
                return Finding.info(FindingId.ROLLBACK_SEARCH_PATH, rec.entry() + " is no longer in " + rec.location() + "; nothing to undo there");
            }
            if (dryRun) {
                return Finding.info(FindingId.ROLLBACK_SEARCH_PATH, would);
            }
            String why = store.cannotWrite(scope);
            if (why != null) {
                throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "undoing --add-to-path: " + why + "; nothing was changed",
                        host.windows() ? "run from an elevated prompt (Run as administrator)" : "run cudnn-rollback as root (sudo)");
            }
            store.write(scope, installId, restore);
            try {
                store.announce();
            } catch (IOException | RuntimeException e) {
                said += " (but telling the system failed: " + e.getMessage() + ")";
            }
            return Finding.info(FindingId.ROLLBACK_SEARCH_PATH, said);
        } catch (IOException e) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "undoing --add-to-path in " + rec.location() + " failed: "
                    + e.getMessage(), "fix the cause and run cudnn-rollback again");
        }
    }

    /**
     * The record is input, not truth: it may only ever take out one entry that names a folder
     * inside this target, and restore a value that is exactly the one before that entry was added.
     * Anything else (a forged or damaged file) refuses with exit 8 before anything changes.
     */
    static SearchPathStore.Scope validated(Host host, Recorded rec, Path file, Path historyDir, String installId) {
        if (rec == null || rec.scope() == null || rec.entry() == null || rec.entry().isBlank() || rec.location() == null) {
            throw damaged(file, installId, "fields are missing");
        }
        SearchPathStore.Scope scope = switch (rec.scope().toLowerCase(java.util.Locale.ROOT)) {
            case "user" -> SearchPathStore.Scope.USER;
            case "machine" -> SearchPathStore.Scope.MACHINE;
            default -> throw damaged(file, installId, "its scope '" + rec.scope() + "' is neither user nor machine");
        };
        Path root = historyDir.getParent().getParent().getParent(); // <root>/.cudnn-tool/history/<id>
        Path entry;
        try {
            entry = historyDir.getFileSystem().getPath(rec.entry()).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw damaged(file, installId, "its entry is not a path");
        }
        if (!entry.isAbsolute() || !entry.startsWith(root.normalize()) || entry.equals(root.normalize())
                || rec.entry().chars().anyMatch(c -> c < 0x20 || c == ';')) {
            throw damaged(file, installId, "its entry " + rec.entry() + " is not a folder inside " + root);
        }
        if (host.windows() && rec.after() != null
                && !java.util.Objects.equals(rec.after(), SearchPathEntries.windowsWith(rec.before(), rec.entry()))) {
            throw damaged(file, installId, "the value it would restore is not the value before " + rec.entry() + " was added");
        }
        return scope;
    }

    private static ToolException damaged(Path file, String installId, String why) {
        return new ToolException(ExitCode.NOTHING_TO_ROLL_BACK, "the search-path record " + file + " of install " + installId
                + " is damaged: " + why + "; nothing was changed",
                "move " + file + " out of the way and run cudnn-rollback again (then take the folder off PATH by hand if it is still there)");
    }

    /** The dry run: the line saying what would happen; the reason the real run would stop (exit 5), or null. */
    public String dryRun(java.util.List<Finding> findings, Path runtimeDir) {
        findings.add(preview(runtimeDir, "<install id>"));
        try {
            checkAllowed(runtimeDir);
            return null;
        } catch (ToolException e) {
            findings.add(Finding.error(FindingId.INSTALL_TARGET_NOT_WRITABLE, e.getMessage(), e.fix()));
            return e.getMessage();
        }
    }

    /** The automatic undo of a failed install (or of a killed one, resumed by rollback). */
    public void undoInstall(Path historyDir, String installId) throws IOException {
        undoRecorded(host, store, historyDir, installId);
    }

    /** As {@link #undo}, for callers that report failures as I/O errors. */
    public static void undoRecorded(Host host, SearchPathStore store, Path historyDir, String installId) throws IOException {
        try {
            undo(host, store, historyDir, installId, false);
        } catch (ToolException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
