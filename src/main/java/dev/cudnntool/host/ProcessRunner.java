package dev.cudnntool.host;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The one port through which the tool runs other programs (nvidia-smi, nvcc, the probe child).
 * Always an argument list, never a shell command line.
 */
public interface ProcessRunner {
    ProcessResult run(List<String> command, Duration timeout);

    /**
     * Starts a program now and lets the caller finish it later by writing its standard input:
     * used to warm the probe's JVM up while the tool is still parsing its own arguments.
     */
    default Started start(List<String> command) {
        return new Started() {
            @Override
            public ProcessResult finish(String stdin, Duration timeout) {
                List<String> withInput = new ArrayList<>(command);
                withInput.add("<" + stdin.strip());
                return run(withInput, timeout);
            }

            @Override
            public void cancel() {
                // nothing was started
            }
        };
    }

    /** A program started early, waiting for its standard input. */
    interface Started {
        /** Writes {@code stdin}, closes it, and waits (with the timeout counted from now). */
        ProcessResult finish(String stdin, Duration timeout);

        /** Ends it unused. */
        void cancel();
    }
}
