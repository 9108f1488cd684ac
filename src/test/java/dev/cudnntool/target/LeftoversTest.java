package dev.cudnntool.target;

import dev.cudnntool.install.InstallOutcome;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.install.StateScene;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 9 B2: what killed runs leave is removed by the next install or rollback holding the lock. */
class LeftoversTest {
    @TempDir
    Path downloads;

    private static void litter(StateScene s) throws Exception {
        Path staging = s.state.resolve("staging-20261130T020000Z-0009/cudnn-linux-x86_64-8.9.7.29_cuda12-archive/lib");
        Files.createDirectories(staging);
        Files.write(staging.resolve("libcudnn_big.so.8.9.7"), new byte[1 << 16]);
        Files.createDirectories(s.state.resolve("history/20261130T020000Z-0009/backup/0"));
        Files.writeString(s.state.resolve("journal.log"), "begin 20261130T020000Z-0009\n");
    }

    private static void assertClean(StateScene s) throws Exception {
        assertFalse(Files.exists(s.state.resolve("staging-20261130T020000Z-0009")), "staging of a dead run removed");
        assertFalse(Files.exists(s.state.resolve("history/20261130T020000Z-0009")), "record-less history folder removed");
        assertFalse(Files.exists(s.state.resolve("journal.log")), "a progress log without its journal removed");
        try (var l = Files.list(s.state)) {
            assertTrue(l.noneMatch(p -> p.getFileName().toString().startsWith("staging-")));
        }
    }

    @Test
    void theNextInstallRemovesStagingFoldersOfDeadRuns() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            litter(s);
            InstallOutcome o = s.installAgain(false);
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            assertClean(s);
        }
    }

    @Test
    void theNextRollbackRemovesThemTooAndStillRollsBack() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            litter(s);
            RollbackOutcome r = s.rollback();
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertTrue(r.summary().contains("rolled back cuDNN 8.9.7"), r.summary());
            assertClean(s);
        }
    }

    @Test
    void aHistoryFolderHoldingFilesIsNeverRemovedAsALeftover() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            Path keep = s.state.resolve("history/20261130T020000Z-0009/backup/0/libcudnn.so.8.9.5");
            Files.createDirectories(keep.getParent());
            Files.writeString(keep, "a file: not ours to judge");
            assertEquals(ExitCode.OK, s.rollback().exit());
            assertTrue(Files.exists(keep));
        }
    }

    @Test
    void aDryRunRemovesNothing() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            litter(s);
            assertEquals(ExitCode.OK, s.rollbacks().rollback(s.target, null, false, true).exit());
            assertTrue(Files.exists(s.state.resolve("staging-20261130T020000Z-0009")));
        }
    }
}
