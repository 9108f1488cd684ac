package dev.cudnntool.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fuzz contract's time rule: class loading is not the reader's time, anything else past the bound is. */
class ContractTest {
    /** A clock and class count that the fake reader moves: each run takes the next of {@code millis}, loading the next of {@code loads}. */
    static final class FakeRuns implements Contract.Meter, Contract.Reader {
        final long[] millis;
        final long[] loads;
        long now;
        long classes;
        int runs;

        FakeRuns(long[] millis, long[] loads) {
            this.millis = millis;
            this.loads = loads;
        }

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public long classesLoaded() {
            return classes;
        }

        @Override
        public Object read() {
            now += millis[runs] * 1_000_000;
            classes += loads[runs];
            runs++;
            return "answer " + runs;
        }
    }

    static final long BOUND_1K = Contract.boundMillis(1000);

    @Test
    void aRunWithinTheBoundIsRunOnce() {
        FakeRuns r = new FakeRuns(new long[] {BOUND_1K}, new long[] {0});
        assertEquals("answer 1", Contract.holds(1000, r, r));
        assertEquals(1, r.runs);
    }

    @Test
    void aSlowRunThatLoadedNoClassFails() {
        FakeRuns r = new FakeRuns(new long[] {BOUND_1K + 1, 0}, new long[] {0, 0});
        AssertionError e = assertThrows(AssertionError.class, () -> Contract.holds(1000, r, r));
        assertTrue(e.getMessage().startsWith("took " + (BOUND_1K + 1) + " ms on 1000 bytes"), e.getMessage());
        assertEquals(1, r.runs);
    }

    @Test
    void aSlowRunThatLoadedClassesIsJudgedByAWarmSecondRun() {
        FakeRuns r = new FakeRuns(new long[] {22_303, 40}, new long[] {180, 0});
        assertEquals("answer 2", Contract.holds(1144, r, r));
        assertEquals(2, r.runs);
    }

    @Test
    void aSecondRunPastTheBoundFailsEvenAfterClassLoading() {
        FakeRuns r = new FakeRuns(new long[] {30_000, 25_000}, new long[] {50, 0});
        AssertionError e = assertThrows(AssertionError.class, () -> Contract.holds(1000, r, r));
        assertTrue(e.getMessage().contains("on a second run (the first, which loaded classes, took 30000 ms)"), e.getMessage());
        assertEquals(2, r.runs);
    }

    @Test
    void theBoundGrowsWithTheInput() {
        assertEquals(Contract.BASE_MILLIS + Contract.MILLIS_PER_KIB, Contract.boundMillis(0));
        assertEquals(Contract.BASE_MILLIS + 11 * Contract.MILLIS_PER_KIB, Contract.boundMillis(10 * 1024));
    }

    @Test
    void typedRefusalsAreAnswersAndUntypedFailuresAreNot() {
        IOException refusal = new IOException("damaged");
        assertEquals(refusal, Contract.holds(10, () -> {
            throw refusal;
        }));
        List<String> seen = new ArrayList<>();
        AssertionError e = assertThrows(AssertionError.class, () -> Contract.holds(10, () -> {
            seen.add("ran");
            throw new IllegalArgumentException("bad index");
        }));
        assertTrue(e.getMessage().startsWith("untyped failure java.lang.IllegalArgumentException"), e.getMessage());
        assertEquals(List.of("ran"), seen);
    }
}
