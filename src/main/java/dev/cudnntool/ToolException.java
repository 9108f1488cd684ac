package dev.cudnntool;

/**
 * The single failure type that reaches the command line: what happened, the fix, and the exit
 * code. Rendered as one line ("error: message. Fix: fix"); its stack trace only with --verbose.
 */
public class ToolException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ExitCode exitCode;
    private final String fix;

    public ToolException(ExitCode exitCode, String message, String fix) {
        this(exitCode, message, fix, null);
    }

    public ToolException(ExitCode exitCode, String message, String fix, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
        this.fix = fix == null ? "" : fix;
    }

    public ExitCode exitCode() {
        return exitCode;
    }

    public String fix() {
        return fix;
    }
}
