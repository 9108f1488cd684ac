package dev.cudnntool.host;

import java.time.Duration;
import java.util.List;

/**
 * The one port through which the tool runs other programs (nvidia-smi, nvcc, the probe child).
 * Always an argument list, never a shell command line.
 */
public interface ProcessRunner {
    ProcessResult run(List<String> command, Duration timeout);
}
