package dev.cudnntool.probe;

import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The probe's protocol: the events the child ({@link ProbeMain}) prints, one JSON object a line
 * ({@code {"event":"<wire>", ...}}), and the parent ({@link ProbeRunner}) reads. Both sides spell
 * them only here; {@link #wire()} is the text on the line, a contract between the two (and pinned by
 * the golden output of a real run under {@code src/test/resources/probe}).
 */
public enum ProbeEvent {
    /** About to map a file (path): a crash before the next line names this file. */
    LOADING("loading"),
    /** The load by bare name (name; loadedPath, or error). */
    BY_NAME("byName"),
    /** One sub-library (path, loaded; error, errorCode when not). */
    SUB_LIBRARY("subLibrary"),
    /** The main library would not load (path, error, errorCode). */
    MAIN_LOAD_FAILED("mainLoadFailed"),
    /** The main library loaded but is not cuDNN (error). */
    NOT_CUDNN("notCudnn"),
    /** The main library loaded (path, loadedPath: the file the loader mapped). */
    MAIN_LOADED("mainLoaded"),
    /** About to call a cuDNN function (function): a crash before the next line happened in it. */
    CALLING("calling"),
    /** cudnnGetVersion (value). */
    VERSION("version"),
    /** cudnnGetCudartVersion (value). */
    CUDART_VERSION("cudartVersion"),
    /** cudnnGetProperty (major, minor, patch; -1 where it failed). */
    PROPERTIES("properties"),
    /** cudnnGetMaxDeviceVersion (value). */
    MAX_DEVICE_VERSION("maxDeviceVersion"),
    /** cudnnCreate (status, statusName; destroyStatus after a handle was made). */
    HANDLE("handle"),
    /**
     * One of cuDNN's own per-sub-library version checks, called through the main library (function, status,
     * statusName): 0 when the sub-library the loader found is of the main library's release, 1002
     * (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH) when not. Measured here without a GPU: a matching 9.5.1, 9.24 or
     * 8.9.7 answers 0 to every check; 9.24's ops library under 9.5.1's name answers 1002 to ops, cnn and adv.
     */
    VERSION_CHECK("versionCheck"),
    /**
     * A cuDNN file the loader mapped into the child, as the operating system lists it (path; version: the
     * file's own version read from its exported version symbol, when it has one).
     */
    MAPPED("mapped"),
    /** A step ran past its own time limit (step, seconds); the child ends after it. */
    STEP_TIMED_OUT("stepTimedOut"),
    /** The child got to its end. */
    DONE("done");

    private static final Map<String, ProbeEvent> BY_WIRE = Stream.of(values())
            .collect(Collectors.toUnmodifiableMap(ProbeEvent::wire, Function.identity()));

    private final String wire;

    ProbeEvent(String wire) {
        this.wire = wire;
    }

    /** The event's name on the line. */
    public String wire() {
        return wire;
    }

    /** The event a line names, or null for a name the protocol does not have. */
    public static ProbeEvent fromWire(String wire) {
        return wire == null ? null : BY_WIRE.get(wire);
    }
}
