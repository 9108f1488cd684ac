package dev.cudnntool.diagnosis;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * What the probe learned, in the parts the child goes through: the {@link Load} (by name, the
 * sub-libraries, the main library), the {@link Versions} it answered, the {@link Handle} it made, and
 * how the child {@link Ending ended}. A step that was not reached leaves its part empty (its fields null):
 * the child reports as far as it got before an error, an abort or a timeout. A step that runs a real
 * computation becomes one more part, beside the handle.
 *
 * <p>The JSON (verify's {@code probe} object) is flat, the names and order it always had; the
 * accessors below it read the parts.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"library", "loadedPath", "loadedByNamePath", "byNameError", "version", "versionString",
        "cudartVersion", "cudartVersionString", "properties", "maxDeviceVersion", "handleStatus", "handleStatusName",
        "subLibraries", "loadError", "childExit", "crashed", "timedOut", "lastCall", "stderrTail", "crash",
        "versionChecks", "mapped"})
public record ProbeResult(@JsonIgnore Load load, @JsonIgnore Versions versions, @JsonIgnore Handle handle,
                          @JsonIgnore Ending ending, @JsonIgnore Program program) {

    public ProbeResult {
        load = load == null ? Load.NONE : load;
        versions = versions == null ? Versions.NONE : versions;
        handle = handle == null ? Handle.NONE : handle;
        ending = ending == null ? Ending.NONE : ending;
        program = program == null ? Program.NONE : program;
    }

    /** A result with nothing of the program-like load (no version checks, nothing mapped listed). */
    public ProbeResult(Load load, Versions versions, Handle handle, Ending ending) {
        this(load, versions, handle, ending, null);
    }

    /**
     * What the library did when called as a program calls it: cuDNN's own per-sub-library version checks
     * ({@code versionChecks}), and the cuDNN files the loader then had mapped ({@code mapped}; empty where the
     * operating system's list could not be read, e.g. on Windows).
     */
    public record Program(List<VersionCheck> versionChecks, List<Mapped> mapped) {
        static final Program NONE = new Program(List.of(), List.of());

        public Program {
            versionChecks = versionChecks == null ? List.of() : List.copyOf(versionChecks);
            mapped = mapped == null ? List.of() : List.copyOf(mapped);
        }
    }

    /** One version check: the function, its status (0 agrees, 1002 sub-library version mismatch) and its name. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record VersionCheck(String function, int status, String statusName) {
    }

    /** A cuDNN file the loader mapped, with its own version read from the file (null when it exports none). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Mapped(String path, String version) {
    }

    /** Absent from the JSON when empty (an older child, Windows, a load that stopped before). */
    @JsonProperty
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public List<VersionCheck> versionChecks() {
        return program.versionChecks();
    }

    /** Absent from the JSON when empty (an older child, Windows, a load that stopped before). */
    @JsonProperty
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public List<Mapped> mapped() {
        return program.mapped();
    }

    /**
     * The loads: {@code library} as asked, the file the loader mapped for it ({@code loadedPath}), the file a
     * load by bare name got ({@code loadedByNamePath}, else {@code byNameError}), each sub-library, and why the
     * main library did not load ({@code loadError}).
     */
    public record Load(String library, String loadedPath, String loadedByNamePath, String byNameError,
                       List<SubLibrary> subLibraries, String loadError) {
        static final Load NONE = new Load(null, null, null, null, List.of(), null);

        public Load {
            subLibraries = subLibraries == null ? List.of() : List.copyOf(subLibraries);
        }
    }

    /**
     * What the library says of itself: cudnnGetVersion's raw number ({@code version}: 8907, 90501) and the same
     * decoded ("8.9.7"), the CUDA runtime it was built with, cudnnGetProperty's major, minor, patch, and the
     * newest GPU architecture it knows.
     */
    public record Versions(Long version, String versionString, Long cudartVersion, String cudartVersionString,
                           List<Integer> properties, Long maxDeviceVersion) {
        static final Versions NONE = new Versions(null, null, null, null, null, null);
    }

    /** cudnnCreate's status (0 success; 1 or 1001 not initialized without a GPU) and its name. */
    public record Handle(Integer status, String statusName) {
        static final Handle NONE = new Handle(null, null);
    }

    /**
     * How the child ended: its exit status (null when it did not start or timed out), whether it crashed or
     * timed out, the cuDNN call it was in when it did not get to its end, its last words, and the crash report.
     */
    public record Ending(Integer childExit, boolean crashed, boolean timedOut, String lastCall, String stderrTail,
                         Crash crash) {
        static final Ending NONE = new Ending(null, false, false, null, null, null);
    }

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
        return crashed() || timedOut();
    }

    @JsonProperty
    public String library() {
        return load.library();
    }

    @JsonProperty
    public String loadedPath() {
        return load.loadedPath();
    }

    @JsonProperty
    public String loadedByNamePath() {
        return load.loadedByNamePath();
    }

    @JsonProperty
    public String byNameError() {
        return load.byNameError();
    }

    @JsonProperty
    public Long version() {
        return versions.version();
    }

    @JsonProperty
    public String versionString() {
        return versions.versionString();
    }

    @JsonProperty
    public Long cudartVersion() {
        return versions.cudartVersion();
    }

    @JsonProperty
    public String cudartVersionString() {
        return versions.cudartVersionString();
    }

    @JsonProperty
    public List<Integer> properties() {
        return versions.properties();
    }

    @JsonProperty
    public Long maxDeviceVersion() {
        return versions.maxDeviceVersion();
    }

    @JsonProperty
    public Integer handleStatus() {
        return handle.status();
    }

    @JsonProperty
    public String handleStatusName() {
        return handle.statusName();
    }

    @JsonProperty
    public List<SubLibrary> subLibraries() {
        return load.subLibraries();
    }

    @JsonProperty
    public String loadError() {
        return load.loadError();
    }

    @JsonProperty
    public Integer childExit() {
        return ending.childExit();
    }

    @JsonProperty
    public boolean crashed() {
        return ending.crashed();
    }

    @JsonProperty
    public boolean timedOut() {
        return ending.timedOut();
    }

    @JsonProperty
    public String lastCall() {
        return ending.lastCall();
    }

    @JsonProperty
    public String stderrTail() {
        return ending.stderrTail();
    }

    @JsonProperty
    public Crash crash() {
        return ending.crash();
    }
}
