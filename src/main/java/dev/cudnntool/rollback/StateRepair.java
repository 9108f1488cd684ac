package dev.cudnntool.rollback;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.Hex;
import dev.cudnntool.OsFamily;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.target.DamagedState;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.IoFailure;
import dev.cudnntool.target.Journal;
import dev.cudnntool.target.JournalRunner;
import dev.cudnntool.target.Leftovers;
import dev.cudnntool.target.StatePaths;
import dev.cudnntool.target.StateReader;
import dev.cudnntool.target.ToolFolderLinks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code cudnn rollback --repair}: sets the tool's damaged state aside so the target can be
 * installed into (and rolled back) again. Nothing is deleted: a damaged journal (with its
 * progress log) and every damaged history folder (with the backups in it) are moved to
 * {@code .cudnn-tool/quarantine/<time>/}; a half-written temporary journal and the leftovers of
 * killed runs are removed. It says what it could not account for: the files a set-aside record
 * had put in place stay where they are. Runs under the lock; a valid pending journal is left for
 * a plain {@code cudnn rollback}.
 */
public final class StateRepair {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final FileOps ops;
    private final Clock clock;

    public StateRepair(FileOps ops, Clock clock) {
        this.ops = ops;
        this.clock = clock;
    }

    public RollbackOutcome repair(InstallTarget t, boolean dryRun) {
        Path state = t.stateDir();
        List<Finding> findings = new ArrayList<>();
        List<String> setAside = new ArrayList<>();
        List<String> unaccounted = new ArrayList<>();
        List<Path[]> moves = new ArrayList<>(); // {from, to}
        if (Files.isSymbolicLink(state)) {
            Path to = state.resolveSibling(bounded(state.getFileName().toString(), ".link-" + STAMP.format(clock.instant())));
            moves.add(new Path[] {state, to});
            setAside.add(state + " (a link, renamed to " + to.getFileName() + ")");
            return finish(t, dryRun, moves, setAside, unaccounted, findings, null);
        }
        List<Path> links = ToolFolderLinks.find(state);
        if (!links.isEmpty()) { // links among the tool's own folders go first; run --repair again for the rest
            for (Path link : links) {
                Path to = unique(link.resolveSibling(bounded(link.getFileName().toString(), ".link-" + STAMP.format(clock.instant()))));
                moves.add(new Path[] {link, to});
                setAside.add(link + " (a link, renamed to " + to.getFileName() + ")");
            }
            return finish(t, dryRun, moves, setAside, unaccounted, findings, null);
        }
        Path quarantine = unique(t.state().quarantine().resolve(STAMP.format(clock.instant())));
        StateReader reader = new StateReader(t);
        String pendingNote = null;
        try {
            StateReader.Pending p = reader.journal();
            if (p != null) {
                pendingNote = "an unfinished " + p.journal().kind() + " (" + p.journal().id() + ") is pending and readable:"
                        + " run cudnn rollback" + (t.kind() == InstallTarget.Kind.PREFIX ? " --prefix " + Fix.quote(Fix.Shell.of(t.os() == OsFamily.WINDOWS), t.root().toString()) : "")
                        + " to complete it";
            }
        } catch (DamagedState e) {
            for (Path f : List.of(t.state().journal(), t.state().progressLog())) {
                if (Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
                    moves.add(new Path[] {f, quarantine.resolve(f.getFileName().toString())});
                }
            }
            setAside.add("the journal (" + e.getMessage().replace("; nothing was changed", "") + ")");
            unaccounted.add("the interrupted run that journal described: some of its files may be in place and some"
                    + " not; cudnn verify shows what is installed");
        }
        Path history = t.state().history();
        List<StateReader.Scanned> scanned;
        try {
            scanned = reader.scan();
        } catch (DamagedState e) {
            moves.add(new Path[] {history, quarantine.resolve(history.getFileName().toString())});
            setAside.add(history + " (" + e.getMessage().replace("; nothing was changed", "") + ")");
            unaccounted.add("every install recorded there: their files stay in the target, their backups are kept in "
                    + quarantine.resolve(history.getFileName().toString()));
            scanned = List.of();
        }
        for (StateReader.Scanned sc : scanned) {
            if (sc.damage() == null) {
                continue;
            }
            String name = sc.dir().getFileName().toString();
            Path to = unique(quarantine.resolve(bounded("history-" + name, "")));
            moves.add(new Path[] {sc.dir(), to});
            setAside.add("history/" + StatePaths.printable(name) + " (" + sc.damage().getMessage()
                    .replace("; nothing was changed", "") + ")");
            unaccounted.add("the files install " + StatePaths.printable(name) + " put in place stay in the target;"
                    + " its backups are kept in " + to.resolve("backup"));
        }
        return finish(t, dryRun, moves, setAside, unaccounted, findings, pendingNote);
    }

    private RollbackOutcome finish(InstallTarget t, boolean dryRun, List<Path[]> moves, List<String> setAside,
                                   List<String> unaccounted, List<Finding> findings, String pendingNote) {
        List<Journal.Op> steps = moves.stream().map(m -> Journal.Op.move(m[0].toString(), m[1].toString())).toList();
        if (!dryRun) {
            try {
                for (Path[] m : moves) {
                    mkdirs(m[1].getParent());
                    ops.move(m[0], m[1]);
                }
            } catch (IOException e) {
                String why = "could not set the damaged state aside (" + IoFailure.describe(e) + ")";
                return new RollbackOutcome(ExitCode.NOTHING_TO_ROLL_BACK, "repair failed: " + why, null, null, steps,
                        List.of(), List.of(Finding.error(FindingId.ROLLBACK_REFUSED, why,
                        Fix.tool("check that " + t.stateDir() + " is writable (sudo), then run cudnn rollback --repair again"))));
            }
            if (!Files.isSymbolicLink(t.stateDir())) {
                StateReader.Pending p = pendingNote == null ? null : new StateReader(t).journal();
                Leftovers.Cleaned c = Leftovers.clean(new JournalRunner(ops, t.paths()), ops, t.stateDir(),
                        p == null ? null : p.journal());
                if (!c.removed().isEmpty()) {
                    setAside.add("removed leftovers of stopped runs: " + String.join(", ", c.removed()));
                }
                findings.addAll(c.findings()); // a mount point among them is left in place, and said so
            }
        }
        for (String u : unaccounted) {
            findings.add(Finding.warn(FindingId.ROLLBACK_UNACCOUNTED, u, Fix.reinstall("check the target with cudnn verify; reinstall"
                    + " with cudnn install if it is incomplete")));
        }
        String prefix = dryRun ? "dry run: would repair " : "repaired ";
        String summary = setAside.isEmpty() && moves.isEmpty()
                ? (dryRun ? "dry run: " : "") + "nothing to repair in " + t.root() + ": the install records and the journal are readable"
                : prefix + t.root() + ": " + (moves.isEmpty() ? "" : "set aside " + moves.size() + " damaged item(s) (renamed, not"
                + " deleted): ") + String.join("; ", setAside)
                + (unaccounted.isEmpty() ? "" : "; could not account for: " + String.join("; ", unaccounted));
        if (pendingNote != null) {
            summary += "; " + pendingNote;
        } else if (!dryRun) {
            summary += "; " + t.root() + " can be installed into again";
        }
        return new RollbackOutcome(ExitCode.OK, summary, null, null, steps, List.of(), findings);
    }

    /**
     * The most UTF-8 bytes a name this class makes may have: file systems allow 255 (bytes on
     * Linux, UTF-16 units on Windows, never more than the UTF-8 bytes), less what {@link #unique}
     * may append.
     */
    static final int MAX_NAME_BYTES = 240;

    /**
     * {@code base + suffix}, or, where that is longer than {@link #MAX_NAME_BYTES}, the base cut
     * (on a character, never inside one) and marked with a short hash of the whole base, so two
     * long names that differ only at their end still get two names; the suffix is kept whole.
     */
    static String bounded(String base, String suffix) {
        if (utf8(base + suffix) <= MAX_NAME_BYTES) {
            return base + suffix;
        }
        String tag = "~" + Hex.of(Hex.newSha256().digest(base.getBytes(StandardCharsets.UTF_8))).substring(0, 12);
        int room = MAX_NAME_BYTES - utf8(tag) - utf8(suffix);
        StringBuilder cut = new StringBuilder();
        int used = 0;
        for (int cp : base.codePoints().toArray()) {
            int n = utf8(Character.toString(cp));
            if (used + n > room) {
                break;
            }
            cut.appendCodePoint(cp);
            used += n;
        }
        return cut + tag + suffix;
    }

    private static int utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static Path unique(Path p) {
        Path q = p;
        for (int i = 1; Files.exists(q, LinkOption.NOFOLLOW_LINKS); i++) {
            q = p.resolveSibling(p.getFileName() + "-" + i);
        }
        return q;
    }

    private void mkdirs(Path dir) throws IOException {
        if (dir == null || Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        mkdirs(dir.getParent());
        ops.createDirectory(dir);
    }
}
