package dev.cudnntool.install;

import dev.cudnntool.install.state.InstallTarget;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import dev.cudnntool.verify.VerifyReport;
import dev.cudnntool.verify.VerifyService;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** A real install process is SIGKILLed in the middle of its commit; cudnn-rollback restores every byte. */
@DisabledOnOs(value = OS.WINDOWS, disabledReason = "Linux archive layout with symlinks")
class KillDuringCommitTest {
    @TempDir
    Path dir;

    @Test
    void rollbackRestoresTheTreeAfterAKillDuringCommit() throws Exception {
        Path tk = TestHosts.toolkit(dir.resolve("cuda-12.2"), "12.2.20230823");
        Files.createDirectories(tk.resolve("lib64"));
        Host host = TestHosts.linux(FileSystems.getDefault(), Map.of("CUDA_PATH", tk.toString()), new FakeRunner());
        InstallOutcome first = InstallServiceTest.service(host, new NioFileOps()).run(new InstallRequest(
                ArchiveFixture.linux("8.9.5.30", "12").writeTo(dir), null, null, null, false, false), ReadProgress.NONE);
        assertEquals(ExitCode.OK, first.exit(), first.summary());
        Map<String, String> before = TreeSnapshot.of(tk);
        Path journal = tk.resolve(".cudnn-tool/journal.json");

        Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(dir);
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Dcudnn-tool.fault.commitStepDelayMs=150", "-cp", System.getProperty("java.class.path"),
                "dev.cudnntool.cli.Main", "install", "--archive", archive.toString(), "--cuda-path", tk.toString(), "--no-probe",
                "--sha256", java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(Files.readAllBytes(archive))))); // NVIDIA's name, not NVIDIA's bytes: the catalogue would refuse it
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(journal) && child.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(Files.exists(journal), "the child reached its commit: " + Files.readString(dir.resolve("child.log")));
        Thread.sleep(1200); // several steps of the commit are done, many are not
        child.destroyForcibly(); // SIGKILL: no shutdown hooks, no clean-up
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertNotEquals(0, child.exitValue());
        assertTrue(Files.exists(journal), "a killed install leaves its journal");
        assertNotEquals(before, TreeSnapshot.of(tk), "the kill landed after the commit had begun");

        VerifyReport report = new VerifyService(host, null).verify(null, null, null);
        assertTrue(report.findings().stream().anyMatch(f -> f.id().equals("install.unfinished")), report.findings().toString());

        InstallTarget t = InstallTarget.toolkit(ToolkitLocator.read(host, tk, "test"), host.os());
        RollbackOutcome r = new RollbackService(host, new NioFileOps()).rollback(t, null, false, false);
        assertEquals(ExitCode.OK, r.exit(), r.summary());
        assertTrue(r.summary().contains("undid the interrupted install"), r.summary());
        assertEquals(before, TreeSnapshot.of(tk), "byte-identical to the tree before the killed install");
    }
}
