package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.diagnosis.Diagnosis;
import dev.cudnntool.diagnosis.DiagnosisCollector;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.host.ProcessRunner;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How {@link DiagnosisCollector} schedules its two child processes (#29 item 1: "keeping today's overlap of the probe
 * child with nvidia-smi"): per verify, nvidia-smi's header and its GPU query each run once and the probe runs once
 * (no second gathering, by verify's checks or anyone), and the two overlap: each side, when it starts, waits (boundedly)
 * until the other has started too, so a collector that ran them one after the other would be seen.
 */
class DiagnosisCollectorSchedulingTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final LinuxDiagnosisTest machine = new LinuxDiagnosisTest();

    /** Counts each kind of call and checks that the probe and nvidia-smi's header call run at the same time. */
    static final class CountingRunner implements ProcessRunner {
        final FakeRunner answers;
        final AtomicInteger probes = new AtomicInteger();
        final AtomicInteger smiHeaders = new AtomicInteger();
        final AtomicInteger smiQueries = new AtomicInteger();
        final AtomicInteger others = new AtomicInteger();
        final CountDownLatch probeStarted = new CountDownLatch(1);
        final CountDownLatch smiStarted = new CountDownLatch(1);
        final AtomicBoolean smiSawProbe = new AtomicBoolean();
        final AtomicBoolean probeSawSmi = new AtomicBoolean();
        final AtomicBoolean smiReturnedBeforeProbeStarted = new AtomicBoolean();
        private final AtomicBoolean smiReturned = new AtomicBoolean();

        private final boolean probeExpected;

        /** @param probeExpected false when no probe will start (--no-probe): nvidia-smi then waits for nothing */
        CountingRunner(FakeRunner answers, boolean probeExpected) {
            this.answers = answers;
            this.probeExpected = probeExpected;
        }

        @Override
        public ProcessResult run(List<String> command, Duration timeout) {
            String line = String.join(" ", command);
            try {
                if (line.contains("ProbeMain")) {
                    probes.incrementAndGet();
                    smiReturnedBeforeProbeStarted.compareAndSet(false, smiReturned.get());
                    probeStarted.countDown();
                    probeSawSmi.set(smiStarted.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
                } else if (command.size() == 1 && command.get(0).endsWith("nvidia-smi")) {
                    smiHeaders.incrementAndGet();
                    smiStarted.countDown();
                    smiSawProbe.set(probeExpected && probeStarted.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
                    ProcessResult r = answers.run(command, timeout);
                    smiReturned.set(true);
                    return r;
                } else if (line.contains("nvidia-smi")) {
                    smiQueries.incrementAndGet();
                } else {
                    others.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return answers.run(command, timeout);
        }
    }

    private CountingRunner machineWithADriver() throws Exception {
        machine.install(9, "9.5.1");
        Files.createDirectories(machine.fs.getPath("/usr/bin"));
        Files.writeString(machine.fs.getPath("/usr/bin/nvidia-smi"), "");
        machine.runner.on("nvidia-smi", NvidiaSmiOutputs.R580).on("--format=csv,noheader", "NVIDIA A100, 580.65.06, 8.0\n");
        String last = CudnnComponents.subLibraries(9).get(CudnnComponents.subLibraries(9).size() - 1);
        machine.runner.on("--sub " + LinuxDiagnosisTest.LIB + "/" + CudnnComponents.linuxSoname(last, 9),
                FakeRunner.ok(LinuxDiagnosisTest.loaded(LinuxDiagnosisTest.LIB + "/libcudnn.so.9", 90501, 12060)));
        return new CountingRunner(machine.runner, true);
    }

    private Host host(CountingRunner runner) {
        return TestHosts.linux(machine.fs, Map.of("PATH", "/usr/bin", "CUDA_PATH", LinuxDiagnosisTest.TK,
                "LD_LIBRARY_PATH", LinuxDiagnosisTest.LIB), runner);
    }

    @Test
    void oneVerifyRunsNvidiaSmiOnceAndTheProbeOnceAndOverlapsThem() throws Exception {
        CountingRunner runner = machineWithADriver();
        VerifyReport r = new VerifyService(host(runner), new ProbeRunner(runner, List.of("java"))).verify(null, null, null);
        assertEquals(1, runner.probes.get(), "the probe runs once per verify");
        assertEquals(1, runner.smiHeaders.get(), "nvidia-smi's header is asked once per verify");
        assertEquals(1, runner.smiQueries.get(), "nvidia-smi's GPU query is asked once per verify");
        assertTrue(runner.smiSawProbe.get(), "the probe had started while nvidia-smi ran");
        assertTrue(runner.probeSawSmi.get(), "nvidia-smi had started while the probe ran");
        assertTrue(!runner.smiReturnedBeforeProbeStarted.get(), "the probe starts before nvidia-smi returns");
        assertEquals("580.65.06", r.driver().driverVersion(), "the facts gathered are the ones judged");
        assertEquals("9.5.1", r.probe().versionString());
    }

    @Test
    void theCollectorAloneDoesTheSame() throws Exception {
        CountingRunner runner = machineWithADriver();
        Host host = host(runner);
        Diagnosis d = new DiagnosisCollector(host, new ProbeRunner(runner, List.of("java")))
                .collect(new Diagnosis.Question(null, null, null, false), (c, toolkit) -> true);
        assertEquals(1, runner.probes.get());
        assertEquals(1, runner.smiHeaders.get());
        assertTrue(runner.smiSawProbe.get() && runner.probeSawSmi.get(), "the two children overlap");
        assertEquals(90501L, d.probe().version());
        // --no-probe: nvidia-smi still once, no probe, and nothing waits for one
        CountingRunner again = new CountingRunner(machine.runner, false);
        new DiagnosisCollector(host(again), null).collect(new Diagnosis.Question(null, null, null, false), (c, toolkit) -> true);
        assertEquals(0, again.probes.get());
        assertEquals(1, again.smiHeaders.get());
    }
}
