package dev.cudnntool.target;

/**
 * A port through which tests widen race windows: called after each step a journal carries out
 * forward. Production passes {@link #NONE}; the wiring passes {@link #pause} only when the system
 * property {@value #COMMIT_STEP_DELAY_PROPERTY} asks for one (the kill-mid-commit test's window).
 */
@FunctionalInterface
public interface FaultHook {
    /** Milliseconds to pause after each commit step; read once, where the services are built. */
    String COMMIT_STEP_DELAY_PROPERTY = "cudnn-tool.fault.commitStepDelayMs";

    FaultHook NONE = () -> { };

    void afterCommitStep();

    /** A pause of {@code ms} after each step; {@link #NONE} for zero or less. */
    static FaultHook pause(long ms) {
        if (ms <= 0) {
            return NONE;
        }
        return () -> {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }
}
