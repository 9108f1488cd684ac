package dev.cudnntool;

/**
 * The one exit-code table of the tool. Scripts depend on these numbers; they are documented in
 * the README and never change meaning.
 */
public enum ExitCode {
    OK(0),
    CHECKS_FAILED(1),
    USAGE(2),
    ARCHIVE_REJECTED(3),
    HOST_NOT_READY(4),
    TARGET_NOT_WRITABLE(5),
    INSTALL_ROLLED_BACK(6),
    ROLLBACK_FAILED(7),
    NOTHING_TO_ROLL_BACK(8),
    /** A bug or an I/O failure nobody anticipated; still one line, trace with --verbose. */
    INTERNAL(70);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
