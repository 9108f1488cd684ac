package dev.cudnntool.install;

import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.Finding;
import java.util.List;

/** Every file an install adds, replaces, leaves or removes, decided before anything changes. */
public record InstallPlan(InstallTarget target, List<PlanStep> steps, List<Finding> findings) {
    public InstallPlan {
        steps = List.copyOf(steps);
        findings = List.copyOf(findings);
    }

    public long count(PlanStep.Action a) {
        return steps.stream().filter(s -> s.action() == a).count();
    }
}
