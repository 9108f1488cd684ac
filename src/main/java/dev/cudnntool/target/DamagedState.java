package dev.cudnntool.target;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import java.nio.file.Path;

/**
 * The tool's own state in a target (an install record, the journal, its progress log) cannot be
 * trusted: unreadable, incomplete, or naming a path outside the target. Always exit 8, one line
 * naming the file, and a way out that works: {@code cudnn rollback --repair} sets it aside.
 */
public final class DamagedState extends ToolException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;

    public DamagedState(Path file, String why, String repairCommand) {
        super(ExitCode.NOTHING_TO_ROLL_BACK, file + " " + why + "; nothing was changed",
                "run " + repairCommand + " to set the damaged record aside (it is renamed, never deleted), then try again");
        this.file = file;
    }

    /** The state file (or history folder) that is damaged. */
    public Path file() {
        return file;
    }
}
