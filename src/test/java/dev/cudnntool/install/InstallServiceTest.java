package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.host.searchpath.SearchPathStores;
import dev.cudnntool.target.InstallRecord;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.NioFileOps;
import dev.cudnntool.target.StatePaths;
import dev.cudnntool.target.TargetLock;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FailingFileOps;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TestPorts;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InstallServiceTest {
    @TempDir
    Path downloads;

    @Test
    void windowsFreshInstallPlacesEveryFileAndRollbackRemovesItExactly() throws Exception {
        try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
            Path tk = m.toolkit();
            Map<String, String> before = TreeSnapshot.of(tk);
            Path archive = ArchiveFixture.windows("8.9.5.30", "12").writeTo(downloads);

            InstallOutcome o = m.install(archive);
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            assertTrue(Files.isRegularFile(tk.resolve("bin\\cudnn64_8.dll")));
            assertTrue(Files.isRegularFile(tk.resolve("bin\\cudnn_adv_train64_8.dll")));
            assertTrue(Files.isRegularFile(tk.resolve("include\\cudnn_version.h")));
            assertTrue(Files.isRegularFile(tk.resolve("lib\\x64\\cudnn_ops_infer64_8.lib")));
            assertFalse(Files.exists(tk.resolve("LICENSE")), "the licence goes to the install record, not into the toolkit");
            assertEquals(7 + 9 + 14, o.plan().count(PlanStep.Action.ADD));
            assertTrue(o.summary().contains("backup id") && o.summary().contains("cudnn rollback"), o.summary());
            Path record = tk.resolve(".cudnn-tool\\history").resolve(o.record().id()).resolve("install.json");
            assertTrue(Files.isRegularFile(record));
            assertTrue(Files.isRegularFile(record.resolveSibling("LICENSE")));
            assertEquals(30, o.record().installed().size());
            assertTrue(o.record().installed().stream().allMatch(f -> f.sha256() != null && f.sha256().length() == 64));
            assertFalse(Files.exists(tk.resolve(".cudnn-tool\\journal.json")));

            RollbackOutcome r = m.rollback(m.toolkitTarget());
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertEquals(before, TreeSnapshot.of(tk), "rolling back the first install is an uninstall");
            assertEquals(ExitCode.NOTHING_TO_ROLL_BACK, m.rollback(m.toolkitTarget()).exit());
        }
    }

    @Test
    void windows918PutsBinX64DllsIntoTheToolkitBin() throws Exception {
        try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
            Path archive = ArchiveFixture.windows("9.18.0.77", "12").writeTo(downloads);
            InstallOutcome o = m.install(archive);
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            assertTrue(Files.isRegularFile(m.toolkit().resolve("bin").resolve("cudnn_graph64_9.dll")));
            assertFalse(Files.exists(m.toolkit().resolve("bin").resolve("x64")));
        }
    }

    @Test
    void linuxInstallKeepsSymlinkChainsAndModesInTheRealLib64() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            FileSystem fs = m.fs();
            Path archive = ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads);
            InstallOutcome o = m.install(archive);
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            Path lib = fs.getPath("/usr/local/cuda-12.2/targets/x86_64-linux/lib");
            assertTrue(Files.isSymbolicLink(lib.resolve("libcudnn.so.8")));
            assertEquals("libcudnn.so.8.9.5", Files.readSymbolicLink(lib.resolve("libcudnn.so.8")).toString());
            assertEquals("libcudnn.so.8", Files.readSymbolicLink(lib.resolve("libcudnn.so")).toString());
            assertTrue(Files.isRegularFile(lib.resolve("libcudnn_static.a")));
            assertEquals("rwxr-xr-x", PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(lib.resolve("libcudnn_cnn_infer.so.8.9.5"))));
            assertTrue(Files.isSymbolicLink(fs.getPath("/usr/local/cuda-12.2/lib64")), "lib64 stays a link");
            assertTrue(Files.isRegularFile(fs.getPath("/usr/local/cuda-12.2/include/cudnn.h")));
        }
    }

    @Test
    void upgradeMovesStaleFilesOutAndRollbackBringsEveryByteBack() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Host host = m.host();
            Path tk = m.toolkit();
            m.install(ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads));
            Path lib = tk.resolve("targets/x86_64-linux/lib");
            // A stale sub-library from some other release, copied by hand: it must not survive.
            Files.writeString(lib.resolve("libcudnn_ops_infer.so.8.8.0"), "stale");
            Map<String, String> before = TreeSnapshot.of(tk);

            InstallOutcome up = m.install(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads));
            assertEquals(ExitCode.OK, up.exit(), up.summary() + up.findings());
            assertEquals("libcudnn.so.8.9.7", Files.readSymbolicLink(lib.resolve("libcudnn.so.8")).toString());
            assertFalse(Files.exists(lib.resolve("libcudnn.so.8.9.5")), "the old release's real files are moved out");
            assertFalse(Files.exists(lib.resolve("libcudnn_ops_infer.so.8.8.0")), "stale sub-libraries are moved out");
            assertTrue(Files.isRegularFile(lib.resolve("libcudart.so.12")), "non-cuDNN files are left alone");
            assertTrue(up.plan().count(PlanStep.Action.REMOVE) >= 8, up.plan().steps().toString());
            assertTrue(up.plan().count(PlanStep.Action.REPLACE) > 0);

            InstallTarget t = InstallTarget.toolkit(up.preflight().toolkit(), host.os());
            assertEquals(2, m.rollbacks().list(t).size());
            RollbackOutcome r = m.rollback(t);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertEquals(before, TreeSnapshot.of(tk));
        }
    }

    @Test
    void cudnn9InstallsBesideCudnn8AndEachRollsBack() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Host host = m.host();
            Path tk = m.toolkit();
            Map<String, String> pristine = TreeSnapshot.of(tk);
            InstallOutcome eight = m.install(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads));
            assertEquals(ExitCode.OK, eight.exit());
            Map<String, String> withEight = TreeSnapshot.of(tk);
            InstallOutcome nine = m.install(ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads));
            assertEquals(ExitCode.OK, nine.exit(), nine.summary() + nine.findings());
            Path lib = tk.resolve("targets/x86_64-linux/lib");
            assertTrue(Files.isRegularFile(lib.resolve("libcudnn_cnn_infer.so.8.9.7")), "cuDNN 8 runtime stays");
            assertTrue(Files.isSymbolicLink(lib.resolve("libcudnn.so.8")));
            assertTrue(Files.isRegularFile(lib.resolve("libcudnn_graph.so.9.5.1")));
            assertEquals("libcudnn.so.9", Files.readSymbolicLink(lib.resolve("libcudnn.so")).toString());
            assertFalse(Files.exists(tk.resolve("include/cudnn_ops_infer.h")), "headers of the old release go");
            assertTrue(nine.findings().stream().anyMatch(f -> f.id().equals("install.other-major-kept")));

            InstallTarget t = InstallTarget.toolkit(nine.preflight().toolkit(), host.os());
            assertEquals(ExitCode.OK, m.rollback(t).exit());
            assertEquals(withEight, TreeSnapshot.of(tk));
            assertEquals(ExitCode.OK, m.rollback(t).exit());
            assertEquals(pristine, TreeSnapshot.of(tk));
        }
    }

    @Test
    void prefixInstallNeedsNoToolkitAndSaysWhichLineToAdd() throws Exception {
        try (Machine m = Machine.linux().folder("/opt").build()) {
            Host host = m.host();
            Path prefix = m.path("/opt/cudnn-9.5");
            Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads);
            InstallOutcome o = m.installer().run(
                    new InstallRequest(archive, null, null, prefix, false, false), ReadProgress.NONE);
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            assertTrue(Files.isSymbolicLink(prefix.resolve("lib/libcudnn.so.9")));
            assertTrue(Files.isRegularFile(prefix.resolve("include/cudnn_version.h")));
            assertTrue(Files.isRegularFile(prefix.resolve("LICENSE")));
            Finding path = o.findings().stream().filter(f -> f.id().equals("search-path.missing")).findFirst().orElseThrow();
            assertTrue(path.fix().contains("export LD_LIBRARY_PATH=/opt/cudnn-9.5/lib"), path.fix());
            assertTrue(o.summary().contains("--prefix /opt/cudnn-9.5"), o.summary());

            RollbackOutcome r = m.rollbacks().rollback(InstallTarget.prefix(prefix, host.os()), null, false, false);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertFalse(Files.exists(prefix), "the prefix the install created is gone again: " + TreeSnapshot.of(m.path("/opt")));
        }
    }

    @Test
    void dryRunChangesNothingAndExitsWhereTheRealRunWouldStop() throws Exception {
        try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
            Map<String, String> before = TreeSnapshot.of(m.toolkit());
            Path good = ArchiveFixture.windows("8.9.5.30", "12").writeTo(downloads);
            InstallOutcome ok = m.installer().run(new InstallRequest(good, null, null, null, false, true), ReadProgress.NONE);
            assertEquals(ExitCode.OK, ok.exit(), ok.summary() + ok.findings());
            assertEquals(30, ok.plan().count(PlanStep.Action.ADD));
            assertEquals(before, TreeSnapshot.of(m.toolkit()));

            Path eleven = ArchiveFixture.windows("8.9.5.30", "11").writeTo(downloads);
            InstallOutcome mismatch = m.installer().run(new InstallRequest(eleven, null, null, null, false, true), ReadProgress.NONE);
            assertEquals(ExitCode.HOST_NOT_READY, mismatch.exit());
            assertTrue(mismatch.findings().stream().anyMatch(f -> f.id().equals("toolkit.cuda-major-mismatch")));
            InstallOutcome real = m.install(eleven);
            assertEquals(mismatch.exit(), real.exit(), "a dry run exits as the real run does");

            Path broken = ArchiveFixture.windows("8.9.5.30", "12").remove("cudnn_adv_infer64_8.dll").writeAs(downloads.resolve("b").resolve(good.getFileName().toString()));
            InstallOutcome incomplete = m.installer().run(new InstallRequest(broken, null, null, null, false, true), ReadProgress.NONE);
            assertEquals(ExitCode.ARCHIVE_REJECTED, incomplete.exit());
            assertEquals(ExitCode.ARCHIVE_REJECTED, m.install(broken).exit());
            assertEquals(before, TreeSnapshot.of(m.toolkit()));
        }
    }

    @Test
    void forceTurnsNamedHostErrorsIntoWarnings() throws Exception {
        try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
            Path eleven = ArchiveFixture.windows("8.9.5.30", "11").writeTo(downloads);
            InstallOutcome o = m.installer().run(new InstallRequest(eleven, null, null, null, true, false), ReadProgress.NONE);
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            Finding f = o.findings().stream().filter(x -> x.id().equals("toolkit.cuda-major-mismatch")).findFirst().orElseThrow();
            assertEquals(Severity.WARN, f.severity());
            assertTrue(f.message().contains("allowed by --force"));
        }
    }

    @Test
    void everySingleFailedFileOperationLeavesTheToolkitAsItWas() throws Exception {
        // Count the calls of a whole successful upgrade, then fail each one in turn.
        int total;
        Map<String, String> upgraded;
        Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads);
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            FailingFileOps counting = new FailingFileOps();
            assertEquals(ExitCode.OK, m.install(counting, archive).exit());
            total = counting.calls;
            upgraded = TreeSnapshot.withoutState(m.toolkit());
        }
        assertTrue(total > 60, "a whole install makes many calls: " + total);
        int committedAnyway = 0;
        for (int n = 1; n <= total; n++) {
            try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                        .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
                Path tk = m.toolkit();
                Map<String, String> before = TreeSnapshot.of(tk);
                InstallOutcome o;
                try {
                    o = m.install(new FailingFileOps(n), archive);
                } catch (ToolException e) {
                    assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode(), "call " + n + ": " + e.getMessage());
                    assertEquals(before, TreeSnapshot.of(tk), "call " + n);
                    continue;
                }
                if (o.exit() == ExitCode.OK) {
                    // The failure hit the tidy-up after the commit point: the install is complete.
                    committedAnyway++;
                    assertEquals(upgraded, TreeSnapshot.withoutState(tk), "call " + n);
                    continue;
                }
                assertEquals(ExitCode.INSTALL_ROLLED_BACK, o.exit(), "call " + n + ": " + o.summary());
                assertEquals(before, TreeSnapshot.of(tk), "failing call " + n + " of " + total + ": " + o.summary());
            }
        }
        assertTrue(committedAnyway <= 1, "only the progress log's removal comes after the commit point");
    }

    @Test
    void everySingleFailedRollbackOperationLeavesTheToolkitAsItWas() throws Exception {
        int total;
        Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads);
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            Host host = m.host();
            InstallOutcome o = m.install(archive);
            FailingFileOps counting = new FailingFileOps();
            assertEquals(ExitCode.OK, m.rollback(counting, InstallTarget.toolkit(o.preflight().toolkit(), host.os())).exit());
            total = counting.calls;
        }
        for (int n = 1; n <= total; n++) {
            try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                        .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
                Host host = m.host();
                Path tk = m.toolkit();
                Map<String, String> pristine = TreeSnapshot.withoutState(tk);
                InstallOutcome o = m.install(archive);
                Map<String, String> installed = TreeSnapshot.of(tk);
                RollbackOutcome r = m.rollback(new FailingFileOps(n), InstallTarget.toolkit(o.preflight().toolkit(), host.os()));
                if (r.exit() == ExitCode.OK) {
                    // The failure hit clean-up after the commit point: the rollback itself is complete.
                    assertEquals(pristine, TreeSnapshot.withoutState(tk), "call " + n);
                } else {
                    assertEquals(ExitCode.INSTALL_ROLLED_BACK, r.exit(), "call " + n + ": " + r.summary());
                    assertEquals(installed, TreeSnapshot.of(tk), "failing rollback call " + n + " of " + total);
                }
            }
        }
    }

    @Test
    void whenTheUndoFailsTooTheJournalStaysAndRollbackFinishesIt() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            Path tk = m.toolkit();
            Map<String, String> before = TreeSnapshot.of(tk);
            FailingFileOps counting = new FailingFileOps();
            Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads);
            try (Machine probe = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
                probe.install(counting, archive);
            }
            int commitMove = counting.calls - 12; // a move in the middle of the commit
            InstallOutcome o = m.install(new FailingFileOps(commitMove, commitMove + 3), archive);
            assertEquals(ExitCode.ROLLBACK_FAILED, o.exit(), o.summary());
            assertTrue(o.summary().contains("cudnn rollback"));
            assertTrue(Files.exists(tk.resolve(".cudnn-tool/journal.json")));
            InstallOutcome blocked = m.install(archive);
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, blocked.exit() == null ? null : blocked.exit());
        } catch (ToolException e) {
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode());
            assertTrue(e.getMessage().contains("unfinished install"), e.getMessage());
        }
    }

    @Test
    void aPendingJournalBlocksInstallUntilRollbackCompletesIt() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            FileSystem fs = m.fs();
            Host host = m.host();
            Path tk = m.toolkit();
            Map<String, String> before = TreeSnapshot.of(tk);
            Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads);
            FailingFileOps counting = new FailingFileOps();
            try (Machine probe = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
                probe.install(counting, archive);
            }
            int commitMove = counting.calls - 12;
            assertEquals(ExitCode.ROLLBACK_FAILED, m.install(new FailingFileOps(commitMove, commitMove + 3), archive).exit());
            ToolException e = assertThrows(ToolException.class, () -> m.install(archive));
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode());
            assertTrue(e.fix().contains("cudnn rollback"), e.fix());

            InstallTarget t = InstallTarget.toolkit(ToolkitLocator.read(host, fs.getPath("/usr/local/cuda"), "t"), host.os());
            RollbackOutcome r = m.rollback(t);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertTrue(r.summary().contains("undid the interrupted install"), r.summary());
            assertEquals(before, TreeSnapshot.of(tk));
        }
    }

    @Test
    void anInterruptedRollbackIsResumedByTheNextOne() throws Exception {
        Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads);
        int total;
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            Host host = m.host();
            InstallOutcome o = m.install(archive);
            FailingFileOps counting = new FailingFileOps();
            m.rollback(counting, InstallTarget.toolkit(o.preflight().toolkit(), host.os()));
            total = counting.calls;
        }
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            Host host = m.host();
            Path tk = m.toolkit();
            Map<String, String> pristine = TreeSnapshot.withoutState(tk);
            InstallOutcome o = m.install(archive);
            InstallTarget t = InstallTarget.toolkit(o.preflight().toolkit(), host.os());
            // Fail in the middle of the rollback's moves, and again while reverting them: as good as a kill.
            int mid = total / 2;
            RollbackOutcome broken = m.rollback(new FailingFileOps(mid, mid + 2), t);
            assertEquals(ExitCode.ROLLBACK_FAILED, broken.exit(), broken.summary());
            assertTrue(Files.exists(tk.resolve(".cudnn-tool/journal.json")));
            assertTrue(m.rollbacks().list(t).stream().anyMatch(e -> e.state().equals("unfinished rollback")));
            RollbackOutcome resumed = m.rollback(t);
            assertEquals(ExitCode.OK, resumed.exit(), resumed.summary());
            assertTrue(resumed.summary().contains("finished the interrupted rollback"), resumed.summary());
            assertEquals(pristine, TreeSnapshot.withoutState(tk));
        }
    }

    @Test
    void verificationFailureAfterCommitRestoresTheToolkit() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            Path tk = m.toolkit();
            Map<String, String> before = TreeSnapshot.of(tk);
            InstallService s = m.installer(new NioFileOps(),
                    (t, r) -> List.of(Finding.error(FindingId.CUDNN_LOAD_FAILED, "the probe aborted", "fix")));
            InstallOutcome o = s.run(new InstallRequest(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads), null, null,
                    null, false, false), ReadProgress.NONE);
            assertEquals(ExitCode.INSTALL_ROLLED_BACK, o.exit());
            assertTrue(o.summary().contains("failed verification"), o.summary());
            assertEquals(before, TreeSnapshot.of(tk));
        }
    }

    @Test
    void aReadOnlyDestinationStopsBeforeAnyChangeWithExit5() throws Exception {
        try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
            Map<String, String> before = TreeSnapshot.of(m.toolkit());
            Path bin = m.toolkit().resolve("bin");
            FailingFileOps ro = new FailingFileOps().readOnly(p -> p.startsWith(bin));
            ToolException e = assertThrows(ToolException.class,
                    () -> m.install(ro, ArchiveFixture.windows("8.9.5.30", "12").writeTo(downloads)));
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode());
            assertTrue(e.getMessage().contains(bin.toString()), e.getMessage());
            assertTrue(e.fix().contains("elevated prompt"), e.fix());
            assertEquals(before, TreeSnapshot.of(m.toolkit()));
        }
    }

    @Test
    void aDllHeldOpenByARunningProgramStopsTheInstallBeforeAnyChange() throws Exception {
        try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
            assertEquals(ExitCode.OK, m.install(ArchiveFixture.windows("8.9.5.30", "12").writeTo(downloads)).exit());
            Map<String, String> before = TreeSnapshot.of(m.toolkit());
            Path loaded = m.toolkit().resolve("bin").resolve("cudnn_cnn_infer64_8.dll");
            Path upgrade = ArchiveFixture.windows("8.9.7.29", "12").writeTo(downloads);
            ToolException e = assertThrows(ToolException.class,
                    () -> m.install(new FailingFileOps().inUse(loaded::equals), upgrade));
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode());
            assertTrue(e.getMessage().contains(loaded.toString()) && e.getMessage().contains("running program"), e.getMessage());
            assertTrue(e.fix().contains("Jupyter"), e.fix());
            // Where the Restart Manager names the holder, the message names it too.
            ToolException named = assertThrows(ToolException.class, () -> m.installer(new FailingFileOps().inUse(loaded::equals),
                    files -> files.contains(loaded) ? List.of("python.exe (pid 4242)") : List.of())
                    .run(new InstallRequest(upgrade, null, null, null, false, false), ReadProgress.NONE));
            assertTrue(named.getMessage().contains("in use by python.exe (pid 4242)"), named.getMessage());
            assertEquals(before, TreeSnapshot.of(m.toolkit()));
            InstallOutcome dry = m.installer(new FailingFileOps().inUse(loaded::equals)).run(
                    new InstallRequest(upgrade, null, null, null, false, true), ReadProgress.NONE);
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, dry.exit(), "the dry run stops where the real run would");
            assertTrue(dry.findings().stream().anyMatch(f -> f.id().equals("install.file-in-use")));
        }
    }

    @Test
    void diskFullWhileStagingLeavesTheToolkitAsItWas() throws Exception {
        Configuration small = Configuration.unix().toBuilder().setAttributeViews("basic", "posix")
                .setMaxSize(3 << 20).setBlockSize(4096).build();
        try (FileSystem fs = Jimfs.newFileSystem(small);
             Machine m = Machine.linux(fs).toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Path tk = m.toolkit();
            Map<String, String> before = TreeSnapshot.of(tk);
            byte[] big = new byte[6 << 20];
            new Random(7).nextBytes(big);
            Path archive = ArchiveFixture.linux("8.9.7.29", "12")
                    .file("cudnn-linux-x86_64-8.9.7.29_cuda12-archive/lib/libcudnn_big_static.a", big)
                    .xzPreset(0).writeTo(downloads);
            InstallOutcome o;
            try {
                o = m.install(archive);
            } catch (ToolException e) {
                assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode(), e.getMessage());
                assertTrue(e.getMessage().contains("free"), e.getMessage());
                assertEquals(before, TreeSnapshot.of(tk));
                return;
            }
            assertEquals(ExitCode.INSTALL_ROLLED_BACK, o.exit(), o.summary());
            assertTrue(o.findings().stream().anyMatch(f -> f.fix().contains("free disk space")), o.findings().toString());
            assertEquals(before, TreeSnapshot.of(tk));
        }
    }

    @Test
    void aCorruptEntryInTheMiddleChangesNothing() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            Path tk = m.toolkit();
            Map<String, String> before = TreeSnapshot.of(tk);
            Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads);
            byte[] bytes = Files.readAllBytes(archive);
            for (int i = bytes.length / 2; i < bytes.length / 2 + 8; i++) {
                bytes[i] ^= 0x33;
            }
            Files.write(archive, bytes);
            ToolException e = assertThrows(ToolException.class, () -> m.install(archive));
            assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
            assertEquals(before, TreeSnapshot.of(tk));
        }
    }

    @Test
    @SuppressWarnings("try") // the lock is the point: held, unreferenced, for the block's duration
    void aSecondRunIsTurnedAwayWhileTheFirstHoldsTheLock(@TempDir Path machine) throws Exception {
        // Real file locks need the real file system (jimfs grants every lock). Within one JVM a
        // second lock on the same file overlaps and is refused, as another process's would be.
        // A Windows-layout archive (no symlinks), so the test runs on a Windows CI machine too.
        Path tk = TestHosts.toolkit(machine.resolve("cuda-12.2"), "12.2.20230823");
        Machine m = Machine.of(TestHosts.windows(FileSystems.getDefault(), Map.of("CUDA_PATH", tk.toString()), new FakeRunner()));
        Path state = tk.resolve(".cudnn-tool");
        Files.createDirectories(state);
        Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(downloads);
        try (TargetLock held = TargetLock.acquire(state)) {
            Map<String, String> before = TreeSnapshot.of(tk);
            ToolException e = assertThrows(ToolException.class, () -> m.install(archive));
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode());
            assertTrue(e.getMessage().contains("locked by a running install"), e.getMessage());
            assertEquals(before, TreeSnapshot.of(tk), "nothing moved while the other run held the lock");
        }
        assertEquals(ExitCode.OK, m.install(archive).exit(), "free again once released");
    }

    @Test
    void rollbackRefusesWhenInstalledFilesWereChangedUnlessForced() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            FileSystem fs = m.fs();
            Host host = m.host();
            Path tk = m.toolkit();
            Map<String, String> pristine = TreeSnapshot.of(tk);
            InstallOutcome o = m.install(ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads));
            Files.writeString(tk.resolve("include/cudnn_version.h"), "// edited by hand");
            InstallTarget t = InstallTarget.toolkit(o.preflight().toolkit(), host.os());
            RollbackOutcome refused = m.rollback(t);
            assertEquals(ExitCode.NOTHING_TO_ROLL_BACK, refused.exit());
            assertTrue(refused.summary().contains("cudnn_version.h"), refused.summary());
            RollbackOutcome dry = m.rollbacks().rollback(t, null, true, true);
            assertEquals(ExitCode.OK, dry.exit());
            assertTrue(Files.exists(tk.resolve("include/cudnn.h")), "a dry run changes nothing");
            RollbackOutcome forced = m.rollbacks().rollback(t, null, true, false);
            assertEquals(ExitCode.OK, forced.exit(), forced.summary());
            assertEquals(1, forced.keptChangedFiles().size());
            assertEquals("// edited by hand", Files.readString(fs.getPath(forced.keptChangedFiles().get(0))));
            assertEquals(pristine, TreeSnapshot.withoutState(tk));
        }
    }

    @Test
    void rollbackOfAnOlderInstallNeedsForceAndDamagedBackupsAreNeverRestored() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Host host = m.host();
            InstallOutcome first = m.install(ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads));
            InstallOutcome second = m.install(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads));
            InstallTarget t = InstallTarget.toolkit(second.preflight().toolkit(), host.os());
            RollbackOutcome older = m.rollbacks().rollback(t, first.record().id(), false, false);
            assertEquals(ExitCode.NOTHING_TO_ROLL_BACK, older.exit());
            assertTrue(older.summary().contains("later installs"), older.summary());

            InstallRecord.BackedUpFile b = second.record().backedUp().stream().filter(x -> x.sha256() != null).findFirst().orElseThrow();
            Files.writeString(new StatePaths(t.root()).resolve(b.backup()), "bit rot");
            RollbackOutcome damaged = m.rollbacks().rollback(t, null, true, false);
            assertEquals(ExitCode.NOTHING_TO_ROLL_BACK, damaged.exit());
            assertTrue(damaged.summary().contains("damaged"), damaged.summary());
            assertNotEquals(ExitCode.OK, m.rollbacks().rollback(t, "no-such-id", false, false).exit());
        }
    }
}
