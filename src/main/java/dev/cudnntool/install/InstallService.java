package dev.cudnntool.install;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.ArchiveItem;
import dev.cudnntool.archive.ArchiveName;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.EntryRole;
import dev.cudnntool.archive.EntryType;
import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Installs an archive as a transaction. In order, each step stopping with its own exit code:
 * name (3), host checks (4), write access, lock and pending journal (5), the single read of the
 * archive into staging with every check (3), then the journaled commit, verification and
 * clean-up. Any failure after the journal is written undoes the commit (6); if the undo fails
 * too, the journal stays for cudnn-rollback (7). A dry run walks the same steps without
 * changing anything and exits where the real run would stop.
 */
public final class InstallService {
    private static final DateTimeFormatter ID = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final Host host;
    private final FileOps ops;
    private final Clock clock;
    private final PostInstallCheck check;
    private final InspectionLimits limits;
    private final String toolVersion;
    private java.util.function.Function<List<Path>, List<String>> holders = files -> List.of();
    private SearchPathChange addToPath; // --add-to-path; null when not asked for

    public InstallService(Host host, FileOps ops, Clock clock, PostInstallCheck check, InspectionLimits limits,
                          String toolVersion) {
        this.host = host;
        this.ops = ops;
        this.clock = clock;
        this.check = check;
        this.limits = limits;
        this.toolVersion = toolVersion;
    }

    /** Names the programs holding files open (Windows Restart Manager); by default nobody is named. */
    public InstallService withHolders(java.util.function.Function<List<Path>, List<String>> whoHolds) {
        this.holders = whoHolds;
        return this;
    }

    /** --add-to-path: the runtime folder goes on the persistent search path, as a step of the install. */
    public InstallService withAddToPath(SearchPathChange change) {
        this.addToPath = change;
        return this;
    }

    public InstallOutcome run(InstallRequest req, ReadProgress progress) {
        ArchiveName name = ArchiveName.parse(req.archive().getFileName().toString());
        if (!Files.isRegularFile(req.archive())) {
            throw new ToolException(ExitCode.USAGE, "archive " + req.archive() + " does not exist or is not a file",
                    "pass the path of the downloaded archive to --archive");
        }
        Preflight pf = Preflight.run(host, name, req.cudaPath(), req.prefix(), req.force());
        return req.dryRun() ? dryRun(req, name, pf, progress) : install(req, name, pf, progress);
    }

    private InstallOutcome dryRun(InstallRequest req, ArchiveName name, Preflight pf, ReadProgress progress) {
        List<Finding> findings = new ArrayList<>(pf.findings());
        ExitCode stop = pf.ready() ? null : ExitCode.HOST_NOT_READY;
        String stopWhy = stop == null ? null : firstError(findings, "the host is not ready");
        if (stop == null) {
            try {
                checkTargetFree(pf.target());
                checkWritable(pf.target(), existingDestinationDirs(pf.target(), name));
            } catch (ToolException e) {
                stop = e.exitCode();
                stopWhy = e.getMessage();
                findings.add(Finding.error("install.target-not-writable", e.getMessage(), e.fix()));
            }
        }
        ArchiveReport report;
        try {
            report = new ArchiveInspector(limits).inspect(req.archive(), name, req.expected(), dev.cudnntool.archive.EntrySink.NONE, progress);
        } catch (ToolException e) {
            if (stop != null) {
                findings.add(Finding.error("archive.rejected", e.getMessage(), e.fix()));
                return new InstallOutcome(stop, "dry run: would stop: " + stopWhy, null, pf, null, null, findings);
            }
            throw e;
        }
        findings.addAll(0, report.findings());
        if (stop == null && !report.acceptable()) {
            stop = ExitCode.ARCHIVE_REJECTED;
            stopWhy = firstError(report.findings(), "the archive is not usable");
        }
        InstallPlan plan = pf.target() == null ? null : Placement.plan(pf.target(), report);
        if (plan != null) {
            findings.addAll(plan.findings());
            if (stop == null) {
                try {
                    checkNotInUse(plan);
                } catch (ToolException e) {
                    stop = e.exitCode();
                    stopWhy = e.getMessage();
                    findings.add(Finding.error("install.file-in-use", e.getMessage(), e.fix()));
                }
            }
            String pathStop = addToPath == null ? null : addToPath.dryRun(findings, pf.target().runtimeDir(name));
            if (stop == null && pathStop != null) {
                stop = ExitCode.TARGET_NOT_WRITABLE;
                stopWhy = pathStop;
            }
        }
        String summary = stop == null && AlreadyInstalled.nothingToDo(plan)
                ? "dry run: " + AlreadyInstalled.summary(name, pf.target()) : stop == null
                ? "dry run: would install cuDNN " + name.version() + " into " + pf.target().root() + "; nothing was changed"
                : "dry run: would stop: " + stopWhy;
        return new InstallOutcome(stop == null ? ExitCode.OK : stop, summary, report, pf, plan, null, findings);
    }

    private InstallOutcome install(InstallRequest req, ArchiveName name, Preflight pf, ReadProgress progress) {
        if (!pf.ready()) {
            return new InstallOutcome(ExitCode.HOST_NOT_READY, "not installed: " + firstError(pf.findings(), "the host is not ready"),
                    null, pf, null, null, pf.findings());
        }
        InstallTarget t = pf.target();
        Path state = t.stateDir();
        List<Path> createdRoots = new ArrayList<>(); // a --prefix and its missing parents, outermost first
        boolean stateCreated = false;
        try {
            checkTargetFree(t);
            checkWritable(t, existingDestinationDirs(t, name));
            checkFreeSpace(t, req.archive());
            for (Path d = t.root(); d != null && !Files.exists(d); d = d.getParent()) {
                createdRoots.add(0, d);
            }
            for (Path d : createdRoots) {
                ops.createDirectory(d);
            }
            if (!Files.isDirectory(state)) {
                ops.createDirectory(state);
                stateCreated = true;
            }
        } catch (IOException e) {
            cleanupBeforeCommit(state, stateCreated, createdRoots);
            throw notWritable(t.root(), e);
        } catch (ToolException e) {
            cleanupBeforeCommit(state, stateCreated, createdRoots);
            throw e;
        }
        TargetLock lock;
        try {
            lock = TargetLock.acquire(state);
        } catch (ToolException e) {
            cleanupBeforeCommit(state, stateCreated, createdRoots);
            throw e;
        }
        Transaction tx = new Transaction(req, name, pf, t, state, stateCreated, createdRoots);
        try {
            return tx.run(progress);
        } finally {
            lock.release(false);
            tx.finish();
        }
    }

    /** One install's moving parts, so the clean-up paths share one view of what was created. */
    private final class Transaction {
        final InstallRequest req;
        final ArchiveName name;
        final Preflight pf;
        final InstallTarget t;
        final Path state;
        final boolean stateCreated;
        final List<Path> createdRoots;
        final JournalRunner runner;
        final String id;
        final Path staging;
        final Path historyDir;
        boolean removeStateDir;

        Transaction(InstallRequest req, ArchiveName name, Preflight pf, InstallTarget t, Path state,
                    boolean stateCreated, List<Path> createdRoots) {
            this.req = req;
            this.name = name;
            this.pf = pf;
            this.t = t;
            this.state = state;
            this.stateCreated = stateCreated;
            this.createdRoots = createdRoots;
            this.runner = new JournalRunner(ops, host.fs(), state);
            this.id = ID.format(clock.instant()) + "-" + String.format("%04d", nextSequence(state));
            this.staging = state.resolve("staging-" + id);
            this.historyDir = History.dir(state).resolve(id);
        }

        InstallOutcome run(ReadProgress progress) {
            List<Finding> findings = new ArrayList<>(pf.findings());
            pendingJournal();
            ArchiveReport report;
            StagingSink sink = new StagingSink(staging, ops);
            try {
                ops.createDirectory(staging);
                report = new ArchiveInspector(limits).inspect(req.archive(), name, req.expected(), sink, progress);
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
                        "not installed: " + firstError(report.findings(), "the archive is not usable"), report, pf, null, null, findings);
            }
            InstallPlan plan;
            try {
                plan = Placement.plan(t, report);
            } catch (ToolException e) {
                cleanupStaging(); // refused where the files would land (exit 3): nothing may stay behind
                throw e;
            }
            findings.addAll(plan.findings());
            if (AlreadyInstalled.nothingToDo(plan)) { // idempotent: no commit, no record; the check still runs
                cleanupStaging();
                return AlreadyInstalled.outcome(name, t, report, pf, plan, findings, check.check(t, report));
            }
            Journal journal;
            InstallRecord record;
            try {
                checkWritable(t, plan.steps().stream().map(s -> s.target().getParent()).distinct().toList());
                checkNotInUse(plan);
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
            // From here on the target changes: every failure undoes what was done.
            try {
                runner.begin(journal);
                runner.forward(journal);
                ops.writeAtomically(historyDir.resolve("install.json"), JournalRunner.JSON.writeValueAsBytes(record));
                if (addToPath != null) {
                    findings.add(addToPath.apply(historyDir, id, t.runtimeDir(name)));
                }
                runner.write(journal.withState("verifying"));
            } catch (IOException e) {
                return undo(journal, findings, report, plan, "install failed (" + describe(e) + ")");
            }
            List<Finding> verification = check.check(t, report);
            findings.addAll(verification);
            if (Finding.anyError(verification)) {
                return undo(journal, findings, report, plan, "the installed cuDNN failed verification ("
                        + firstError(verification, "") + ")");
            }
            try {
                runner.deleteTree(staging);
                runner.finish(); // the commit point: no journal, a finished install
            } catch (IOException e) {
                return undo(journal, findings, report, plan, "install failed while cleaning up (" + describe(e) + ")");
            }
            String summary = "installed cuDNN " + name.version() + " into " + t.root() + ": "
                    + plan.count(PlanStep.Action.ADD) + " added, " + plan.count(PlanStep.Action.REPLACE) + " replaced, "
                    + plan.count(PlanStep.Action.REMOVE) + " old files moved out, " + plan.count(PlanStep.Action.SAME)
                    + " unchanged; backup id " + id + "; undo with: cudnn-rollback"
                    + (t.kind() == InstallTarget.Kind.TOOLKIT ? "" : " --prefix " + t.root());
            return new InstallOutcome(ExitCode.OK, summary, report, pf, plan, record, findings);
        }

        private void pendingJournal() {
            checkTargetFree(t); // again, now that this run holds the lock
        }

        private InstallOutcome failedBeforeCommit(List<Finding> findings, IOException e, String when) {
            if (e instanceof AccessDeniedException) {
                throw notWritable(t.root(), e);
            }
            findings.add(Finding.error("install.failed", "install failed " + when + ": " + describe(e)
                    + "; the toolkit was not changed", fixFor(e)));
            return new InstallOutcome(ExitCode.INSTALL_ROLLED_BACK, "not installed: " + describe(e)
                    + " " + when + "; nothing in " + t.root() + " was changed", null, pf, null, null, findings);
        }

        private InstallOutcome undo(Journal journal, List<Finding> findings, ArchiveReport report, InstallPlan plan,
                                    String why) {
            try {
                runner.write(journal.withState("rolling-back"));
                runner.backward(journal);
                if (addToPath != null) {
                    addToPath.undoInstall(historyDir, id);
                }
                runner.deleteTree(historyDir);
                runner.deleteTree(staging);
                runner.finish();
            } catch (IOException e2) {
                findings.add(Finding.error("install.rollback-failed", why + "; undoing it failed too: " + describe(e2),
                        "run cudnn-rollback" + (t.kind() == InstallTarget.Kind.PREFIX ? " --prefix " + t.root() : "")
                                + " to finish restoring " + t.root()));
                return new InstallOutcome(ExitCode.ROLLBACK_FAILED, why + "; automatic rollback failed: " + describe(e2)
                        + "; run cudnn-rollback", report, pf, plan, null, findings);
            }
            findings.add(Finding.error("install.failed", why + "; every change was undone", fixForText(why)));
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
            try {
                if (Files.exists(JournalRunner.journalFile(state))) {
                    return;
                }
                Path hist = History.dir(state);
                if (Files.isDirectory(hist) && JournalRunner.isEmptyDir(hist)) {
                    ops.delete(hist);
                }
                if (stateCreated && onlyLockLeft(state)) {
                    Files.deleteIfExists(state.resolve("lock"));
                    ops.delete(state);
                    removeEmpty(createdRoots);
                }
            } catch (IOException ignored) {
                // an empty .cudnn-tool folder is harmless; nothing of cuDNN's was left behind
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
                            jops.add(Journal.Op.mkdir(d.toString()));
                        }
                    }
                }
                if (s.action() == PlanStep.Action.REPLACE || s.action() == PlanStep.Action.REMOVE) {
                    Path slot = backupRoot.resolve(Integer.toString(n++));
                    mkdirs(slot);
                    Path backup = slot.resolve(s.target().getFileName().toString());
                    boolean link = Files.isSymbolicLink(s.target());
                    backedUp.add(new InstallRecord.BackedUpFile(s.target().toString(), backup.toString(),
                            link ? null : Placement.sha256(s.target()),
                            link ? Files.readSymbolicLink(s.target()).toString() : null));
                    jops.add(Journal.Op.move(s.target().toString(), backup.toString()));
                }
                if (s.action() != PlanStep.Action.REMOVE) {
                    ArchiveItem item = s.item();
                    jops.add(Journal.Op.move(sink.staged(item).toString(), s.target().toString()));
                    installed.add(new InstallRecord.InstalledFile(s.target().toString(),
                            item.type() == EntryType.SYMLINK ? null : item.sha256(),
                            item.type() == EntryType.SYMLINK ? item.linkTarget() : null, item.relPath()));
                }
            }
            String license = null;
            if (t.kind() == InstallTarget.Kind.TOOLKIT) {
                for (ArchiveItem l : report.entries(EntryRole.LICENSE)) {
                    Path keep = historyDir.resolve(l.fileName());
                    jops.add(Journal.Op.move(sink.staged(l).toString(), keep.toString()));
                    license = keep.toString();
                }
            }
            // The prefix and parents this run created come first; rollback removes them once the tool's folder is gone.
            List<String> createdDirs = new ArrayList<>(createdRoots.stream().map(Path::toString).toList());
            created.stream().map(Path::toString).forEach(createdDirs::add);
            InstallRecord record = new InstallRecord(id, clock.instant().toString(), toolVersion, name.fileName(),
                    name.version().toString(), report.archive().sha256(), t.root().toString(), t.kind().label(),
                    installed, backedUp, createdDirs, license);
            Journal journal = new Journal(id, "install", "committing", clock.instant().toString(), t.root().toString(),
                    jops, id, stateCreated);
            return new Built(journal, record);
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
    }

    private static int nextSequence(Path state) {
        try {
            return History.nextSequence(state);
        } catch (IOException e) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "cannot read the install history in " + state + ": "
                    + e.getMessage(), "check the folder is readable", e);
        }
    }

    static boolean onlyLockLeft(Path state) throws IOException {
        if (!Files.isDirectory(state)) {
            return false;
        }
        try (var ds = Files.newDirectoryStream(state)) {
            for (Path p : ds) {
                if (!p.getFileName().toString().equals("lock")) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Undoes the folders a run created before it got as far as the lock. */
    private void cleanupBeforeCommit(Path state, boolean stateCreated, List<Path> createdRoots) {
        try {
            if (stateCreated && onlyLockLeft(state)) {
                Files.deleteIfExists(state.resolve("lock"));
                ops.delete(state);
            }
        } catch (IOException ignored) {
            // nothing of cuDNN's was changed; an empty folder may stay
        }
        removeEmpty(createdRoots);
    }

    /** Removes folders this run created (given outermost first), innermost first, while they are empty. */
    void removeEmpty(List<Path> created) {
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

    private static String firstError(List<Finding> findings, String fallback) {
        return findings.stream().filter(Finding::isError).map(f -> f.id() + ": " + f.message()).findFirst().orElse(fallback);
    }

    private void checkTargetFree(InstallTarget t) {
        try {
            Journal j = JournalRunner.read(t.stateDir());
            if (j != null) {
                throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "an unfinished " + j.kind() + " (" + j.id()
                        + ", started " + j.startedAt() + ") is pending in " + t.root(),
                        "run cudnn-rollback" + (t.kind() == InstallTarget.Kind.PREFIX ? " --prefix " + t.root() : "")
                                + " to complete it, then install again");
            }
        } catch (IOException e) {
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "cannot read the journal in " + t.stateDir(),
                    "run cudnn-rollback to repair it", e);
        }
    }

    /**
     * Staging needs at least the archive's own size (cuDNN archives always expand); less than that
     * is certain to fail, so it is refused before anything is written. A disk that fills up later
     * is handled like any other failure: the staging folder is removed, the toolkit is untouched.
     */
    private void checkFreeSpace(InstallTarget t, Path archive) {
        Path e = t.root();
        while (e != null && !Files.isDirectory(e)) {
            e = e.getParent();
        }
        if (e == null) {
            return;
        }
        try {
            long free = Files.getFileStore(e).getUsableSpace();
            long need = Files.size(archive);
            if (free < need) {
                throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "only " + (free >> 20) + " MB free on the drive of "
                        + t.root() + "; installing " + archive.getFileName() + " needs at least " + (need >> 20) + " MB",
                        "free disk space there, or use --prefix DIR on another drive");
            }
        } catch (IOException ignored) {
            // no figure to compare: the write itself will tell
        }
    }

    /**
     * On Windows, a file that a running program has loaded (a cuDNN DLL in a Python session) cannot
     * be opened for writing. Finding that before the commit turns a certain mid-commit failure into
     * a clear stop (exit 5) that changes nothing. The programs are named through {@link #withHolders}.
     */
    private void checkNotInUse(InstallPlan plan) {
        if (!host.windows()) {
            return; // Linux lets a file in use be replaced; the running program keeps the old one
        }
        List<String> busy = new ArrayList<>();
        List<Path> busyPaths = new ArrayList<>();
        String reason = null;
        for (PlanStep s : plan.steps()) {
            if (s.action() != PlanStep.Action.REPLACE && s.action() != PlanStep.Action.REMOVE) {
                continue;
            }
            try {
                ops.checkNotInUse(s.target());
            } catch (AccessDeniedException e) {
                throw notWritable(s.target().getParent(), e);
            } catch (IOException e) {
                busy.add(s.target().toString());
                busyPaths.add(s.target());
                reason = reason == null ? describe(e) : reason;
            }
        }
        if (!busy.isEmpty()) {
            List<String> who = holders.apply(busyPaths);
            String by = who.isEmpty() ? "a running program" : String.join(", ", who);
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, busy.size() + " file(s) to replace are in use by "
                    + by + " (" + reason + "): " + String.join(", ", busy.subList(0, Math.min(5, busy.size())))
                    + (busy.size() > 5 ? " and " + (busy.size() - 5) + " more" : "") + "; nothing was changed",
                    "close every program that uses cuDNN (Python and Jupyter kernels, IDEs, TensorFlow or PyTorch"
                            + " jobs), then run the install again; a reboot frees them all");
        }
    }

    /** The destination folders that exist already, or their nearest existing parents. */
    private List<Path> existingDestinationDirs(InstallTarget t, ArchiveName n) {
        List<Path> dirs = new ArrayList<>();
        dirs.add(t.root());
        if (t.kind() == InstallTarget.Kind.TOOLKIT) {
            dirs.add(t.root().resolve("include"));
            dirs.add(t.runtimeDir(n));
            if (n.os() == dev.cudnntool.archive.OsFamily.WINDOWS) {
                dirs.add(t.root().resolve("lib").resolve("x64"));
            }
        }
        return dirs;
    }

    private void checkWritable(InstallTarget t, List<Path> dirs) {
        Set<Path> checked = new LinkedHashSet<>();
        for (Path d : dirs) {
            Path e = d;
            while (e != null && !Files.isDirectory(e)) {
                e = e.getParent();
            }
            if (e == null || !checked.add(e)) {
                continue;
            }
            try {
                ops.checkWritable(e);
            } catch (IOException ex) {
                throw notWritable(e, ex);
            }
        }
    }

    private ToolException notWritable(Path dir, IOException e) {
        return new ToolException(ExitCode.TARGET_NOT_WRITABLE, "cannot write to " + dir + " (" + describe(e) + ")",
                host.windows() ? "run the command from an elevated prompt (Run as administrator), or use --prefix DIR"
                        : "run it with sudo, or use --prefix DIR for a folder you own", e);
    }

    static String describe(IOException e) {
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason() + (f.getFile() == null ? "" : ": " + f.getFile());
        }
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    private String fixFor(IOException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        if (m.contains("space") || m.contains("full")) {
            return "free disk space on the drive holding the target (staging needs about the archive's expanded size)";
        }
        return host.windows() ? "close programs that use cuDNN, then run again from an elevated prompt"
                : "check the target is writable (sudo) and retry";
    }

    private String fixForText(String why) {
        return why.contains("verification") ? "see the verification findings above; the previous cuDNN is back in place"
                : "fix the cause named above and run the install again";
    }
}
