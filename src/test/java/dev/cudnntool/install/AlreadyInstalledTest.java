package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.NioFileOps;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A second identical install changes nothing and writes nothing; a partial one is repaired. */
class AlreadyInstalledTest {
    @TempDir
    Path downloads;

    static InstallService service(Host host, PostInstallCheck check) {
        return Machine.of(host).installer(new NioFileOps(), check);
    }

    static InstallOutcome run(Host host, Path archive, boolean dryRun, PostInstallCheck check) {
        return service(host, check).run(new InstallRequest(archive, null, null, null, false, dryRun), ReadProgress.NONE);
    }

    void secondInstallChangesNothing(Host host, Path tk, String root, Path archive) throws Exception {
        InstallOutcome dryFresh = run(host, archive, true, PostInstallCheck.NONE);
        assertTrue(AlreadyInstalled.changed(dryFresh, true), "a dry run on a fresh toolkit says it would change it");
        InstallOutcome first = run(host, archive, false, PostInstallCheck.NONE);
        assertEquals(ExitCode.OK, first.exit(), first.summary() + first.findings());
        assertTrue(AlreadyInstalled.changed(first, false));
        Map<String, String> after = TreeSnapshot.of(tk); // with .cudnn-tool: history records included

        AtomicInteger checks = new AtomicInteger();
        InstallOutcome second = run(host, archive, false, (t, r) -> {
            checks.incrementAndGet();
            return List.of(Finding.info(FindingId.INSTALL_PROBE_OK, "fine"));
        });
        assertEquals(ExitCode.OK, second.exit(), second.summary() + second.findings());
        assertEquals("cuDNN 9.5.1 is already installed in " + root + " (nothing to do)", second.summary());
        assertFalse(AlreadyInstalled.changed(second, false));
        assertNull(second.record());
        assertEquals(1, checks.get(), "what is in place is still verified");
        assertEquals(after, TreeSnapshot.of(tk), "not a byte written, no history record");

        InstallOutcome dry = run(host, archive, true, PostInstallCheck.NONE);
        assertFalse(AlreadyInstalled.changed(dry, true));
        assertTrue(dry.summary().startsWith("dry run: cuDNN 9.5.1 is already installed"), dry.summary());
        assertEquals(after, TreeSnapshot.of(tk));

        // A failing verification of what is in place: exit 6 as a fresh install would, and still nothing written.
        InstallOutcome broken = run(host, archive, false, (t, r) -> List.of(Finding.error(FindingId.CUDNN_LOAD_FAILED, "no", "fix")));
        assertEquals(ExitCode.INSTALL_ROLLED_BACK, broken.exit());
        assertFalse(AlreadyInstalled.changed(broken, false));
        assertEquals(after, TreeSnapshot.of(tk));
    }

    @Test
    void linuxSecondInstallIsANoOp() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Host host = m.host();
            Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads);
            secondInstallChangesNothing(host, m.toolkit(), "/usr/local/cuda", archive);
        }
    }

    @Test
    void windowsSecondInstallIsANoOp() throws Exception {
        try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
            Host host = m.host();
            Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(downloads);
            secondInstallChangesNothing(host, m.toolkit(), m.toolkit().toString(), archive);
        }
    }

    @Test
    void aPartialInstallIsRepairedAndSaysChanged() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Host host = m.host();
            Path tk = m.toolkit();
            Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads);
            assertEquals(ExitCode.OK, run(host, archive, false, PostInstallCheck.NONE).exit());
            Map<String, String> good = TreeSnapshot.withoutState(tk);
            Files.delete(tk.resolve("include/cudnn_version.h"));
            Files.writeString(tk.resolve("include/cudnn.h"), "changed by hand");

            InstallOutcome dry = run(host, archive, true, PostInstallCheck.NONE);
            assertTrue(AlreadyInstalled.changed(dry, true));
            assertEquals(1, dry.plan().count(PlanStep.Action.ADD));
            assertEquals(1, dry.plan().count(PlanStep.Action.REPLACE));

            InstallOutcome repair = run(host, archive, false, PostInstallCheck.NONE);
            assertEquals(ExitCode.OK, repair.exit(), repair.summary());
            assertTrue(AlreadyInstalled.changed(repair, false));
            assertTrue(repair.record() != null);
            assertEquals(good, TreeSnapshot.withoutState(tk));
            InstallTarget t = InstallTarget.toolkit(ToolkitLocator.read(host, tk, "test"), host.os());
            assertEquals(2, m.rollbacks().list(t).size());

            RollbackOutcome dryRb = m.rollbacks().rollback(t, null, false, true);
            assertFalse(AlreadyInstalled.changed(dryRb, true));
            RollbackOutcome rb = m.rollbacks().rollback(t, null, false, false);
            assertEquals(ExitCode.OK, rb.exit(), rb.summary());
            assertTrue(AlreadyInstalled.changed(rb, false));
            assertNotEquals(good, TreeSnapshot.withoutState(tk), "the hand-made damage is back");
        }
    }
}
