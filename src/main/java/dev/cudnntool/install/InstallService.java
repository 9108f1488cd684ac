package dev.cudnntool.install;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveFile;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.EntrySink;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.format.ArchiveDigest;
import dev.cudnntool.archive.name.ArchiveFormat;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.target.DamagedState;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.target.History;
import dev.cudnntool.target.InstallRecord;
import dev.cudnntool.target.InstallTarget;
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
import java.util.ArrayList;
import java.util.List;

/**
 * Installs an archive as a transaction. In order, each step stopping with its own exit code:
 * name (3), host checks (4), write access and the lock (5), then, holding the lock, a pending
 * journal (5) or damaged state (8), the single read of the archive into staging with every check
 * (3), then the journaled commit, verification and clean-up ({@link InstallTransaction}). A dry
 * run walks the same steps without changing anything and exits where the real run would stop.
 */
public final class InstallService {
    private final InstallPorts ports;
    private final FileOps ops;
    private final TargetChecks checks;

    public InstallService(InstallPorts ports) {
        this.ports = ports;
        this.ops = ports.ops();
        this.checks = new TargetChecks(ports.host(), ports.ops(), ports.holders());
    }

    public InstallOutcome run(InstallRequest req, ReadProgress progress) {
        ArchiveName name = ArchiveFile.name(req.archive());
        if (!Files.isRegularFile(req.archive())) {
            throw new ToolException(ExitCode.USAGE, "archive " + req.archive() + " does not exist or is not a file",
                    "pass the path of the downloaded archive to --archive");
        }
        // A zip is hashed apart from its entries: if the caller did not start that already, it starts
        // now, on its own thread, while the host checks below wait for nvidia-smi and read the toolkit.
        try (ArchiveDigest own = req.digest() == null ? startDigest(req.archive(), name) : null) {
            ArchiveDigest digest = own != null ? own : req.digest();
            Preflight pf = Preflight.run(ports.host(), name, req.cudaPath(), req.prefix(), req.force());
            SearchPathChange addToPath = addToPath(req);
            if (addToPath != null && pf.target() != null) {
                addToPath.checkEntry(pf.target().root(), pf.target().runtimeDir(name)); // exit 2, dry run or not, before anything changes
            }
            return req.dryRun() ? dryRun(req, name, pf, progress, digest) : install(req, name, pf, progress, digest);
        }
    }

    /**
     * A dry run of {@code --release} whose archive is not in the cache yet: nothing is downloaded, so only what
     * does not need the archive's bytes is checked: the host for this archive name (exit 4), the target free and
     * writable (5, 8), --add-to-path (2, 5). {@code fetching} says what the real run would fetch first.
     */
    public InstallOutcome dryRunBeforeFetch(InstallRequest req, ArchiveName name, String fetching) {
        BeforeFetch b = checkBeforeFetch(req, name);
        String summary = b.stop() == null ? "dry run: would fetch " + fetching + ", check it and install cuDNN " + name.version()
                + " into " + b.preflight().target().root() + "; nothing was fetched or changed" : "dry run: would stop: " + b.stopWhy();
        return b.outcome(summary);
    }

    /**
     * The checks of {@link #dryRunBeforeFetch} for a real run, before a long download: null when the download may
     * go on, else the outcome "not installed (nothing was fetched)" with the reason.
     */
    public InstallOutcome stopBeforeFetch(InstallRequest req, ArchiveName name) {
        BeforeFetch b = checkBeforeFetch(req, name);
        return b.stop() == null ? null : b.outcome("not installed (nothing was fetched): " + b.stopWhy());
    }

    /** What the checks before a fetch found: {@code stop} and {@code stopWhy} null when nothing stops the run. */
    private record BeforeFetch(Preflight preflight, List<Finding> findings, ExitCode stop, String stopWhy) {
        InstallOutcome outcome(String summary) {
            return new InstallOutcome(stop == null ? ExitCode.OK : stop, summary, null, preflight, null, null, findings);
        }
    }

    private BeforeFetch checkBeforeFetch(InstallRequest req, ArchiveName name) {
        Preflight pf = Preflight.run(ports.host(), name, req.cudaPath(), req.prefix(), req.force());
        SearchPathChange addToPath = addToPath(req);
        if (addToPath != null && pf.target() != null) {
            addToPath.checkEntry(pf.target().root(), pf.target().runtimeDir(name));
        }
        List<Finding> findings = new ArrayList<>(pf.findings());
        ToolException early = hostOrTargetStop(pf, name, findings);
        ExitCode stop = early == null ? null : early.exitCode();
        String stopWhy = early == null ? null : early.getMessage();
        if (stop == null && addToPath != null) {
            String pathStop = addToPath.dryRun(findings, pf.target().runtimeDir(name));
            if (pathStop != null) {
                stop = ExitCode.TARGET_NOT_WRITABLE;
                stopWhy = pathStop;
            }
        }
        return new BeforeFetch(pf, findings, stop, stopWhy);
    }

    /**
     * Starts hashing a zip on a thread of its own (a {@code .tar.xz} is hashed as it is decoded):
     * null when there is nothing to start.
     * The caller closes it; a request carrying it ({@link InstallRequest#digest}) uses it instead of its own.
     */
    public static ArchiveDigest startDigest(Path archive, ArchiveName name) {
        return name.format().isZip() && Files.isRegularFile(archive) ? ArchiveDigest.start(archive) : null;
    }

    /**
     * Where a dry run stops before the archive matters: the host not ready (exit 4, its first error), else the
     * target checks made without the archive (free of another run, writable: 8, 5), also said as a finding;
     * null when neither stops it.
     */
    private ToolException hostOrTargetStop(Preflight pf, ArchiveName name, List<Finding> findings) {
        if (!pf.ready()) {
            return new ToolException(ExitCode.HOST_NOT_READY, InstallOutcome.firstError(findings, "the host is not ready"), "");
        }
        try {
            checks.checkTargetFreeWithoutLock(pf.target());
            checks.checkWritable(TargetChecks.existingDestinationDirs(pf.target(), name));
            return null;
        } catch (ToolException e) {
            findings.add(Finding.error(e instanceof DamagedState ? FindingId.INSTALL_STATE_DAMAGED : FindingId.INSTALL_TARGET_NOT_WRITABLE,
                    e.getMessage(), e.fix()));
            return e;
        }
    }

    /** --add-to-path as this run asked for it; null without it. */
    private SearchPathChange addToPath(InstallRequest req) {
        return req.addToPath() == null ? null : new SearchPathChange(ports.host(), ops, ports.searchPaths(), req.addToPath());
    }

    private InstallOutcome dryRun(InstallRequest req, ArchiveName name, Preflight pf, ReadProgress progress,
                                  ArchiveDigest digest) {
        List<Finding> findings = new ArrayList<>(pf.findings());
        ToolException early = hostOrTargetStop(pf, name, findings);
        ExitCode stop = early == null ? null : early.exitCode();
        String stopWhy = early == null ? null : early.getMessage();
        ArchiveReport report;
        try {
            report = new ArchiveInspector(ports.limits(), ports.xz()).withDigest(digest)
                    .inspect(req.archive(), name, req.expected(), EntrySink.NONE, progress);
        } catch (ToolException e) {
            if (stop != null) {
                findings.add(Finding.error(FindingId.ARCHIVE_REJECTED, e.getMessage(), e.fix()));
                return new InstallOutcome(stop, "dry run: would stop: " + stopWhy, null, pf, null, null, findings);
            }
            throw e;
        }
        findings.addAll(0, report.findings());
        if (stop == null && !report.acceptable()) {
            stop = ExitCode.ARCHIVE_REJECTED;
            stopWhy = InstallOutcome.firstError(report.findings(), "the archive is not usable");
        }
        InstallPlan plan = null;
        if (pf.target() != null) {
            try {
                plan = PlanGuard.plan(pf.target(), report);
            } catch (ToolException e) {
                if (stop == null) {
                    stop = e.exitCode();
                    stopWhy = e.getMessage();
                }
                findings.add(Finding.error(e.exitCode() == ExitCode.ARCHIVE_REJECTED ? FindingId.ARCHIVE_REJECTED
                        : FindingId.INSTALL_TARGET_NOT_WRITABLE, e.getMessage(), e.fix()));
                findings.addAll(PlanGuard.outsideLinks(pf.target()));
            }
        }
        if (plan != null) {
            findings.addAll(plan.findings());
            if (stop == null && !AlreadyInstalled.nothingToDo(plan)) { // the real run's checks of its plan
                try {
                    checks.checkPlan(pf.target(), plan);
                } catch (ToolException e) {
                    stop = e.exitCode();
                    stopWhy = e.getMessage();
                    findings.add(Finding.error(e instanceof FilesInUse ? FindingId.INSTALL_FILE_IN_USE
                            : FindingId.INSTALL_TARGET_NOT_WRITABLE, e.getMessage(), e.fix()));
                }
            }
            SearchPathChange addToPath = addToPath(req);
            String pathStop = addToPath == null ? null : addToPath.dryRun(findings, pf.target().runtimeDir(name));
            if (stop == null && pathStop != null) {
                stop = ExitCode.TARGET_NOT_WRITABLE;
                stopWhy = pathStop;
            }
        }
        String summary = stop == null && plan != null && AlreadyInstalled.nothingToDo(plan)
                ? "dry run: " + AlreadyInstalled.summary(name, pf.target()) : stop == null
                ? "dry run: would install cuDNN " + name.version() + " into " + pf.target().root() + "; nothing was changed"
                : "dry run: would stop: " + stopWhy;
        return new InstallOutcome(stop == null ? ExitCode.OK : stop, summary, report, pf, plan, null, findings);
    }

    private InstallOutcome install(InstallRequest req, ArchiveName name, Preflight pf, ReadProgress progress,
                                   ArchiveDigest digest) {
        if (!pf.ready()) {
            return new InstallOutcome(ExitCode.HOST_NOT_READY, "not installed: " + InstallOutcome.firstError(pf.findings(), "the host is not ready"),
                    null, pf, null, null, pf.findings());
        }
        InstallTarget t = pf.target();
        Path state = t.stateDir();
        List<Path> createdRoots = new ArrayList<>(); // a --prefix and its missing parents, outermost first
        boolean stateCreated = false;
        try {
            checks.checkWritable(TargetChecks.existingDestinationDirs(t, name));
            checks.checkFreeSpace(t, req.archive());
            for (Path d = t.root(); d != null && !Files.exists(d); d = d.getParent()) {
                createdRoots.add(0, d);
            }
            for (Path d : createdRoots) {
                ops.createDirectory(d);
            }
            new StateReader(t).checkStateFolder(); // a link there would take the lock and records elsewhere
            if (!Files.isDirectory(state)) {
                ops.createDirectory(state);
                stateCreated = true;
            }
        } catch (IOException e) {
            cleanupBeforeCommit(state, stateCreated, createdRoots);
            throw checks.notWritable(t.root(), e);
        } catch (ToolException e) {
            cleanupBeforeCommit(state, stateCreated, createdRoots);
            throw e;
        }
        TargetLock lock;
        try {
            lock = TargetLock.acquire(state); // first: a run that loses the race is told so, not sent to rollback
        } catch (ToolException e) {
            cleanupBeforeCommit(state, stateCreated, createdRoots);
            throw e;
        }
        InstallTransaction tx = null;
        try {
            checks.checkTargetFree(t);
            Leftovers.Cleaned cleaned = Leftovers.clean(new JournalRunner(ops, t.paths()), ops, state, null);
            String id = History.newId(ports.clock().instant(), t.root(), lastSequence(t),
                    i -> Files.exists(t.state().history(i), LinkOption.NOFOLLOW_LINKS)
                            || req.addToPath() != null && ports.searchPaths().holds(i));
            tx = new InstallTransaction(ports, checks, new InstallTransaction.Run(req, name, pf, id, digest, addToPath(req),
                    stateCreated, createdRoots));
            InstallOutcome o = tx.run(progress);
            List<Path> left = new ArrayList<>(cleaned.leftInPlace());
            left.addAll(tx.runner().leftInPlace());
            if (left.isEmpty()) {
                return o;
            }
            List<Finding> all = new ArrayList<>(o.findings());
            all.addAll(TreeRemoval.findings(left)); // mount points in the tool's folder: left, and said so
            return o.withFindings(all);
        } finally {
            lock.release(false);
            if (tx != null) {
                tx.finish();
            } else {
                cleanupBeforeCommit(state, stateCreated, createdRoots);
            }
        }
    }

    private static int lastSequence(InstallTarget t) {
        int max = 0;
        for (InstallRecord r : new StateReader(t).records()) {
            max = Math.max(max, History.sequence(r.id()));
        }
        return max;
    }

    /** Undoes the folders a run created before it got as far as the lock. */
    private void cleanupBeforeCommit(Path state, boolean stateCreated, List<Path> createdRoots) {
        if (stateCreated) {
            StateFolder.at(state).tidy(ops, true); // nothing of cuDNN's was changed; an empty folder may stay
        }
        InstallTransaction.removeEmpty(ops, createdRoots);
    }
}
