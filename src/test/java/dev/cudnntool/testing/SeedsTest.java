package dev.cudnntool.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

class SeedsTest {
    @Test
    void withoutPropertiesEachTestKeepsItsOwnSeedAndCount() {
        // surefire sets none of the three properties (a run that sets them is not this test's subject)
        if (System.getProperty(Seeds.SEED) == null && System.getProperty(Seeds.TRIES) == null && !Seeds.longRun()) {
            assertEquals(20261130L, Seeds.seed(20261130L));
            assertEquals(18L, Seeds.seed(18L));
            assertEquals(60, Seeds.tries(60, 2000));
        }
    }

    @Test
    void eachTryOfASeedDrawsFromItsOwnSeed() {
        assertEquals(7L * 1_000_003L + 3, Seeds.caseSeed(7L, 3));
        assertNotEquals(Seeds.caseSeed(7L, 3), Seeds.caseSeed(7L, 4));
        assertNotEquals(Seeds.caseSeed(7L, 0), Seeds.caseSeed(8L, 0));
    }

    @Test
    void aPassingCaseRunsOnceAndPrintsNothing() throws Throwable {
        AtomicInteger runs = new AtomicInteger();
        String err = stderrOf(() -> Seeds.replayable("SomeTest", 5L, 2, runs::incrementAndGet).execute());
        assertEquals(1, runs.get());
        assertEquals("", err);
    }

    @Test
    void aFailingCaseNamesTheSeedThatReplaysItAndRethrowsItsOwnFailure() throws Throwable {
        AssertionFailedError failure = new AssertionFailedError("expected 1 but was 2");
        String err = stderrOf(() -> {
            Throwable thrown = assertThrows(AssertionFailedError.class,
                    () -> Seeds.replayable("SomeTest", 42L, 9, () -> {
                        throw failure;
                    }).execute());
            assertSame(failure, thrown);
        });
        assertTrue(err.contains("SomeTest: try 9 of seed 42 failed; replay it with -Dcudnn.seed=42 -Dcudnn.tries=10 -Dtest=SomeTest"), err);
    }

    private interface Body {
        void run() throws Throwable;
    }

    private static String stderrOf(Body body) throws Throwable {
        PrintStream old = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            System.setErr(old);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
