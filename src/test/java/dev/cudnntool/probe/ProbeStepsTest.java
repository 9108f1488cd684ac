package dev.cudnntool.probe;

import dev.cudnntool.diagnosis.ProbeResult;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.ProcessResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The child as a list of steps, each with its own time limit, and how the parent reads a step that ran past it. */
class ProbeStepsTest {
    @Test
    void everyStepHasANameAndALimitOfItsOwnWithinTheParentsLimit() {
        List<ProbeMain.Step> steps = new ProbeMain(null, "/t/libcudnn.so.9", "libcudnn.so.9", List.of()).steps();
        // #33 item 1: only the main library is loaded before cuDNN is called (the sub-libraries come as a program
        // gets them); the sub-libraries given by path are loaded last, for a loader error the calls did not reach.
        assertEquals(List.of("byName", "loadMain", "version", "cudartVersion", "properties",
                "maxDeviceVersion", "versionChecks", "mapped", "handle", "subLibraries"),
                steps.stream().map(ProbeMain.Step::name).toList());
        assertEquals(steps.size(), new HashSet<>(steps.stream().map(ProbeMain.Step::name).toList()).size());
        for (ProbeMain.Step s : steps) {
            assertTrue(s.timeout().compareTo(Duration.ZERO) > 0 && s.timeout().compareTo(ProbeRunner.TIMEOUT) < 0, s.name());
        }
    }

    @Test
    void theStepsRunInOrderUntilOneSaysNothingCanFollow() {
        List<String> ran = new ArrayList<>();
        ProbeMain.run(List.of(
                new ProbeMain.Step("a", Duration.ofSeconds(5), () -> ran.add("a")),
                new ProbeMain.Step("b", Duration.ofSeconds(5), () -> {
                    ran.add("b");
                    return false;
                }),
                new ProbeMain.Step("c", Duration.ofSeconds(5), () -> ran.add("c"))));
        assertEquals(List.of("a", "b"), ran);
    }

    @Test
    void aStepPastItsOwnLimitIsATimeoutNotACrash() {
        String out = "{\"event\":\"mainLoaded\",\"path\":\"/t/libcudnn.so.9\",\"loadedPath\":\"/t/libcudnn.so.9\"}\n"
                + "{\"event\":\"calling\",\"function\":\"cudnnCreate\"}\n"
                + "{\"event\":\"stepTimedOut\",\"step\":\"handle\",\"seconds\":20}\n";
        ProbeResult p = ProbeRunner.parse("/t/libcudnn.so.9",
                new ProcessResult(ProbeMain.EXIT_STEP_TIMED_OUT, out, "", false, null));
        assertTrue(p.timedOut());
        assertFalse(p.crashed());
        assertNull(p.crash());
        assertNull(p.childExit());
        assertEquals("cudnnCreate", p.lastCall());
        assertTrue(p.incomplete());
    }

    @Test
    void aWholeChildPastTheParentsLimitIsStillATimeout() {
        ProbeResult p = ProbeRunner.parse("/t/libcudnn.so.9", new ProcessResult(-1,
                "{\"event\":\"calling\",\"function\":\"cudnnCreate\"}\n", "", true, null));
        assertTrue(p.timedOut());
        assertFalse(p.crashed());
        assertEquals("cudnnCreate", p.lastCall());
    }
}
