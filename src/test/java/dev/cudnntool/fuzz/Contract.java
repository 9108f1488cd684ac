package dev.cudnntool.fuzz;

import dev.cudnntool.ToolException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;

/**
 * The contract every reader of untrusted bytes keeps under the fuzzer: it answers, or it refuses with
 * the tool's own typed failure ({@link ToolException} and its kinds such as DamagedState, or the
 * reader's documented {@link IOException}); never IllegalArgumentException, NullPointerException,
 * IndexOutOfBoundsException, ArithmeticException and the like, and never more time than the input's
 * size allows. Memory is bounded by the JVM (Jazzer reports an OutOfMemoryError as a finding).
 *
 * <p>Time spent loading classes is not the reader's: under the fuzzer every class is instrumented as
 * it loads, and the first input that reaches a new part of a reader (the whole inspection, the
 * catalogue, Jackson) paid 15 to 25 s for it on a loaded machine. So a run past the bound during which
 * the JVM loaded classes is run once more, warm, and the second run is judged; a run past the bound
 * that loaded nothing fails at once.
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

    /** The clock and the JVM's count of classes loaded so far (a port, so the rule has its own test). */
    interface Meter {
        long nanoTime();

        long classesLoaded();
    }

    static final Meter JVM = new Meter() {
        private final ClassLoadingMXBean classLoading = ManagementFactory.getClassLoadingMXBean();

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long classesLoaded() {
            return classLoading.getTotalLoadedClassCount();
        }
    };

    static long boundMillis(long size) {
        return BASE_MILLIS + MILLIS_PER_KIB * (size / 1024 + 1);
    }

    /** Runs a reader on an input of {@code size} bytes; an untyped failure, or a run past the bound, fails. */
    static Object holds(long size, Reader reader) {
        return holds(size, reader, JVM);
    }

    static Object holds(long size, Reader reader, Meter meter) {
        long bound = boundMillis(size);
        long classes = meter.classesLoaded();
        long start = meter.nanoTime();
        Object result = run(reader);
        long millis = (meter.nanoTime() - start) / 1_000_000;
        if (millis <= bound) {
            return result;
        }
        if (meter.classesLoaded() == classes) {
            throw slow(millis, size, bound, "");
        }
        // The run loaded (and under the fuzzer instrumented) classes: judge a second, warm run instead.
        long first = millis;
        start = meter.nanoTime();
        result = run(reader);
        millis = (meter.nanoTime() - start) / 1_000_000;
        if (millis > bound) {
            throw slow(millis, size, bound, " on a second run (the first, which loaded classes, took " + first + " ms)");
        }
        return result;
    }

    private static Object run(Reader reader) {
        try {
            return reader.read();
        } catch (ToolException | IOException | UncheckedIOException typed) {
            return typed;
        } catch (Exception e) {
            throw new AssertionError("untyped failure " + e, e);
        }
    }

    private static AssertionError slow(long millis, long size, long bound, String how) {
        return new AssertionError("took " + millis + " ms on " + size + " bytes (bound " + bound + " ms)" + how);
    }
}
