package dev.cudnntool.explain;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import java.util.List;

/**
 * What {@code cudnn explain} established: the error lines found and the findings of the checks run for them (an error
 * for each cause found here, {@code explain.ruled-out} for what was checked and is fine, {@code explain.not-checked}
 * where the check could not run).
 */
public record Explanation(List<ErrorLine> lines, List<Finding> findings) {
    /** How it ends. */
    public enum Outcome {
        /** The text's cause is not present here (exit 0). */
        NOT_PRESENT,
        /** A problem was found here (exit 1). */
        PROBLEM,
        /** The check that would answer could not run (exit 9). */
        NOT_CHECKED
    }

    /** Any error makes it a problem; else a check that could not run makes it not checked; else not present. */
    public Outcome outcome() {
        if (Finding.anyError(findings)) {
            return Outcome.PROBLEM;
        }
        return findings.stream().anyMatch(f -> f.is(FindingId.EXPLAIN_NOT_CHECKED)) ? Outcome.NOT_CHECKED : Outcome.NOT_PRESENT;
    }
}
