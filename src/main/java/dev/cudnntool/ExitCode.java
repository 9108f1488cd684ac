package dev.cudnntool;

/**
 * The one exit-code table of the tool. Scripts depend on these numbers; they never change
 * meaning. The help's exit-code list is generated from {@link #summary()}, and the README's
 * "Exit codes" table begins each meaning with it ({@code ExitCodeTest} checks both ways).
 */
public enum ExitCode {
    OK(0, "ok"),
    CHECKS_FAILED(1, "checks found errors"),
    USAGE(2, "usage"),
    ARCHIVE_REJECTED(3, "archive rejected"),
    HOST_NOT_READY(4, "host not ready"),
    TARGET_NOT_WRITABLE(5, "target not writable or locked"),
    INSTALL_ROLLED_BACK(6, "install (or rollback) failed and was undone"),
    ROLLBACK_FAILED(7, "install failed and the automatic undo failed too"),
    NOTHING_TO_ROLL_BACK(8, "nothing to roll back, rollback refused, or the tool's state is damaged"),
    /** What would answer could not be observed (verify's "unknown" verdict; explain: the check could not run here). */
    NOT_CHECKED(9, "could not check"),
    /** A bug or an I/O failure nobody anticipated; still one line, trace with --verbose. */
    INTERNAL(70, "internal error (a bug)");

    private final int code;
    private final String summary;

    ExitCode(int code, String summary) {
        this.code = code;
        this.summary = summary;
    }

    public int code() {
        return code;
    }

    /** What the code means, in a few words: the start of the README's explanation. */
    public String summary() {
        return summary;
    }
}
