package dev.cudnntool.install;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.Hex;
import dev.cudnntool.ToolException;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.searchpath.LdSoConfPathStore;
import dev.cudnntool.host.searchpath.SearchPathEntries;
import dev.cudnntool.host.searchpath.SearchPathStore;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.target.History;
import dev.cudnntool.target.IoFailure;
import dev.cudnntool.target.JournalRunner;
import dev.cudnntool.target.StateFolder;
import dev.cudnntool.target.StatePaths;
import dev.cudnntool.target.StateReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code install --add-to-path}: puts the runtime folder on the persistent search path (the
 * user's or machine's PATH in the registry; an ld.so.conf.d file on Linux) as a step of the
 * install. The value as it was is written to the install's history folder BEFORE the change
 * ({@value #FILE}), so an automatic undo, a resumed undo or a rollback restores it byte for
 * byte; if the user changed the value since, only the entry added here is taken out.
 */
public final class SearchPathChange {
    public static final String FILE = StateFolder.SEARCH_PATH_RECORD;

    /**
     * What {@value #FILE} holds: {@code before} the value (Windows) or the conf file's bytes (Linux)
     * as they were, null when there was none; {@code after} the bytes the tool wrote and
     * {@code written} their sha256 (records of the first format lack it: it is computed from
     * {@code after}). Rollback restores {@code before} only while the value still holds exactly
     * {@code written}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Recorded(String scope, String location, String entry, SearchPathStore.Raw before,
                           SearchPathStore.Raw after, String written) {
        public Recorded(String scope, String location, String entry, SearchPathStore.Raw before, SearchPathStore.Raw after) {
            this(scope, location, entry, before, after, after == null || after.data() == null ? null : sha256(after.data()));
        }
    }

    static String sha256(byte[] data) {
        return Hex.of(Hex.newSha256().digest(data));
    }

    /** The most a recorded value may hold (a Windows Path value is at most 32,767 characters). */
    static final int MAX_VALUE = 1 << 20;
    private static final int MAX_TEXT = 4096;

    private final Host host;
    private final FileOps ops;
    private final SearchPathStore store;
    private final SearchPathStore.Scope scope;
    private boolean onPath; // the folder is on the search path now (or would be, in a dry run)

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
                            + "export LD_LIBRARY_PATH=" + Fix.quote(Fix.Shell.POSIX, runtimeDir.toString()) + ":$LD_LIBRARY_PATH");
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
            onPath = true;
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
        onPath = told.isEmpty(); // ldconfig failed: the loader does not see it yet
        return Finding.info(FindingId.INSTALL_ADD_TO_PATH, "added " + dir + " to " + scopeWords() + " (" + rec.location() + ")"
                + (!told.isEmpty() ? told : host.windows() ? "; new terminals see it" : "; ldconfig was run"));
    }

    /**
     * Once this run has put the folder on the search path (or found it there), the host check's
     * {@code search-path.missing} about it, made before, is no longer true: it is taken out of
     * {@code findings}. Kept when ldconfig failed, since the loader then does not see the folder yet.
     */
    public void settle(List<Finding> findings, Path runtimeDir) {
        if (onPath) {
            String dir = runtimeDir.toString() + " ";
            findings.removeIf(f -> f.is(FindingId.SEARCH_PATH_MISSING) && f.message().startsWith(dir));
        }
    }

    private String announce() {
        try {
            store.announce();
            return "";
        } catch (IOException | RuntimeException e) {
            return "; but " + (host.windows() ? "telling the system" : "running ldconfig") + " failed: " + e.getMessage();
        }
    }

    /**
     * What undoing one install's --add-to-path will do, decided before anything changes (the record
     * read and proven, the rights checked), done later by {@link #apply}: a rollback first puts the
     * files back and only then the search path, so a rollback that fails before its commit has
     * changed nothing at all.
     */
    public static final class Undo {
        private final Host host;
        private final SearchPathStore store;
        private final SearchPathStore.Scope scope;
        private final String installId;
        private final Recorded rec;
        private final boolean change; // false: nothing to write, only the finding to report
        private final SearchPathStore.Raw restore;
        private final Finding done;
        private final Finding would;

        private Undo(Host host, SearchPathStore store, SearchPathStore.Scope scope, String installId, Recorded rec,
                     boolean change, SearchPathStore.Raw restore, Finding done, Finding would) {
            this.host = host;
            this.store = store;
            this.scope = scope;
            this.installId = installId;
            this.rec = rec;
            this.change = change;
            this.restore = restore;
            this.done = done;
            this.would = would;
        }

        /** The dry run's line. */
        public Finding preview() {
            return would;
        }

        /** Whether applying it changes the search path (a rollback that did so has changed something). */
        public boolean changes() {
            return change;
        }

        /** Writes the earlier value back and tells the system; the finding says what was done. */
        public Finding apply() throws IOException {
            if (!change) {
                return done;
            }
            store.write(scope, installId, restore);
            try {
                store.announce();
                return done;
            } catch (IOException | RuntimeException e) {
                return Finding.info(FindingId.ROLLBACK_SEARCH_PATH, done.message() + " (but telling the system failed: "
                        + e.getMessage() + ")"); // a change is only ever made from an info line
            }
        }

        String location() {
            return rec.location();
        }
    }

    /**
     * Reads and proves {@code historyDir}'s record and decides what undoing it means, changing
     * nothing: null when nothing was recorded. Damaged or forged: exit 8; no right to write: exit 5.
     */
    public static Undo plan(Host host, SearchPathStore store, Path historyDir, String installId) {
        Path file = StateFolder.searchPathRecord(historyDir);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        Recorded rec;
        try {
            rec = JournalRunner.JSON.readValue(BoundedFiles.read(file, BoundedFiles.TEXT), Recorded.class);
        } catch (IOException e) {
            throw damaged(file, installId, "it cannot be read (" + (e instanceof JsonProcessingException j
                    ? StateReader.jsonProblem(j) : IoFailure.describe(e)) + ")");
        }
        if (Files.isSymbolicLink(file)) {
            throw damaged(file, installId, "it is a link");
        }
        SearchPathStore.Scope scope = validated(host, store, rec, file, historyDir, installId);
        String loc = rec.location();
        SearchPathStore.Raw now;
        try {
            now = store.read(scope, installId);
        } catch (LdSoConfPathStore.NotAFile e) {
            return leave(host, store, scope, installId, rec, loc + " is no longer the file cudnn-tool wrote (a link or"
                    + " something else is there now)");
        } catch (IOException e) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "undoing --add-to-path: " + loc + " cannot be read ("
                    + e.getMessage() + "); nothing was changed", "fix the cause and run cudnn rollback again");
        }
        String written = rec.written() != null ? rec.written() : rec.after() == null ? null : sha256(rec.after().data());
        boolean exact = now != null && written != null && (rec.after() == null || now.type() == rec.after().type())
                && sha256(now.data()).equals(written);
        if (now == null || host.windows() && !exact && !SearchPathEntries.windowsContains(now, rec.entry())) {
            Finding f = Finding.info(FindingId.ROLLBACK_SEARCH_PATH, rec.entry() + " is no longer in " + loc + "; nothing to undo there");
            return new Undo(host, store, scope, installId, rec, false, null, f, f);
        }
        SearchPathStore.Raw restore;
        String said;
        String would;
        if (exact) {
            restore = rec.before();
            boolean remove = !host.windows() && rec.before() == null; // Linux: the file was not there before
            said = (remove ? "removed " + loc : "restored " + loc + " exactly as it was before the install")
                    + (host.windows() ? "" : " and ran ldconfig");
            would = "would " + (remove ? "remove " + loc : "restore " + loc + " exactly as it was before the install")
                    + (host.windows() ? "" : " and run ldconfig");
        } else if (host.windows()) {
            restore = SearchPathEntries.windowsWithout(now, rec.entry());
            said = loc + " was changed since the install: only the entry it added (" + rec.entry() + ") was removed, the rest was kept";
            would = loc + " was changed since the install: would remove only the entry it added (" + rec.entry() + ") and keep the rest";
        } else {
            return leave(host, store, scope, installId, rec, loc + " was changed since the install (it no longer holds exactly"
                    + " what cudnn-tool wrote)");
        }
        String why = store.cannotWrite(scope);
        if (why != null) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "undoing --add-to-path: " + why + "; nothing was changed",
                    host.windows() ? "run from an elevated prompt (Run as administrator)" : "run cudnn rollback as root (sudo)");
        }
        return new Undo(host, store, scope, installId, rec, true, restore, Finding.info(FindingId.ROLLBACK_SEARCH_PATH, said),
                Finding.info(FindingId.ROLLBACK_SEARCH_PATH, would));
    }

    /** The file is not what the tool wrote: it stays as it is, and the user is told (warn, the file named). */
    private static Undo leave(Host host, SearchPathStore store, SearchPathStore.Scope scope, String installId, Recorded rec,
                              String what) {
        String fix = host.windows() ? "take " + rec.entry() + " out of " + rec.location() + " by hand if it is no longer wanted"
                : "take the line " + rec.entry() + " out of " + rec.location() + " by hand if it is no longer wanted (or delete the"
                + " file if nothing else is in it), then run sudo ldconfig";
        Finding f = Finding.warn(FindingId.ROLLBACK_SEARCH_PATH, what + ": left as it is", fix);
        Finding w = Finding.warn(FindingId.ROLLBACK_SEARCH_PATH, what + ": would leave it as it is", fix);
        return new Undo(host, store, scope, installId, rec, false, null, f, w);
    }

    /** Undoes what {@code historyDir} records, now (the undo of a failed or killed install); null when nothing was recorded. */
    public static Finding undo(Host host, SearchPathStore store, Path historyDir, String installId, boolean dryRun) {
        Undo u = plan(host, store, historyDir, installId);
        if (u == null) {
            return null;
        }
        if (dryRun) {
            return u.preview();
        }
        try {
            return u.apply();
        } catch (IOException e) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "undoing --add-to-path in " + u.location() + " failed: "
                    + e.getMessage(), "fix the cause and run cudnn rollback again");
        }
    }

    /**
     * The record is input, not truth: it may only ever name this install's own place (on Linux the
     * file {@code /etc/ld.so.conf.d/cudnn-tool-<its own id>.conf}), take out one entry that names a
     * folder inside this target, and restore a value that is exactly the one before that entry was
     * added; every field of the right type and size. Anything else (a forged or damaged file)
     * refuses with exit 8 before anything changes.
     */
    static SearchPathStore.Scope validated(Host host, SearchPathStore store, Recorded rec, Path file, Path historyDir,
                                           String installId) {
        if (rec == null || rec.scope() == null || rec.entry() == null || rec.entry().isBlank() || rec.location() == null
                || !host.windows() && rec.after() == null) {
            throw damaged(file, installId, "fields are missing");
        }
        if (rec.entry().length() > MAX_TEXT || rec.location().length() > MAX_TEXT || rec.scope().length() > 16) {
            throw damaged(file, installId, "a field is longer than any the tool writes");
        }
        SearchPathStore.Scope scope = switch (rec.scope().toLowerCase(Locale.ROOT)) {
            case "user" -> SearchPathStore.Scope.USER;
            case "machine" -> SearchPathStore.Scope.MACHINE;
            default -> throw damaged(file, installId, "its scope '" + StatePaths.printable(rec.scope()) + "' is neither user nor machine");
        };
        String own = store.location(scope, installId);
        if (!rec.location().equals(own)) {
            throw damaged(file, installId, "it names " + StatePaths.printable(rec.location()) + ", not this install's own " + own);
        }
        for (SearchPathStore.Raw r : new SearchPathStore.Raw[] {rec.before(), rec.after()}) {
            if (r != null && (r.data() == null || r.data().length > MAX_VALUE || (host.windows()
                    ? r.type() != SearchPathStore.Raw.REG_SZ && r.type() != SearchPathStore.Raw.REG_EXPAND_SZ
                    : r.type() != SearchPathStore.Raw.FILE))) {
                throw damaged(file, installId, "a value it holds is not of a kind the tool writes");
            }
        }
        Path root = historyDir.getParent().getParent().getParent(); // <root>/.cudnn-tool/history/<id>
        Path entry;
        try {
            entry = historyDir.getFileSystem().getPath(rec.entry()).normalize();
        } catch (InvalidPathException e) {
            throw damaged(file, installId, "its entry is not a path");
        }
        if (!entry.isAbsolute() || !entry.startsWith(root.normalize()) || entry.equals(root.normalize())
                || SearchPathEntries.unsafeEntry(rec.entry(), host.windows()) != null) {
            throw damaged(file, installId, "its entry " + StatePaths.printable(rec.entry()) + " is not a folder inside " + root);
        }
        if (host.windows() && rec.after() != null
                && !Objects.equals(rec.after(), SearchPathEntries.windowsWith(rec.before(), rec.entry()))) {
            throw damaged(file, installId, "the value it would restore is not the value before " + rec.entry() + " was added");
        }
        if (!host.windows() && !rec.after().equals(SearchPathEntries.confFile(rec.entry()))) {
            throw damaged(file, installId, "the bytes it says the tool wrote are not the line " + rec.entry());
        }
        if (rec.written() != null && (rec.after() == null || !rec.written().equals(sha256(rec.after().data())))) {
            throw damaged(file, installId, "its sha256 of the bytes written does not match them");
        }
        String tag = tag(installId);
        if (!host.windows() && tag != null && !tag.equals(History.targetTag(root)) && !tag.equals(realTag(root))) {
            throw damaged(file, installId, "its install id " + installId + " was made for another target, not " + root);
        }
        return scope;
    }

    /** The target tag of a new-form id ("...-0003-1a2b3c4d"), null for the first form. */
    private static String tag(String installId) {
        Matcher m = TAGGED.matcher(installId);
        return m.matches() ? m.group(1) : null;
    }

    private static final Pattern TAGGED = Pattern.compile("\\d{8}T\\d{6}Z-\\d{4,9}-([0-9a-f]{8})");

    private static String realTag(Path root) {
        try {
            return History.targetTag(root.toRealPath());
        } catch (IOException e) {
            return null;
        }
    }

    private static ToolException damaged(Path file, String installId, String why) {
        return new ToolException(ExitCode.NOTHING_TO_ROLL_BACK, "the search-path record " + file + " of install " + installId
                + " is damaged: " + why + "; nothing was changed",
                "move " + file + " out of the way and run cudnn rollback again (then take the folder off PATH by hand if it is still there)");
    }

    /** The dry run: the line saying what would happen; the reason the real run would stop (exit 5), or null. */
    public String dryRun(List<Finding> findings, Path runtimeDir) {
        findings.add(preview(runtimeDir, "<install id>"));
        try {
            checkAllowed(runtimeDir);
            onPath = true; // the real run would put it there: no warning that it is missing
            settle(findings, runtimeDir);
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
