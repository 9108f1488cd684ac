package dev.cudnntool.install;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Fix;
import dev.cudnntool.OsFamily;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.Host;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.IoFailure;
import dev.cudnntool.target.Journal;
import dev.cudnntool.target.StateReader;
import dev.cudnntool.target.TargetLock;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The checks of the target an install makes before it changes anything (exit 5 each): write
 * access, free space, the lock, a pending journal, one file system for the commit's renames,
 * and (Windows) no file to replace held open by a running program.
 */
final class TargetChecks {
    private final Host host;
    private final FileOps ops;
    private final Function<List<Path>, List<String>> holders;

    TargetChecks(Host host, FileOps ops, Function<List<Path>, List<String>> holders) {
        this.host = host;
        this.ops = ops;
        this.holders = holders;
    }

    /**
     * No unfinished journal (exit 5) and no damaged state (exit 8). Called while holding the
     * lock, or after {@link TargetLock#isHeld} said nobody holds it: a running install's journal
     * is its own business, not a pending one.
     */
    void checkTargetFree(InstallTarget t) {
        StateReader reader = new StateReader(t);
        StateReader.Pending p = reader.journal();
        if (p != null) {
            Journal j = p.journal();
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "an unfinished " + j.kind() + " (" + j.id()
                    + (j.startedAt() == null ? "" : ", started " + j.startedAt()) + ") is pending in " + t.root(),
                    "run cudnn rollback" + (t.kind() == InstallTarget.Kind.PREFIX ? " --prefix " + Fix.quote(Fix.Shell.of(t.os() == OsFamily.WINDOWS), t.root().toString()) : "")
                            + " to complete it, then install again");
        }
        reader.records(); // a damaged record stops here (exit 8), not halfway through the commit
    }

    /** Dry run: the lock first (a running install is not "pending"), then the state. */
    void checkTargetFreeWithoutLock(InstallTarget t) {
        if (TargetLock.isHeld(t.stateDir())) {
            throw TargetLock.lockedBy(t.stateDir());
        }
        checkTargetFree(t);
    }

    /**
     * Staging needs at least the archive's own size (cuDNN archives always expand); less than that
     * is certain to fail, so it is refused before anything is written. A disk that fills up later
     * is handled like any other failure: the staging folder is removed, the toolkit is untouched.
     */
    void checkFreeSpace(InstallTarget t, Path archive) {
        Path e = existing(t.root());
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
     * The commit is a sequence of renames from the tool's folder; a destination folder on another
     * file system (a mount inside the toolkit) cannot take them. Said before anything changes,
     * by the dry run too, instead of failing (and undoing) halfway.
     */
    void checkOneFileSystem(InstallTarget t, List<Path> destinationDirs) {
        Path stateAt = existing(t.stateDir());
        if (stateAt == null) {
            return;
        }
        FileStore home;
        try {
            home = Files.getFileStore(stateAt);
        } catch (IOException e) {
            return; // no figure to compare: the commit's first move will tell, and is undone
        }
        Set<Path> seen = new LinkedHashSet<>();
        for (Path d : destinationDirs) {
            Path e = existing(d);
            if (e == null || !seen.add(e)) {
                continue;
            }
            try {
                FileStore there = Files.getFileStore(e);
                if (!there.equals(home)) {
                    throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, d + " is on another file system (" + there.name()
                            + ") than " + t.stateDir() + " (" + home.name() + "), so the install cannot move files there"
                            + " in one step; nothing was changed",
                            "install into a --prefix DIR on one file system, or make " + d + " a plain folder of the toolkit");
                }
            } catch (IOException ignored) {
                // no figure to compare
            }
        }
    }

    private static Path existing(Path p) {
        Path e = p;
        while (e != null && !Files.isDirectory(e)) {
            e = e.getParent();
        }
        return e;
    }

    /**
     * On Windows, a file that a running program has loaded (a cuDNN DLL in a Python session) cannot
     * be opened for writing. Finding that before the commit turns a certain mid-commit failure into
     * a clear stop (exit 5) that changes nothing. The programs are named through the holders function.
     */
    void checkNotInUse(InstallPlan plan) {
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
                reason = reason == null ? IoFailure.describe(e) : reason;
            }
        }
        if (!busy.isEmpty()) {
            List<String> who = holders.apply(busyPaths);
            String by = who.isEmpty() ? "a running program" : String.join(", ", who);
            throw new FilesInUse(busy.size() + " file(s) to replace are in use by "
                    + by + " (" + reason + "): " + String.join(", ", busy.subList(0, Math.min(5, busy.size())))
                    + (busy.size() > 5 ? " and " + (busy.size() - 5) + " more" : "") + "; nothing was changed",
                    "close every program that uses cuDNN (Python and Jupyter kernels, IDEs, TensorFlow or PyTorch"
                            + " jobs), then run the install again; a reboot frees them all");
        }
    }

    /**
     * The checks of a plan before the commit, the same for the real run and the dry run: its
     * destination folders take new files, lie on the tool folder's file system, and (Windows)
     * hold no file to replace that a running program has open ({@link FilesInUse}).
     */
    void checkPlan(InstallTarget t, InstallPlan plan) {
        List<Path> dirs = plan.steps().stream().map(s -> s.target().getParent()).distinct().toList();
        checkWritable(dirs);
        checkOneFileSystem(t, dirs);
        checkNotInUse(plan);
    }

    /** The destination folders that exist already, or their nearest existing parents. */
    static List<Path> existingDestinationDirs(InstallTarget t, ArchiveName n) {
        List<Path> dirs = new ArrayList<>();
        dirs.add(t.root());
        if (t.kind() == InstallTarget.Kind.TOOLKIT) { // a prefix's folders lie under its root, which it checks
            dirs.addAll(t.layout().destinationDirs(n));
        }
        return dirs;
    }

    void checkWritable(List<Path> dirs) {
        Set<Path> checked = new LinkedHashSet<>();
        for (Path d : dirs) {
            Path e = existing(d);
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

    ToolException notWritable(Path dir, IOException e) {
        String why = IoFailure.describe(e);
        String fix;
        if (readOnly(e)) {
            fix = "the file system holding " + dir + " is mounted read-only: remount it read-write, or use --prefix DIR elsewhere";
        } else if (e instanceof FileAlreadyExistsException || e instanceof NotDirectoryException) {
            fix = "something that is not a folder stands where the tool needs one (" + why + "): move it out of the way and run again";
        } else {
            fix = host.windows() ? "run the command from an elevated prompt (Run as administrator), or use --prefix DIR"
                    : "run it with sudo, or use --prefix DIR for a folder you own";
        }
        return new ToolException(ExitCode.TARGET_NOT_WRITABLE, "cannot write to " + dir + " (" + why + ")", fix, e);
    }

    private static boolean readOnly(IOException e) {
        return String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("read-only file system");
    }

    String fixFor(IOException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (m.contains("space") || m.contains("full") || m.contains("quota")) {
            return "free disk space (and inodes) on the drive holding the target (staging needs about the archive's"
                    + " expanded size)";
        }
        if (readOnly(e)) {
            return "the target's file system is mounted read-only: remount it read-write, or use --prefix DIR elsewhere";
        }
        return host.windows() ? "close programs that use cuDNN, then run again from an elevated prompt"
                : "check the target is writable (sudo) and retry";
    }
}
