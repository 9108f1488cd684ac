package dev.cudnntool.install;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.CudnnFiles;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.StatePaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The plan as the commit will carry it out, checked against the target: every destination is
 * given as the real folder it lands in (a target folder that is a link leading outside the
 * target is named: {@code target.outside-link}), no file of the toolkit that is not cuDNN's is
 * ever added, replaced or removed, and a cuDNN file's place taken by a folder stops the install.
 */
final class PlanGuard {
    private PlanGuard() {
    }

    /** Placement's plan with real destinations; throws (exit 3 or 5) where the target must not be touched. */
    static InstallPlan plan(InstallTarget t, ArchiveReport report) {
        InstallPlan raw = Placement.plan(t, report);
        List<Finding> findings = new ArrayList<>(outsideLinks(t));
        findings.addAll(raw.findings());
        List<PlanStep> steps = new ArrayList<>();
        StatePaths sp = t.paths();
        for (PlanStep s : raw.steps()) {
            Path real;
            try {
                real = StatePaths.real(s.target());
            } catch (IOException e) {
                real = s.target();
            }
            if (!sp.insideTarget(real)) { // a folder deeper in the target that is a link leading out of it
                throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, s.target().getParent() + " leads outside " + t.root()
                        + " (through a link, to " + real.getParent() + "); nothing was changed",
                        "make the link a plain folder, or install into the folder it leads to");
            }
            String name = real.getFileName().toString();
            if (t.kind() == InstallTarget.Kind.TOOLKIT && s.action() != PlanStep.Action.SAME && !isCudnnFile(name)) {
                throw new ToolException(ExitCode.ARCHIVE_REJECTED, "the install would " + s.action().label() + " " + real
                        + ", which is not a cuDNN file; nothing was changed",
                        "use the cuDNN archive exactly as NVIDIA published it: it holds only cuDNN's own files");
            }
            if (s.action() == PlanStep.Action.REPLACE && Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
                throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, real + " is a folder where cuDNN's file "
                        + name + " goes; nothing was changed", "move the folder " + real + " out of the way, then run the install again");
            }
            steps.add(new PlanStep(s.source(), real.toString(), s.action(), s.item(), real));
        }
        return new InstallPlan(raw.target(), steps, findings);
    }

    /** cuDNN's own files: cudnn*.h, libcudnn*, cudnn*.dll, cudnn*.lib (any case). */
    static boolean isCudnnFile(String fileName) {
        return CudnnFiles.isCudnnFile(fileName); // one predicate for the reader and the plan
    }

    /** One warning per destination folder of the target that is a link leading outside it. */
    static List<Finding> outsideLinks(InstallTarget t) {
        List<Finding> out = new ArrayList<>();
        for (Path[] link : t.paths().outsideLinks()) {
            out.add(Finding.warn(FindingId.TARGET_OUTSIDE_LINK, link[0] + " is a link that leads outside " + t.root() + ", to "
                    + link[1] + ": cuDNN's files for it are placed there",
                    "nothing to do if " + link[1] + " is meant to hold the toolkit's files; otherwise make " + link[0]
                            + " a plain folder"));
        }
        return out;
    }
}
