package dev.cudnntool.target;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.Fix;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.CudnnFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads the tool's state in a target as input, not truth: the journal, its progress log and the
 * install records are parsed strictly, every field a step depends on must be present, and every
 * path is proven to lie where its kind says (see {@link StatePaths}). Anything else is a
 * {@link DamagedState}: exit 8, the file named, and {@code cudnn rollback --repair} as the way out.
 */
public final class StateReader {
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    private final StatePaths sp;
    private final String repair;
    private final InstallTarget.Kind kind;
    private final Path root;

    public StateReader(InstallTarget t) {
        this.root = t.root();
        this.sp = t.paths();
        this.kind = t.kind();
        this.repair = "cudnn rollback" + (t.kind() == InstallTarget.Kind.PREFIX ? " --prefix " + Fix.quote(Fix.Shell.of(t.os() == OsFamily.WINDOWS), t.root().toString()) : "") + " --repair";
    }

    public StatePaths paths() {
        return sp;
    }

    public String repairCommand() {
        return repair;
    }

    /** A journal found on disk with the number of steps its progress log says are in effect. */
    public record Pending(Journal journal, int logged) {
    }

    /** One history folder: its record, or why it cannot be used. */
    public record Scanned(Path dir, InstallRecord record, DamagedState damage) {
    }

    public static Path tempJournal(Path state) {
        return StateFolder.at(state).tempJournal();
    }

    /** The pending journal, proven; null when there is none. */
    public Pending journal() {
      checkStateFolder();
        Path f = JournalRunner.journalFile(sp.stateDir());
        if (!Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        Journal j = parse(f, Journal.class);
        validate(j, f);
        return new Pending(j, progress(j));
    }

    /** The tool's folder must be a plain folder: a link there would lead the lock and every record elsewhere. */
    public void checkStateFolder() {
        if (sp.stateIsLink()) {
            throw new DamagedState(sp.stateDir(), "is a link; the tool's folder must be a plain folder inside the target", repair);
        }
    }

    private <T> T parse(Path f, Class<T> type) {
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
            throw new DamagedState(f, "is damaged: it is not a plain file", repair);
        }
        byte[] bytes;
        try {
            bytes = BoundedFiles.read(f, BoundedFiles.DOCUMENT);
        } catch (IOException e) {
            throw new DamagedState(f, "cannot be read (" + IoFailure.describe(e) + ")", repair);
        }
        try {
            T value = JournalRunner.JSON.readValue(bytes, type);
            if (value == null) {
                throw new DamagedState(f, "is damaged: it holds no record", repair);
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new DamagedState(f, "is damaged: " + jsonProblem(e), repair);
        } catch (IOException e) {
            throw new DamagedState(f, "cannot be read (" + IoFailure.describe(e) + ")", repair);
        }
    }

    /** Jackson's problem in a few words, without its "at [Source: …]" location text. */
    public static String jsonProblem(JsonProcessingException e) {
        JsonLocation l = e.getLocation();
        String at = l == null || l.getLineNr() < 0 ? "" : " (line " + l.getLineNr() + ", column " + l.getColumnNr() + ")";
        if (e instanceof JsonEOFException || String.valueOf(e.getOriginalMessage()).contains("end-of-input")) {
            return "it ends in the middle of its JSON (truncated?)";
        }
        if (e instanceof UnrecognizedPropertyException u) {
            return "it has an unknown field '" + StatePaths.printable(u.getPropertyName()) + "'" + at;
        }
        if (e instanceof MismatchedInputException) {
            return "a field has the wrong type" + at;
        }
        return "it is not valid JSON" + at;
    }

    private void validate(Journal j, Path f) {
        if (j.id() == null || !StatePaths.JOURNAL_ID.matcher(j.id()).matches()) {
            throw missing(f, "id", j.id());
        }
        if (j.kind() == null) {
            throw missing(f, "kind", null); // absent, or a word the tool does not know
        }
        boolean install = j.kind() == Journal.Kind.INSTALL;
        String expected = install ? j.id() : j.id().replaceFirst("-rollback$", "");
        if (j.recordId() == null || !j.recordId().equals(expected) || install == j.id().endsWith("-rollback")) {
            throw missing(f, "recordId", j.recordId());
        }
        if (j.ops() == null) {
            throw missing(f, "ops", null);
        }
        Path state = sp.stateDir();
        Path history = History.dir(state).resolve(j.recordId());
        List<Path> toolAreas = install ? List.of(StateFolder.at(state).staging(j.id()), history)
                : List.of(history, StateFolder.at(state).kept().resolve(j.recordId()), StateFolder.at(state).trash().resolve(j.recordId()));
        int i = 0;
        for (Journal.Op op : j.ops()) {
            String field = "step " + i++;
            if (op == null || op.type() == null || op.to() == null) {
                throw missing(f, field, null);
            }
            switch (op.type()) {
                case MKDIR, RMDIR -> sp.confined(op.to(), f, field, StatePaths.Area.TARGET, null, repair);
                case MOVE -> {
                    if (op.from() == null) {
                        throw missing(f, field + " (from)", null);
                    }
                    boolean fromTool = endpoint(op.from(), f, field, toolAreas);
                    boolean toTool = endpoint(op.to(), f, field, toolAreas);
                    if (!fromTool && !toTool) {
                        throw new DamagedState(f, "is refused: its " + field + " moves " + op.from() + " to " + op.to()
                                + ", neither of them a folder of this " + j.kind(), repair);
                    }
                }
            }
        }
    }

    /** Proves one end of a move; true when it lies in one of the journal's own folders. */
    private boolean endpoint(String stored, Path f, String field, List<Path> toolAreas) {
        Path p;
        try {
            p = sp.resolve(stored);
        } catch (IllegalStateException e) {
            sp.confined(stored, f, field, StatePaths.Area.TARGET, null, repair); // throws, naming the problem
            return false;
        }
        if (!sp.inToolFolder(p)) {
            cudnnOnly(sp.confined(stored, f, field, StatePaths.Area.TARGET, null, repair), f, field);
            return false;
        }
        for (Path area : toolAreas) {
            if (p.startsWith(area) || sp.inToolFolder(p) && sp.realUnder(p, area)) {
                sp.confined(stored, f, field, StatePaths.Area.TOOL, area, repair);
                return true;
            }
        }
        throw new DamagedState(f, "is refused: its " + field + " names " + p + ", a folder of the tool that is not this run's", repair);
    }

    /** The steps in effect according to journal.log; a line that does not fit the journal is damage. */
    private int progress(Journal j) {
        Path log = JournalRunner.progressFile(sp.stateDir());
        if (!Files.exists(log, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        if (!Files.isRegularFile(log, LinkOption.NOFOLLOW_LINKS)) {
            throw new DamagedState(log, "is damaged: it is not a plain file", repair);
        }
        String text;
        try {
            text = new String(BoundedFiles.read(log, BoundedFiles.DOCUMENT), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new DamagedState(log, "cannot be read (" + IoFailure.describe(e) + ")", repair);
        }
        String[] lines = text.split("\n", -1);
        int p = 0;
        int n = j.ops().size();
        // The last piece has no newline: a line cut short by a crash (or nothing), never in effect.
        for (int k = 0; k < lines.length - 1; k++) {
            String line = lines[k].strip();
            if (line.isEmpty() || line.startsWith("begin ")) {
                continue;
            }
            String[] w = line.split(" ");
            Integer step = w.length == 2 && w[1].matches("\\d{1,9}") ? Integer.valueOf(w[1]) : null;
            if (step == null || step >= n || !w[0].equals("done") && !w[0].equals("undone")) {
                throw new DamagedState(log, "is damaged: line " + (k + 1) + " '" + StatePaths.printable(line)
                        + "' does not fit the journal's " + n + " step(s)", repair);
            }
            p = w[0].equals("done") ? step + 1 : step;
        }
        return p;
    }

    /** Every install record, oldest first, each proven; the first damaged one stops the caller. */
    public List<InstallRecord> records() {
        List<InstallRecord> out = new ArrayList<>();
        for (Scanned s : scan()) {
            if (s.damage() != null) {
                throw s.damage();
            }
            out.add(s.record());
        }
        return out;
    }

    /** Every history folder with a record in it, each proven or with its damage, oldest first. */
    public List<Scanned> scan() {
      checkStateFolder();
        Path h = History.dir(sp.stateDir());
        List<Scanned> out = new ArrayList<>();
        if (!Files.isDirectory(h, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.exists(h, LinkOption.NOFOLLOW_LINKS)) {
                throw new DamagedState(h, "is not a plain folder", repair);
            }
            return out;
        }
        List<Path> dirs = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(h)) {
            ds.forEach(dirs::add);
        } catch (IOException e) {
            throw new DamagedState(h, "cannot be read (" + IoFailure.describe(e) + ")", repair);
        }
        for (Path d : dirs) {
            Path f = StateFolder.installRecord(d);
            if (!Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
                continue; // a folder a run left before writing its record: cleaned up as a leftover
            }
            try {
                if (Files.isSymbolicLink(d)) {
                    throw new DamagedState(d, "is a link; a history folder must be a plain folder", repair);
                }
                InstallRecord r = parse(f, InstallRecord.class);
                validate(r, d, f);
                out.add(new Scanned(d, r, null));
            } catch (DamagedState e) {
                out.add(new Scanned(d, null, e));
            }
        }
        out.sort(Comparator.comparingInt((Scanned s) -> s.record() == null ? Integer.MAX_VALUE : History.sequence(s.record().id()))
                .thenComparing(s -> s.dir().getFileName().toString()));
        return out;
    }

    private void validate(InstallRecord r, Path dir, Path f) {
        String name = dir.getFileName().toString();
        if (r.id() == null || !StatePaths.ID.matcher(r.id()).matches() || !r.id().equals(name)) {
            throw missing(f, "id", r.id());
        }
        if (r.version() == null || r.installedAt() == null) {
            throw missing(f, r.version() == null ? "version" : "installedAt", null);
        }
        if (r.installed() == null || r.backedUp() == null || r.createdDirs() == null) {
            throw missing(f, r.installed() == null ? "installed" : r.backedUp() == null ? "backedUp" : "createdDirs", null);
        }
        Path backups = dir.resolve("backup");
        int i = 0;
        List<Path> installedPaths = new ArrayList<>();
        for (InstallRecord.InstalledFile x : r.installed()) {
            String field = "installed[" + i++ + "]";
            if (x == null || !contentKnown(x.sha256(), x.linkTarget())) {
                throw missing(f, field, null);
            }
            Path p = sp.confined(x.path(), f, field + " path", StatePaths.Area.TARGET, null, repair);
            cudnnOnly(p, f, field + " path");
            installedPaths.add(p);
        }
        i = 0;
        for (InstallRecord.BackedUpFile b : r.backedUp()) {
            String field = "backedUp[" + i++ + "]";
            if (b == null || !contentKnown(b.sha256(), b.linkTarget())) {
                throw missing(f, field, null);
            }
            cudnnOnly(sp.confined(b.original(), f, field + " original", StatePaths.Area.TARGET, null, repair), f, field + " original");
            sp.confined(b.backup(), f, field + " backup", StatePaths.Area.TOOL, backups, repair);
        }
        for (String d : r.createdDirs()) {
            Path created = sp.createdDir(d, f, repair);
            // An install creates a folder inside the target only to hold the files it installs: a
            // record naming any other folder (an empty folder of the toolkit's) is refused.
            if (created.isAbsolute() && created.startsWith(root) && !created.equals(root)
                    && installedPaths.stream().noneMatch(x -> x.startsWith(created))) {
                throw new DamagedState(f, "is refused: its created folder " + created
                        + " holds none of the files that install put in place", repair);
            }
        }
        if (r.license() != null) {
            sp.confined(r.license(), f, "license", StatePaths.Area.TOOL, dir, repair);
        }
    }

    /**
     * A file that state moves, restores or removes in the target must be one of cuDNN's (the
     * licence too in a --prefix folder): a toolkit file that is not cuDNN's is never touched,
     * whatever a record or journal says.
     */
    private void cudnnOnly(Path p, Path f, String field) {
        String name = p.getFileName() == null ? "" : p.getFileName().toString();
        if (!CudnnFiles.isCudnnFile(name)
                && !(kind == InstallTarget.Kind.PREFIX && CudnnFiles.isLicence(name))) {
            throw new DamagedState(f, "is refused: its " + field + " " + p + " is not one of cuDNN's files", repair);
        }
    }

    private static boolean contentKnown(String sha256, String linkTarget) {
        return sha256 != null ? SHA256.matcher(sha256).matches() : linkTarget != null && !linkTarget.isEmpty();
    }

    private DamagedState missing(Path f, String field, String value) {
        return new DamagedState(f, "is damaged: its field '" + field + "' is "
                + (value == null ? "missing or empty" : "'" + StatePaths.printable(value) + "', which is not valid"), repair);
    }
}
