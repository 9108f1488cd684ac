package dev.cudnntool.diagnosis;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What the probe learned. Every field may be null: the child reports as far as it got before
 * an error, an abort or a timeout ({@code childExit}, {@code crashed}, {@code stderrTail}).
 *
 * @param version       cudnnGetVersion's raw number (8907, 90501)
 * @param versionString the same decoded ("8.9.7")
 * @param handleStatus  cudnnCreate's status (0 success; 1 or 1001 not initialized without a GPU)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProbeResult(String library, String loadedPath, String loadedByNamePath, String byNameError,
                          Long version, String versionString, Long cudartVersion, String cudartVersionString,
                          List<Integer> properties, Long maxDeviceVersion, Integer handleStatus, String handleStatusName,
                          List<SubLibrary> subLibraries, String loadError, Integer childExit, boolean crashed,
                          boolean timedOut, String lastCall, String stderrTail, Crash crash) {

    /**
     * How the child died, read from the JVM's fatal-error report: the signal ("SIGBUS"), the
     * problematic frame ("C  [ld-linux-x86-64.so.2+0x1d6c4]"), the file the loader was mapping
     * when it died (from the probe's "loading" line), and where the JVM wrote its hs_err log.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Crash(String signal, String frame, String loading, String errorLog) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SubLibrary(String path, boolean loaded, String error, Integer errorCode) {
    }

    /** The child ended before it said "done": an abort, a crash or a timeout. */
    @JsonIgnore
    public boolean incomplete() {
        return crashed || timedOut;
    }
}
