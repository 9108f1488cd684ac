package dev.cudnntool.install;

import dev.cudnntool.target.InstallRecord;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.archive.ArchiveReport;
import java.util.List;

/**
 * How an install (or its dry run) ended. {@code exit} is where it stopped; {@code summary} is
 * the one line a person reads first.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InstallOutcome(@JsonIgnore ExitCode exit, String summary, ArchiveReport archive, Preflight preflight,
                             InstallPlan plan, InstallRecord record, List<Finding> findings) {
    public InstallOutcome {
        findings = List.copyOf(findings);
    }

    /** The same outcome with {@code more} findings in place of these. */
    public InstallOutcome withFindings(List<Finding> more) {
        return new InstallOutcome(exit, summary, archive, preflight, plan, record, more);
    }

    /**
     * The JSON {@code changed}: whether the target is now different from before. A real run changed it when it
     * committed (a record) or when its undo failed (exit 7); a dry run says what the real run would do: change
     * something unless it stops or finds nothing to do.
     */
    public boolean changed(boolean dryRun) {
        return AlreadyInstalled.changed(this, dryRun);
    }

    /** The first error of {@code findings} as "id: message", else {@code fallback}. */
    static String firstError(List<Finding> findings, String fallback) {
        return findings.stream().filter(Finding::isError).map(f -> f.id() + ": " + f.message()).findFirst().orElse(fallback);
    }
}
