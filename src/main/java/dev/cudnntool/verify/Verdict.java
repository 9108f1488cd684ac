package dev.cudnntool.verify;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import java.util.List;
import java.util.Locale;

/**
 * How {@code verify} ends: ok (exit 0), problems (exit 1: any error finding, whatever else happened), or
 * unknown (exit 9: no error, but a finding whose id is declared "not checked" in {@link FindingId} says the
 * tool could not look at something). JSON writes it as {@code "verdict": "ok" | "problems" | "unknown"}.
 */
public enum Verdict {
    OK(ExitCode.OK),
    PROBLEMS(ExitCode.CHECKS_FAILED),
    UNKNOWN(ExitCode.NOT_CHECKED);

    private final ExitCode exitCode;

    Verdict(ExitCode exitCode) {
        this.exitCode = exitCode;
    }

    public ExitCode exitCode() {
        return exitCode;
    }

    /** The word JSON writes. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The rule: any error is problems; else any not-checked finding is unknown; else ok. */
    public static Verdict of(List<Finding> findings) {
        if (Finding.anyError(findings)) {
            return PROBLEMS;
        }
        return findings.stream().anyMatch(f -> FindingId.notChecked(f.id())) ? UNKNOWN : OK;
    }

    /** The findings that made the verdict unknown (none unless it is). */
    public static List<Finding> notChecked(List<Finding> findings) {
        return findings.stream().filter(f -> !f.isError() && FindingId.notChecked(f.id())).toList();
    }
}
