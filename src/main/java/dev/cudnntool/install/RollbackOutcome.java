package dev.cudnntool.install;

import dev.cudnntool.target.Journal;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import java.util.List;

/** How a rollback (or its dry run) ended; {@code steps} are the journal steps it ran or would run. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RollbackOutcome(@JsonIgnore ExitCode exit, String summary, String installId, String version,
                              List<Journal.Op> steps, List<String> keptChangedFiles, List<Finding> findings,
                              @JsonIgnore List<String> createdRoots) {
    public RollbackOutcome(ExitCode exit, String summary, String installId, String version, List<Journal.Op> steps,
                           List<String> keptChangedFiles, List<Finding> findings) {
        this(exit, summary, installId, version, steps, keptChangedFiles, findings, List.of());
    }

    /** The JSON {@code changed}: true when it moved files (or its revert failed, exit 7); false for a dry run. */
    public boolean changed(boolean dryRun) {
        return AlreadyInstalled.changed(this, dryRun);
    }
}
