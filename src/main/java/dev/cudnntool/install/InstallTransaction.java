package dev.cudnntool.install;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.OsFamily;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.ArchiveItem;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.EntryRole;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.format.ArchiveDigest;
import dev.cudnntool.archive.format.EntryType;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.target.FolderGuard;
import dev.cudnntool.target.InstallRecord;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.IoFailure;
import dev.cudnntool.target.Journal;
import dev.cudnntool.target.JournalRunner;
import dev.cudnntool.target.StateFolder;
import dev.cudnntool.target.StatePaths;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One install's moving parts after the lock is taken: the read into staging, the plan, the
 * journaled commit, verification, and every clean-up path, sharing one view of what was created.
 * Until the journal is in place nothing of the target has changed (exit 6, "nothing changed");
 * after it, every failure undoes the steps (exit 6, restored) or leaves the journal (exit 7).
 */
final class InstallTransaction {
    /**
     * One run's inputs once the lock is held: the request, the archive's name, the host checks, the
     * install id, the digest started early (or null), --add-to-path (or null), and what this run
     * created before the lock (the tool's folder; a --prefix and its missing parents, outermost first).
     */
    record Run(InstallRequest req, ArchiveName name, Preflight pf, String id, ArchiveDigest digest,
               SearchPathChange addToPath, boolean stateCreated, List<Path> createdRoots) {
    }

    private final InstallPorts ports;
    private final FileOps ops;
    private final TargetChecks checks;
    private final InstallRequest req;
    private final ArchiveName name;
    private final Preflight pf;
    private final InstallTarget t;
    private final StateFolder folder;
    private final Run run;
    private final StatePaths paths;
    private final JournalRunner runner;
    private final String id;
    private final Path staging;
    private final Path historyDir;
    private final SearchPathChange addToPath; // --add-to-path; null when not asked for

    InstallTransaction(InstallPorts ports, TargetChecks checks, Run run) {
        this.ports = ports;
        this.ops = ports.ops();
        this.checks = checks;
        this.run = run;
        this.req = run.req();
        this.name = run.name();
        this.pf = run.pf();
        this.t = pf.target();
        this.folder = t.state();
        this.paths = t.paths();
        this.runner = new JournalRunner(ops, paths, ports.faults());
        this.id = run.id();
        this.staging = folder.staging(id);
        this.historyDir = folder.history(id);
        this.addToPath = run.addToPath();
    }

    JournalRunner runner() {
        return runner;
    }

    InstallOutcome run(ReadProgress progress) {
        List<Finding> findings = new ArrayList<>(pf.findings());
        ArchiveReport report;
        StagingSink sink = new StagingSink(staging, ops);
        try {
            ops.createDirectory(staging);
            report = new ArchiveInspector(ports.limits(), ports.xz()).withDigest(run.digest()).inspect(req.archive(), name, req.expected(), sink, progress);
        } catch (ArchiveInspector.SinkFailure e) {
            cleanupStaging();
            return failedBeforeCommit(findings, e.getCause(), "while unpacking into " + staging);
        } catch (IOException e) {
            cleanupStaging();
            return failedBeforeCommit(findings, e, "while creating " + staging);
        } catch (RuntimeException e) {
            cleanupStaging();
            throw e;
        }
        findings.addAll(0, report.findings());
        if (!report.acceptable()) {
            cleanupStaging();
            return new InstallOutcome(ExitCode.ARCHIVE_REJECTED,
                    "not installed: " + InstallOutcome.firstError(report.findings(), "the archive is not usable"), report, pf,
                    null, null, findings);
        }
        InstallPlan plan;
        Journal journal;
        InstallRecord record;
        FolderGuard planned = FolderGuard.at(t.root());
        try {
            plan = PlanGuard.plan(t, report);
            for (PlanStep s : plan.steps()) { // the folders as planned: the commit checks them before each step
                planned.watch(paths.resolve(paths.store(s.target())));
            }
            findings.addAll(plan.findings());
            if (AlreadyInstalled.nothingToDo(plan)) { // idempotent: no commit, no record; the check still runs
                cleanupStaging();
                return AlreadyInstalled.outcome(name, t, report, pf, plan, findings, ports.check().check(t, report));
            }
            checks.checkPlan(t, plan); // as the dry run checks it
            if (addToPath != null) {
                addToPath.checkAllowed(t.runtimeDir(name));
            }
            Built built = build(plan, report, sink);
            journal = built.journal;
            record = built.record;
        } catch (ToolException e) {
            cleanupStaging();
            throw e;
        } catch (IOException e) {
            cleanupStaging();
            return failedBeforeCommit(findings, e, "while preparing the backup folder");
        }
        try {
            runner.begin(journal, planned);
        } catch (IOException e) {
            // No journal in place: not a single step was taken, so there is nothing to roll back.
            runner.abandon();
            cleanupStaging();
            return failedBeforeCommit(findings, e, "while writing the journal " + folder.journal());
        }
        // From here on the target changes: every failure undoes what was done.
        try {
            runner.forward(journal);
            ops.writeAtomically(StateFolder.installRecord(historyDir), JournalRunner.JSON.writeValueAsBytes(record));
            if (addToPath != null) {
                findings.add(addToPath.apply(historyDir, id, t.runtimeDir(name)));
                addToPath.settle(findings, t.runtimeDir(name)); // search-path.missing no longer holds
            }
            runner.write(journal.withState(Journal.State.VERIFYING));
        } catch (IOException e) {
            return undo(journal, findings, report, plan, "install failed (" + IoFailure.describe(e) + ")", false);
        }
        List<Finding> verification = ports.check().check(t, report);
        findings.addAll(verification);
        if (Finding.anyError(verification)) {
            return undo(journal, findings, report, plan, "the installed cuDNN failed verification ("
                    + InstallOutcome.firstError(verification, "") + ")", true);
        }
        try {
            runner.deleteTree(staging);
            runner.finish(); // the commit point: no journal, a finished install
        } catch (IOException e) {
            return undo(journal, findings, report, plan, "install failed while cleaning up (" + IoFailure.describe(e) + ")",
                    false);
        }
        String summary = "installed cuDNN " + name.version() + " into " + t.root() + ": "
                + plan.count(PlanStep.Action.ADD) + " added, " + plan.count(PlanStep.Action.REPLACE) + " replaced, "
                + plan.count(PlanStep.Action.REMOVE) + " old files moved out, " + plan.count(PlanStep.Action.SAME)
                + " unchanged; backup id " + id + "; undo with: cudnn rollback"
                + (t.kind() == InstallTarget.Kind.TOOLKIT ? "" : " --prefix " + Fix.quote(Fix.Shell.of(t.os() == OsFamily.WINDOWS), t.root().toString()));
        return new InstallOutcome(ExitCode.OK, summary, report, pf, plan, record, findings);
    }

    private InstallOutcome failedBeforeCommit(List<Finding> findings, IOException e, String when) {
        if (e instanceof AccessDeniedException) {
            throw checks.notWritable(t.root(), e);
        }
        findings.add(Finding.error(FindingId.INSTALL_FAILED, "install failed " + when + ": " + IoFailure.describe(e)
                + "; the toolkit was not changed", checks.fixFor(e)));
        return new InstallOutcome(ExitCode.INSTALL_ROLLED_BACK, "not installed: " + IoFailure.describe(e)
                + " " + when + "; nothing in " + t.root() + " was changed", null, pf, null, null, findings);
    }

    private InstallOutcome undo(Journal journal, List<Finding> findings, ArchiveReport report, InstallPlan plan, String why,
                                boolean failedVerification) {
        try {
            try {
                runner.write(journal.withState(Journal.State.ROLLING_BACK));
            } catch (IOException ignored) {
                // the state is a label for people; the undo does not depend on it (a full disk fails it)
            }
            runner.backward(journal);
            if (addToPath != null) {
                addToPath.undoInstall(historyDir, id);
            }
            runner.deleteTree(historyDir);
            runner.deleteTree(staging);
            runner.finish();
        } catch (IOException e2) {
            findings.add(Finding.error(FindingId.INSTALL_ROLLBACK_FAILED, why + "; undoing it failed too: " + IoFailure.describe(e2),
                    Fix.tool("run cudnn rollback" + (t.kind() == InstallTarget.Kind.PREFIX ? " --prefix " + Fix.quote(Fix.Shell.of(t.os() == OsFamily.WINDOWS), t.root().toString()) : "")
                            + " to finish restoring " + t.root())));
            return new InstallOutcome(ExitCode.ROLLBACK_FAILED, why + "; automatic rollback failed: "
                    + IoFailure.describe(e2) + "; run cudnn rollback", report, pf, plan, null, findings);
        }
        findings.add(Finding.error(FindingId.INSTALL_FAILED, why + "; every change was undone",
                failedVerification ? "see the verification findings above; the previous cuDNN is back in place"
                        : "fix the cause named above and run the install again"));
        return new InstallOutcome(ExitCode.INSTALL_ROLLED_BACK, "not installed: " + why + "; " + t.root()
                + " was restored exactly", report, pf, plan, null, findings);
    }

    private void cleanupStaging() {
        try {
            runner.deleteTree(staging);
            runner.deleteTree(historyDir);
        } catch (IOException ignored) {
            // left for the next run's clean-up; the toolkit itself was not touched
        }
    }

    /** After the lock is released: remove the tool's folder if this run created it and left nothing in it. */
    void finish() {
        if (Files.exists(folder.journal())) {
            return;
        }
        if (folder.tidy(ops, run.stateCreated())) {
            removeEmpty(ops, run.createdRoots());
        }
    }

    private record Built(Journal journal, InstallRecord record) {
    }

    private Built build(InstallPlan plan, ArchiveReport report, StagingSink sink) throws IOException {
        List<Journal.Op> jops = new ArrayList<>();
        List<InstallRecord.InstalledFile> installed = new ArrayList<>();
        List<InstallRecord.BackedUpFile> backedUp = new ArrayList<>();
        Set<Path> created = new LinkedHashSet<>();
        Path backupRoot = historyDir.resolve("backup");
        mkdirs(historyDir);
        int n = 0;
        for (PlanStep s : plan.steps()) {
            if (s.action() == PlanStep.Action.SAME) {
                continue;
            }
            if (s.action() == PlanStep.Action.ADD || s.action() == PlanStep.Action.REPLACE) {
                for (Path d : missingDirs(s.target().getParent())) {
                    if (created.add(d)) {
                        jops.add(Journal.Op.mkdir(paths.store(d)));
                    }
                }
            }
            if (s.action() == PlanStep.Action.REPLACE || s.action() == PlanStep.Action.REMOVE) {
                Path slot = backupRoot.resolve(Integer.toString(n++));
                mkdirs(slot);
                Path backup = slot.resolve(s.target().getFileName().toString());
                boolean link = Files.isSymbolicLink(s.target());
                backedUp.add(new InstallRecord.BackedUpFile(paths.store(s.target()), paths.store(backup),
                        link ? null : hashOf(s.target()), link ? Files.readSymbolicLink(s.target()).toString() : null));
                jops.add(Journal.Op.move(paths.store(s.target()), paths.store(backup)));
            }
            if (s.action() != PlanStep.Action.REMOVE) {
                ArchiveItem item = s.item();
                jops.add(Journal.Op.move(paths.store(sink.staged(item)), paths.store(s.target())));
                installed.add(new InstallRecord.InstalledFile(paths.store(s.target()),
                        item.type() == EntryType.SYMLINK ? null : item.sha256(),
                        item.type() == EntryType.SYMLINK ? item.linkTarget() : null, item.relPath()));
            }
        }
        String license = null;
        // A toolkit keeps the licence in the record; a prefix too when its folder holds someone else's licence.
        for (ArchiveItem l : report.entries(EntryRole.LICENSE)) {
            if (t.kind() == InstallTarget.Kind.TOOLKIT || Placement.destination(t, name, l).isEmpty()) {
                Path keep = historyDir.resolve(l.fileName());
                jops.add(Journal.Op.move(paths.store(sink.staged(l)), paths.store(keep)));
                license = paths.store(keep);
            }
        }
        // The prefix and parents this run created come first (".", "..": relative to the target);
        // rollback removes them, if empty, once the tool's folder is gone.
        List<String> createdDirs = new ArrayList<>(run.createdRoots().stream().map(paths::store).toList());
        created.stream().map(paths::store).forEach(createdDirs::add);
        InstallRecord record = new InstallRecord(id, ports.clock().instant().toString(), ports.toolVersion(), name.fileName(),
                name.version().toString(), report.archive().sha256(), t.root().toString(), t.kind().label(),
                installed, backedUp, createdDirs, license);
        Journal journal = new Journal(id, Journal.Kind.INSTALL, Journal.State.COMMITTING, ports.clock().instant().toString(), t.root().toString(),
                jops, id, run.stateCreated());
        return new Built(journal, record);
    }

    /** The sha256 of a file about to be backed up; a failure names the file (never a bare "Is a directory"). */
    private static String hashOf(Path file) throws IOException {
        try {
            return Placement.sha256(file);
        } catch (FileSystemException e) {
            throw e;
        } catch (IOException e) {
            throw new FileSystemException(file.toString(), null, "cannot read it ("
                    + IoFailure.describe(e) + ")");
        }
    }

    private List<Path> missingDirs(Path dir) {
        List<Path> out = new ArrayList<>();
        for (Path d = dir; d != null && !Files.exists(d, LinkOption.NOFOLLOW_LINKS); d = d.getParent()) {
            out.add(0, d);
        }
        return out;
    }

    private void mkdirs(Path dir) throws IOException {
        for (Path d : missingDirs(dir)) {
            ops.createDirectory(d);
        }
    }

    /** Removes folders this run created (given outermost first), innermost first, while they are empty. */
    static void removeEmpty(FileOps ops, List<Path> created) {
        try {
            for (int i = created.size() - 1; i >= 0; i--) {
                if (JournalRunner.isEmptyDir(created.get(i))) {
                    ops.delete(created.get(i));
                }
            }
        } catch (IOException ignored) {
            // an empty folder may stay
        }
    }
}
