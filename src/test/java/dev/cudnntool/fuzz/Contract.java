package dev.cudnntool.fuzz;
import dev.cudnntool.ToolException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The contract every reader of untrusted bytes keeps under the fuzzer: it answers, or it refuses with
 * the tool's own typed failure ({@link ToolException} and its kinds such as DamagedState, or the
 * reader's documented {@link IOException}); never IllegalArgumentException, NullPointerException,
 * IndexOutOfBoundsException, ArithmeticException and the like, and never more time than the input's
 * size allows. Memory is bounded by the JVM (Jazzer reports an OutOfMemoryError as a finding).
 */
final class Contract {
    /** Generous: a hang or quadratic blow-up on a few KiB, not a speed goal (CI machines are slow and shared). */
    static final long BASE_MILLIS = 10_000;
    static final long MILLIS_PER_KIB = 50;

    private Contract() {
    }

    interface Reader {
        Object read() throws Exception;
    }

    /** Readers (one lambda class per call site) already run once in this JVM: the first run loads and instruments classes. */
    private static final Set<Class<?>> WARM = ConcurrentHashMap.newKeySet();

    /**
     * Runs a reader on an input of {@code size} bytes; an untyped failure, or a run past the bound
     * (from the second run of that reader on: the first pays for class loading), fails.
     */
    static Object holds(long size, Reader reader) {
        boolean timed = !WARM.add(reader.getClass());
        long start = System.nanoTime();
        Object result = null;
        try {
            result = reader.read();
        } catch (ToolException | IOException | UncheckedIOException typed) {
            result = typed;
        } catch (Exception e) {
            throw new AssertionError("untyped failure " + e, e);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        long bound = BASE_MILLIS + MILLIS_PER_KIB * (size / 1024 + 1);
        if (timed && millis > bound) {
            throw new AssertionError("took " + millis + " ms on " + size + " bytes (bound " + bound + " ms)");
        }
        return result;
    }
}
