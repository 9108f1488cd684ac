package dev.cudnntool.rollback;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.host.searchpath.SearchPathStore;
import dev.cudnntool.host.searchpath.SearchPathStores;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.install.SearchPathChange;
import dev.cudnntool.target.FaultHook;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.target.InstallRecord;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.IoFailure;
import dev.cudnntool.target.Journal;
import dev.cudnntool.target.JournalRunner;
import dev.cudnntool.target.Leftovers;
import dev.cudnntool.target.StateFolder;
import dev.cudnntool.target.StatePaths;
import dev.cudnntool.target.StateReader;
import dev.cudnntool.target.TargetLock;
import dev.cudnntool.target.TreeRemoval;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Undoes an install exactly: removes what it put in place and puts back what it moved out,
 * after checking nobody changed those files since (refused with exit 8 unless --force) and that
 * the backups are intact. Journaled like an install: a killed rollback is resumed by the next.
 */
public final class RollbackService {
    private final Host host;
    private final FileOps ops;
    private final Clock clock; // journal times and the names of set-aside records
    private final SearchPathStore searchPaths; // where --add-to-path wrote, to undo it
    private final FaultHook faults;

    public RollbackService(Host host, FileOps ops, Clock clock, SearchPathStore searchPaths, FaultHook faults) {
        this.host = host;
        this.ops = ops;
        this.clock = clock;
        this.searchPaths = searchPaths;
        this.faults = faults;
    }

    /** With the system clock, no registry to write (ld.so.conf.d on Linux) and no fault hook: tests' wiring. */
    public RollbackService(Host host, FileOps ops) {
        this(host, ops, Clock.systemUTC(), SearchPathStores.withoutRegistry(host), FaultHook.NONE);
    }

    /**
     * The target to roll back, repair or list: the {@code --prefix} folder when given, else the
     * toolkit found as install finds it ({@code cudaPath} first); null when there is none.
     */
    public InstallTarget target(Path cudaPath, Path prefix) {
        if (prefix != null) {
            return InstallTarget.prefix(prefix, host.os());
        }
        var toolkit = ToolkitLocator.locate(host, cudaPath, null).chosen();
        return toolkit == null ? null : InstallTarget.toolkit(toolkit, host.os());
    }

    /** The answer of rollback, --list and --repair where {@link #target} found none (exit 8). */
    public static RollbackOutcome noTarget() {
        String msg = "nothing to roll back: no CUDA toolkit found (pass --cuda-path or --prefix)";
        return new RollbackOutcome(ExitCode.NOTHING_TO_ROLL_BACK, msg, null, null, List.of(), List.of(),
                List.of(Finding.error(FindingId.ROLLBACK_NOTHING, msg, "pass --cuda-path DIR or --prefix DIR")));
    }

    /** Every recorded install, with its state and whether it is what the target holds now: see {@link RollbackList#list}. */
    public List<RollbackEntry> list(InstallTarget t) {
        return RollbackList.list(t);
    }

    /**
     * Sets damaged state aside so the target can be used again: see {@link StateRepair}. Public
     * entry point of {@code cudnn rollback --repair}.
     */
    public RollbackOutcome repair(InstallTarget t, boolean dryRun) {
        Path state = t.stateDir();
        if (!Files.exists(state, LinkOption.NOFOLLOW_LINKS)) {
            return new RollbackOutcome(ExitCode.OK, "nothing to repair: cudnn-tool has no state in " + t.root(), null, null,
                    List.of(), List.of(), List.of());
        }
        TargetLock lock = dryRun || Files.isSymbolicLink(state) ? null : TargetLock.acquire(state);
        try {
            return new StateRepair(ops, clock).repair(t, dryRun);
        } finally {
            if (lock != null) {
                lock.release(false);
            }
        }
    }

    public RollbackOutcome rollback(InstallTarget t, String id, boolean force, boolean dryRun) {
        Path state = t.stateDir();
        if (!Files.isDirectory(state)) {
            return nothing("nothing to roll back: cudnn-tool has not installed anything in " + t.root());
        }
        new StateReader(t).checkStateFolder(); // before the lock: never create a lock file through a link
        TargetLock lock = dryRun ? null : TargetLock.acquire(state);
        RollbackOutcome outcome = null;
        TreeRemoval removal = new TreeRemoval(ops);
        try {
            outcome = withLeftInPlace(run(t, id, force, dryRun, removal), removal.leftInPlace());
            return outcome;
        } finally {
            if (lock != null) {
                lock.release(false);
                if (outcome != null && outcome.exit() == ExitCode.OK) {
                    t.state().tidy(ops, true); // only a rollback that did something tidies up

                    // The install created this --prefix folder (and maybe its parents): they go too, if empty.
                    for (String d : outcome.createdRoots()) {
                        try {
                            if (JournalRunner.isEmptyDir(host.path(d))) {
                                ops.delete(host.path(d));
                            }
                        } catch (IOException ignored) {
                            // an empty folder may stay
                        }
                    }
                }
            }
        }
    }

    /** Mount points in the tool's folder that clean-up left in place: a warning each, the outcome otherwise as it was. */
    private static RollbackOutcome withLeftInPlace(RollbackOutcome o, List<Path> left) {
        if (left.isEmpty()) {
            return o;
        }
        List<Finding> all = new ArrayList<>(o.findings());
        all.addAll(TreeRemoval.findings(left));
        return new RollbackOutcome(o.exit(), o.summary(), o.installId(), o.version(), o.steps(), o.keptChangedFiles(), all,
                o.createdRoots());
    }

    private RollbackOutcome run(InstallTarget t, String id, boolean force, boolean dryRun, TreeRemoval removal) {
        Path state = t.stateDir();
        StateReader reader = new StateReader(t);
        StatePaths sp = reader.paths();
        JournalRunner runner = new JournalRunner(ops, sp, faults, removal);
        StateReader.Pending pending = reader.journal(); // damaged: exit 8 naming the file, --repair
        // Read and prove everything before the first change, leftovers included: exit 8 changes nothing.
        List<InstallRecord> records = pending == null ? reader.records() : List.of();
        Path temp = StateReader.tempJournal(state);
        if (pending == null && Files.exists(temp, LinkOption.NOFOLLOW_LINKS)) {
            // A run stopped while writing its journal: it changed nothing, and the install before it
            // is not what the user wants undone because of it.
            String what = "the half-written journal " + temp + " of a run that stopped before changing anything";
            if (dryRun) {
                return new RollbackOutcome(ExitCode.OK, "dry run: would remove " + what + "; nothing else would be rolled"
                        + " back; nothing was changed", null, null, List.of(), List.of(), List.of());
            }
            Leftovers.clean(runner, ops, state, null);
            return new RollbackOutcome(ExitCode.OK, "removed " + what + "; " + t.root() + " is as that run found it;"
                    + " nothing else was rolled back (run cudnn rollback again to undo the newest install)", null, null,
                    List.of(), List.of(), List.of());
        }
        if (pending != null) {
            if (!dryRun) {
                Leftovers.clean(runner, ops, state, pending.journal());
            }
            return resume(t, runner, pending, dryRun);
        }
        if (records.isEmpty()) {
            return nothing("nothing to roll back: no install recorded in " + t.root());
        }
        InstallRecord rec = id == null ? records.get(records.size() - 1)
                : records.stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
        if (rec == null) {
            return nothing("no install with id " + StatePaths.printable(id) + " in " + t.root()
                    + " (cudnn rollback --list shows the ids)");
        }
        List<String> changed = changedSince(sp, rec);
        RollbackOutcome refusal = refusal(t, sp, records, rec, changed, force);
        if (refusal != null) {
            return refusal;
        }
        RollbackPlan plan = RollbackPlan.of(t, sp, rec, changed, reader.repairCommand());
        String what = "cuDNN " + rec.version() + " (install " + rec.id() + ")";
        // --add-to-path: read, proven and decided now; done after the files, just before the commit point.
        SearchPathChange.Undo pathUndo = SearchPathChange.plan(host, searchPaths, plan.historyDir(), rec.id());
        List<Finding> pathFindings = pathUndo == null ? List.of() : List.of(pathUndo.preview());
        if (dryRun) {
            return new RollbackOutcome(ExitCode.OK, "dry run: would roll back " + what + ": remove " + rec.installed().size()
                    + " file(s), restore " + rec.backedUp().size() + "; nothing was changed", rec.id(), rec.version(),
                    display(sp, plan.steps()), plan.kept(), pathFindings, List.of());
        }
        return apply(t, sp, runner, rec, plan, pathUndo, what);
    }

    /** Runs a checked plan as a journal: the tool's folders, the steps, the search path, the commit point; reverted on failure. */
    private RollbackOutcome apply(InstallTarget t, StatePaths sp, JournalRunner runner, InstallRecord rec, RollbackPlan plan,
                                  SearchPathChange.Undo pathUndo, String what) {
        Path state = t.stateDir();
        List<Journal.Op> jops = plan.steps();
        List<Path> toolDirs = plan.toolDirs();
        List<String> kept = plan.kept();
        // Every check passed: this run changes the target, so it also removes what stopped runs left.
        Leftovers.clean(runner, ops, state, null);
        Journal journal = new Journal(rec.id() + "-rollback", Journal.Kind.ROLLBACK, Journal.State.ROLLING_BACK, clock.instant().toString(),
                t.root().toString(), jops, rec.id(), false);
        try {
            for (Path d : toolDirs) {
                mkdirs(d);
            }
            runner.begin(journal);
        } catch (IOException e) {
            runner.abandon();
            for (int i = toolDirs.size() - 1; i >= 0; i--) {
                try {
                    removeEmptyUpTo(toolDirs.get(i), state);
                } catch (IOException ignored) {
                    // an empty folder of the tool's may stay
                }
            }
            String why = "rollback of " + rec.id() + " failed before its first step (" + IoFailure.describe(e) + ")";
            return new RollbackOutcome(ExitCode.INSTALL_ROLLED_BACK, why + "; nothing was changed", rec.id(), rec.version(),
                    display(sp, jops), List.of(), List.of(Finding.error(FindingId.ROLLBACK_FAILED, why, Fix.tool("fix the cause and run cudnn rollback again"))));
        }
        Finding pathDone = null;
        try {
            runner.forward(journal);
            if (pathUndo != null) {
                pathDone = pathUndo.apply(); // a failure here puts the files back: then nothing was changed
            }
            runner.finish(); // the commit point
        } catch (IOException e) {
            return revert(runner, state, journal, toolDirs, rec, e, pathDone != null && pathUndo.changes() ? pathDone : null);
        }
        cleanTrash(runner, state);
        return new RollbackOutcome(ExitCode.OK, "rolled back " + what + ": removed " + (rec.installed().size() - kept.size())
                + " file(s), restored " + rec.backedUp().size() + (kept.isEmpty() ? "" : "; kept " + kept.size()
                + " changed file(s) in " + plan.keptRoot()), rec.id(), rec.version(), display(sp, jops), kept,
                pathDone == null ? List.of() : List.of(pathDone), plan.createdRoots());
    }

    /** The record's installed files (stored paths) that are not as the install put them. */
    private static List<String> changedSince(StatePaths sp, InstallRecord rec) {
        List<String> changed = new ArrayList<>();
        for (InstallRecord.InstalledFile f : rec.installed()) {
            if (!RollbackList.matches(sp.resolve(f.path()), f.sha256(), f.linkTarget())) {
                changed.add(f.path());
            }
        }
        return changed;
    }

    /**
     * Why {@code rec} may not be rolled back, or null: later installs on top of it or changed files (both
     * allowed by --force), or a backup that is missing or damaged (never allowed: it could not be restored).
     */
    private static RollbackOutcome refusal(InstallTarget t, StatePaths sp, List<InstallRecord> records, InstallRecord rec,
                                           List<String> changed, boolean force) {
        List<String> later = records.subList(records.indexOf(rec) + 1, records.size()).stream().map(InstallRecord::id).toList();
        if (!later.isEmpty() && !force) {
            return refused(rec, "install " + rec.id() + " has later installs on top of it (" + String.join(", ", later)
                    + "); roll those back first, or pass --force");
        }
        if (!changed.isEmpty() && !force) {
            return refused(rec, changed.size() + " file(s) installed by " + rec.id() + " were changed since: "
                    + abbreviate(changed.stream().map(c -> sp.resolve(c).toString()).toList())
                    + "; pass --force to roll back anyway (the changed files are kept in " + t.state().kept() + ")");
        }
        for (InstallRecord.BackedUpFile b : rec.backedUp()) {
            if (!RollbackList.matches(sp.resolve(b.backup()), b.sha256(), b.linkTarget())) {
                return refused(rec, "the backup " + sp.resolve(b.backup()) + " of " + sp.resolve(b.original())
                        + " is missing or damaged, so it cannot be restored");
            }
        }
        return null;
    }

    /** Journal steps as people read them: full paths. */
    static List<Journal.Op> display(StatePaths sp, List<Journal.Op> ops) {
        return ops.stream().map(o -> new Journal.Op(o.type(), o.from() == null ? null : sp.resolve(o.from()).toString(),
                sp.resolve(o.to()).toString())).toList();
    }

    /**
     * Puts the files back after a failed rollback. {@code pathDone}: the search path was already
     * restored when it failed (it stays restored: the message says so, never "nothing was changed").
     */
    private RollbackOutcome revert(JournalRunner runner, Path state, Journal journal, List<Path> toolDirs,
                                   InstallRecord rec, IOException cause, Finding pathDone) {
        String why = "rollback of " + rec.id() + " failed (" + IoFailure.describe(cause) + ")";
        String changed = pathDone == null ? "; nothing was changed" : "; the files were put back as they were, but the search"
                + " path change of the install was already undone (" + pathDone.message() + ")";
        List<Finding> pathFindings = pathDone == null ? List.of() : List.of(pathDone);
        try {
            if (Files.exists(JournalRunner.journalFile(state))) {
                runner.backward(journal);
                runner.finish();
            }
            for (int i = toolDirs.size() - 1; i >= 0; i--) {
                removeEmptyUpTo(toolDirs.get(i), state);
            }
        } catch (IOException e2) {
            return new RollbackOutcome(ExitCode.ROLLBACK_FAILED, why + "; reverting it failed too ("
                    + IoFailure.describe(e2) + "); run cudnn rollback again to finish", rec.id(), rec.version(),
                    display(new StatePaths(state.getParent()), journal.ops()), List.of(), List.of(Finding.error(FindingId.INSTALL_UNFINISHED, why,
                    Fix.tool("run cudnn rollback again: it resumes the rollback"))));
        }
        List<Finding> findings = new ArrayList<>(pathFindings);
        findings.add(Finding.error(FindingId.ROLLBACK_FAILED, why + changed, Fix.tool("fix the cause and run cudnn rollback again")));
        return new RollbackOutcome(ExitCode.INSTALL_ROLLED_BACK, why + changed, rec.id(), rec.version(),
                display(new StatePaths(state.getParent()), journal.ops()), List.of(), findings);
    }

    /** Completes whatever a killed run left: an install is undone, a rollback is finished. */
    private RollbackOutcome resume(InstallTarget t, JournalRunner runner, StateReader.Pending p, boolean dryRun) {
        Journal j = p.journal();
        Path state = t.stateDir();
        boolean install = j.kind() == Journal.Kind.INSTALL;
        String what = install ? "undo the interrupted install " + j.id() : "finish the interrupted rollback of " + j.recordId();
        if (dryRun) {
            return new RollbackOutcome(ExitCode.OK, "dry run: would " + what + "; nothing was changed", j.recordId(), null,
                    display(t.paths(), j.ops()), List.of(), List.of());
        }
        try {
            runner.recover(j, p.logged());
            if (install) {
                runner.write(j.withState(Journal.State.ROLLING_BACK));
                runner.backward(j);
                SearchPathChange.undoRecorded(host, searchPaths, t.state().history(j.id()), j.id()); // --add-to-path
                runner.deleteTree(t.state().history(j.id()));
                runner.deleteTree(t.state().staging(j.id()));
            } else {
                runner.forward(j);
                // A rollback killed after its files but before its commit point: its search-path record is in the trash now.
                SearchPathChange.undoRecorded(host, searchPaths, t.state().trash().resolve(j.recordId()), j.recordId());
            }
            runner.finish();
        } catch (IOException e) {
            return new RollbackOutcome(ExitCode.ROLLBACK_FAILED, "could not " + what + ": " + IoFailure.describe(e)
                    + "; the journal is kept, run cudnn rollback again", j.recordId(), null, display(t.paths(), j.ops()), List.of(),
                    List.of(Finding.error(FindingId.INSTALL_UNFINISHED, "could not " + what, Fix.tool("fix the cause and run cudnn rollback again"))));
        }
        cleanTrash(runner, state);
        return new RollbackOutcome(ExitCode.OK, (install ? "undid the interrupted install " + j.id() + "; "
                : "finished the interrupted rollback of " + j.recordId() + "; ") + t.root() + " is as it was before it",
                j.recordId(), null, display(t.paths(), j.ops()), List.of(), List.of());
    }

    private void cleanTrash(JournalRunner runner, Path state) {
        try {
            runner.deleteTree(StateFolder.at(state).trash());
        } catch (IOException ignored) {
            // left for the next run; it holds only the tool's own records
        }
    }

    private void mkdirs(Path dir) throws IOException {
        if (dir == null || Files.isDirectory(dir)) {
            return;
        }
        mkdirs(dir.getParent());
        ops.createDirectory(dir);
    }

    private void removeEmptyUpTo(Path dir, Path stop) throws IOException {
        for (Path d = dir; d != null && !d.equals(stop) && d.startsWith(stop); d = d.getParent()) {
            if (Files.isDirectory(d) && JournalRunner.isEmptyDir(d)) {
                ops.delete(d);
            }
        }
    }

    private static String abbreviate(List<String> files) {
        return files.size() <= 5 ? String.join(", ", files) : String.join(", ", files.subList(0, 5)) + " and " + (files.size() - 5) + " more";
    }

    private static RollbackOutcome nothing(String message) {
        return new RollbackOutcome(ExitCode.NOTHING_TO_ROLL_BACK, message, null, null, List.of(), List.of(),
                List.of(Finding.error(FindingId.ROLLBACK_NOTHING, message, Fix.tool("cudnn rollback --list shows what can be rolled back"))));
    }

    private static RollbackOutcome refused(InstallRecord rec, String message) {
        return new RollbackOutcome(ExitCode.NOTHING_TO_ROLL_BACK, "rollback refused: " + message, rec.id(), rec.version(),
                List.of(), List.of(), List.of(Finding.error(FindingId.ROLLBACK_REFUSED, message,
                "see the message; --force overrides changed files and later installs, never damaged backups")));
    }
}
