package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import dev.cudnntool.verify.VerifyReport;
import dev.cudnntool.verify.VerifyService;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** A real install process is SIGKILLed in the middle of its commit; cudnn rollback restores every byte. */
@DisabledOnOs(value = OS.WINDOWS, disabledReason = "Linux archive layout with symlinks")
class KillDuringCommitTest {
    /** Steps of the commit done when the kill lands; the child pauses 150 ms after each, so many are left. */
    static final int STEPS_BEFORE_KILL = 8;

    @TempDir
    Path dir;

    @Test
    void rollbackRestoresTheTreeAfterAKillDuringCommit() throws Exception {
        Path tk = TestHosts.toolkit(dir.resolve("cuda-12.2"), "12.2.20230823");
        Files.createDirectories(tk.resolve("lib64"));
        Machine m = Machine.of(TestHosts.linux(FileSystems.getDefault(), Map.of("CUDA_PATH", tk.toString()), new FakeRunner()));
        Host host = m.host();
        InstallOutcome first = m.install(ArchiveFixture.linux("8.9.5.30", "12").writeTo(dir));
        assertEquals(ExitCode.OK, first.exit(), first.summary());
        Map<String, String> before = TreeSnapshot.of(tk);
        Path journal = tk.resolve(".cudnn-tool/journal.json");

        Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(dir);
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Dcudnn-tool.fault.commitStepDelayMs=150", "-cp", System.getProperty("java.class.path"),
                "dev.cudnntool.cli.Main", "install", "--archive", archive.toString(), "--cuda-path", tk.toString(), "--no-probe",
                "--sha256", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(Files.readAllBytes(archive))))); // NVIDIA's name, not NVIDIA's bytes: the catalogue would refuse it
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        // The child's own progress log is the signal: it appends "done N" after each commit step.
        Path progress = tk.resolve(".cudnn-tool/journal.log");
        assertTrue(awaitLine(progress, "done " + (STEPS_BEFORE_KILL - 1), child, Duration.ofSeconds(60)),
                "the child did " + STEPS_BEFORE_KILL + " steps of its commit: " + Files.readString(dir.resolve("child.log")));
        assertTrue(Files.exists(journal), "the child reached its commit");
        child.destroyForcibly(); // SIGKILL: no shutdown hooks, no clean-up
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertNotEquals(0, child.exitValue());
        assertTrue(Files.exists(journal), "a killed install leaves its journal");
        assertNotEquals(before, TreeSnapshot.of(tk), "the kill landed after the commit had begun");

        VerifyReport report = new VerifyService(host, null).verify(null, null, null);
        assertTrue(report.findings().stream().anyMatch(f -> f.id().equals("install.unfinished")), report.findings().toString());

        InstallTarget t = InstallTarget.toolkit(ToolkitLocator.read(host, tk, "test"), host.os());
        RollbackOutcome r = m.rollback(t);
        assertEquals(ExitCode.OK, r.exit(), r.summary());
        assertTrue(r.summary().contains("undid the interrupted install"), r.summary());
        assertEquals(before, TreeSnapshot.of(tk), "byte-identical to the tree before the killed install");
    }

    /**
     * Waits until {@code file} holds the whole line {@code line}, the child dies, or the time is up;
     * whether the line came. Polls the file: the child writes it through its own file system.
     */
    static boolean awaitLine(Path file, String line, Process child, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.readAllLines(file).contains(line)) {
                return true;
            }
            if (!child.isAlive()) {
                return false;
            }
            Thread.sleep(10);
        }
        return false;
    }
}
