package dev.cudnntool.diagnosis;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Loads a cuDNN library in a child process and says what it answered. Declared here, implemented
 * by {@code dev.cudnntool.probe.ProbeRunner}, so the collector starts the probe without knowing
 * how a child is run.
 */
public interface Prober {
    /** How long the child may take before it is ended and reported as timed out. */
    Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * @param library      the main library by absolute path
     * @param bareName     the name programs load it by (libcudnn.so.9, cudnn64_9.dll), or null
     * @param subLibraries the sub-libraries to load after it
     */
    ProbeResult probe(Path library, String bareName, List<Path> subLibraries);

    /** Loads the answer's parser while the caller would only wait for the child; nothing by default. */
    default void beforeJoin() {
    }
}
