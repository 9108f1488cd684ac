package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.target.NioFileOps;
import dev.cudnntool.target.StateReaderTest;
import dev.cudnntool.target.TargetLock;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Issue 9 B3 (the lock before any advice) and B5 (a destination on another file system). */
class TargetChecksTest {
    @TempDir
    Path dir;

    @Test
    void aReadOnlyFileSystemOrAFileInPlaceOfAFolderIsNotToldToUseSudo() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
            TargetChecks checks = new TargetChecks(host, new NioFileOps(), files -> List.of());
            Path dir = fs.getPath("/mnt/ro/cudnn");
            ToolException ro = checks.notWritable(dir, new FileSystemException(
                    "/mnt/ro/cudnn/.cudnn-tool", null, "Read-only file system"));
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, ro.exitCode());
            assertTrue(ro.fix().contains("read-only") && !ro.fix().contains("sudo"), ro.fix());
            ToolException file = checks.notWritable(dir, new FileAlreadyExistsException("/mnt/ro/cudnn/.cudnn-tool"));
            assertTrue(file.fix().contains("not a folder") && file.fix().contains(".cudnn-tool") && !file.fix().contains("sudo"),
                    file.fix());
            ToolException denied = checks.notWritable(dir, new AccessDeniedException("/mnt/ro/cudnn"));
            assertTrue(denied.fix().contains("sudo"), denied.fix());
        }
    }

    @Test
    @SuppressWarnings("try") // the lock is the point: held, unreferenced, for the block's duration
    void anInstallThatLosesTheRaceIsToldLockedNeverSentToRollback() throws Exception {
        // Real file locks need the real file system; a Windows layout has no symlinks, so this runs anywhere.
        Path tk = TestHosts.toolkit(dir.resolve("cuda-12.2"), "12.2.20230823");
        Host host = TestHosts.windows(FileSystems.getDefault(), Map.of("CUDA_PATH", tk.toString()), new FakeRunner());
        Path state = Files.createDirectories(tk.resolve(".cudnn-tool"));
        Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(dir);
        try (TargetLock running = TargetLock.acquire(state)) {
            // The running install is in its commit: its journal is on disk.
            Files.writeString(state.resolve("journal.json"), StateReaderTest.JOURNAL);
            Map<String, String> before = TreeSnapshot.of(tk);
            ToolException e = assertThrows(ToolException.class, () -> Machine.of(host).install(archive));
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode());
            assertTrue(e.getMessage().contains("locked by a running install"), e.getMessage());
            assertFalse((e.getMessage() + e.fix()).contains("cudnn rollback") || e.getMessage().contains("pending"),
                    e.getMessage() + " / " + e.fix());
            InstallOutcome dry = Machine.of(host).installer().run(
                    new InstallRequest(archive, null, null, null, false, true), ReadProgress.NONE);
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, dry.exit());
            assertTrue(dry.summary().contains("locked by a running install"), dry.summary());
            assertEquals(before, TreeSnapshot.of(tk));
        }
    }

    /**
     * The toolkit's library folder is a tmpfs mount: the dry run and the real run agree (exit 5,
     * said before anything changes) instead of 0 and 6.
     */
    @Test
    @EnabledOnOs(OS.LINUX)
    void aDestinationOnAnotherFileSystemStopsTheDryRunAndTheRealRunAlike() throws Exception {
        Path tk = TestHosts.linuxToolkit(dir.resolve("cuda-12.2"), "12.2.20230823");
        Path lib = tk.resolve("targets/x86_64-linux/lib");
        String skip = InstallTransactionTest.mount(lib, "size=16m");
        Assumptions.assumeTrue(skip == null, () -> {
            System.out.println("TargetChecksTest: another-file-system case skipped: " + skip);
            return skip;
        });
        try {
            Host host = TestHosts.linux(FileSystems.getDefault(), Map.of(), new FakeRunner());
            Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(dir);
            Map<String, String> before = TreeSnapshot.of(tk);
            InstallOutcome dry = Machine.of(host).installer().run(
                    new InstallRequest(archive, null, tk, null, false, true), ReadProgress.NONE);
            ToolException real = assertThrows(ToolException.class, () -> Machine.of(host).installer().run(
                    new InstallRequest(archive, null, tk, null, false, false), ReadProgress.NONE));
            assertEquals(real.exitCode(), dry.exit(), dry.summary() + " / " + real.getMessage());
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, real.exitCode());
            assertTrue(real.getMessage().contains("another file system") && real.getMessage().contains(lib.toString()),
                    real.getMessage());
            assertEquals(before, TreeSnapshot.of(tk));
        } finally {
            InstallTransactionTest.umount(lib);
        }
    }
}
