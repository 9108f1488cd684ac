package dev.cudnntool.testing;

import java.util.Random;
import org.junit.jupiter.api.function.Executable;

/**
 * The one way a seeded property test picks its seed and its number of tries, and says how to replay a
 * failure. Three system properties for all of them:
 * <ul>
 *   <li>{@code -Dcudnn.seed=N}: the seed (default: the test's own fixed seed, so CI is reproducible);</li>
 *   <li>{@code -Dcudnn.tries=N}: how many cases (default: the test's own count);</li>
 *   <li>{@code -Dcudnn.longProperties=true}: a long run, with a random seed and the test's long count.</li>
 * </ul>
 * Try {@code i} of seed {@code S} draws from {@code new Random(Seeds.caseSeed(S, i))}; a failing case
 * prints the {@code -Dcudnn.seed} that replays it.
 */
public final class Seeds {
    public static final String SEED = "cudnn.seed";
    public static final String TRIES = "cudnn.tries";
    public static final String LONG_RUN = "cudnn.longProperties";

    private Seeds() {
    }

    /** Whether {@code -Dcudnn.longProperties=true} asks for a long run. */
    public static boolean longRun() {
        return Boolean.getBoolean(LONG_RUN);
    }

    /** {@code -Dcudnn.seed}, else a random seed in a long run, else {@code fixed}. */
    public static long seed(long fixed) {
        return Long.getLong(SEED, longRun() ? new Random().nextLong() : fixed);
    }

    /** {@code -Dcudnn.tries}, else {@code longCount} in a long run, else {@code count}. */
    public static int tries(int count, int longCount) {
        return Integer.getInteger(TRIES, longRun() ? longCount : count);
    }

    /** The seed of try {@code i} of a run seeded with {@code seed}. */
    public static long caseSeed(long seed, int i) {
        return seed * 1_000_003L + i;
    }

    /**
     * {@code body} unchanged, except that a failure first prints (to standard error) the seed and try
     * that replay it; the failure itself is rethrown as it was.
     */
    public static Executable replayable(String test, long seed, int i, Executable body) {
        return () -> {
            try {
                body.execute();
            } catch (Throwable t) {
                System.err.println(test + ": try " + i + " of seed " + seed + " failed; replay it with -D" + SEED + "="
                        + seed + " -D" + TRIES + "=" + (i + 1) + " -Dtest=" + test);
                throw t;
            }
        };
    }
}
