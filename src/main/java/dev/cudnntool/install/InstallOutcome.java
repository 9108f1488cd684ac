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

    /** The first error of {@code findings} as "id: message", else {@code fallback}. */
    static String firstError(List<Finding> findings, String fallback) {
        return findings.stream().filter(Finding::isError).map(f -> f.id() + ": " + f.message()).findFirst().orElse(fallback);
    }
}
