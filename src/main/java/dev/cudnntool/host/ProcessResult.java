package dev.cudnntool.host;
import java.util.Arrays;

/**
 * What running an external program gave: its exit code and both streams, whether it ran past
 * its timeout, or why it could not be started at all ({@code startFailure} non-null).
 */
public record ProcessResult(int exitCode, String out, String err, boolean timedOut, String startFailure) {
    public static ProcessResult notStarted(String why) {
        return new ProcessResult(-1, "", "", false, why);
    }

    public boolean started() {
        return startFailure == null;
    }

    public boolean ok() {
        return started() && !timedOut && exitCode == 0;
    }

    /** The last non-empty lines of stderr, else stdout: what to quote in a message. */
    public String tail(int lines) {
        String text = err.isBlank() ? out : err;
        String[] all = text.strip().split("\\R");
        int from = Math.max(0, all.length - lines);
        return String.join(" | ", Arrays.copyOfRange(all, from, all.length)).strip();
    }
}
