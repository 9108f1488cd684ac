package dev.cudnntool.install;

import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.name.CudnnVersion;
import java.util.List;

/**
 * Idempotent installs: when every file of the archive is already in place byte for byte (the plan
 * is all {@code same}) and no old cuDNN file would be moved out, an install changes nothing and
 * writes no history record. The post-install check still runs, read-only: a careful user wants to
 * know the cuDNN in place works, and a second run should fail exactly where the first one would.
 */
public final class AlreadyInstalled {
    private AlreadyInstalled() {
    }

    /** True when the plan would change nothing: every step {@code same}, nothing to add, replace or remove. */
    public static boolean nothingToDo(InstallPlan plan) {
        return plan != null && !plan.steps().isEmpty()
                && plan.steps().stream().allMatch(s -> s.action() == PlanStep.Action.SAME);
    }

    /** "cuDNN 9.5.1 is already installed in /usr/local/cuda-12.4 (nothing to do)". */
    public static String summary(ArchiveName name, InstallTarget t) {
        CudnnVersion v = name.version();
        return "cuDNN " + v.major() + "." + v.minor() + "." + v.patch() + " is already installed in " + t.root()
                + " (nothing to do)";
    }

    /**
     * The outcome of a real run that found nothing to do, after the read-only verification of what is
     * in place: exit 0, or exit 6 with the verification's error (nothing was changed, so nothing was undone).
     */
    static InstallOutcome outcome(ArchiveName name, InstallTarget t, ArchiveReport report, Preflight pf, InstallPlan plan,
                                  List<Finding> findings, List<Finding> verification) {
        findings.addAll(verification);
        String summary = summary(name, t);
        if (Finding.anyError(verification)) {
            String why = verification.stream().filter(Finding::isError).map(f -> f.id() + ": " + f.message())
                    .findFirst().orElse("verification failed");
            findings.add(Finding.error(FindingId.INSTALL_FAILED, summary + ", but it failed verification (" + why
                    + "); nothing was changed", "see the verification findings above"));
            return new InstallOutcome(ExitCode.INSTALL_ROLLED_BACK, summary + ", but it failed verification; nothing was changed",
                    report, pf, plan, null, findings);
        }
        return new InstallOutcome(ExitCode.OK, summary, report, pf, plan, null, findings);
    }

    /**
     * The JSON {@code changed} of an install: whether the target is now different from before. A real run
     * changed it when it committed (a record) or when its undo failed (exit 7); a dry run says what the real
     * run would do: change something unless it stops or finds nothing to do.
     */
    public static boolean changed(InstallOutcome o, boolean dryRun) {
        if (dryRun) {
            return o.exit() == ExitCode.OK && o.plan() != null && !nothingToDo(o.plan());
        }
        return o.record() != null || o.exit() == ExitCode.ROLLBACK_FAILED;
    }

    /** The JSON {@code changed} of a rollback: true when it moved files (or its revert failed, exit 7); false for a dry run. */
    public static boolean changed(RollbackOutcome o, boolean dryRun) {
        return !dryRun && (o.exit() == ExitCode.OK || o.exit() == ExitCode.ROLLBACK_FAILED);
    }
}
