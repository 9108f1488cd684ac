package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.target.FaultHook;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.NioFileOps;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FailingFileOps;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TestPorts;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 B1: a disk that is full (or out of inodes) while the journal is written. A failure
 * before the first step of the commit is exit 6 "nothing changed"; rollback never undoes the
 * install before because a run left only a half-written temporary journal.
 */
class InstallTransactionTest {
    @TempDir
    Path downloads;

    @Test
    void aJournalThatCannotBeWrittenIsExit6AndNothingChanged() throws Exception {
        Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads);
        for (String op : new String[] {"journal", "journal-log"}) {
            try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                        .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
                Path tk = m.toolkit();
                Map<String, String> before = TreeSnapshot.of(tk);
                FailingFileOps full = new FailingFileOps().diskFull((o, p) -> o.equals(op)
                        && p.getFileName().toString().startsWith("journal."));
                InstallOutcome o = m.install(full, archive);
                assertEquals(ExitCode.INSTALL_ROLLED_BACK, o.exit(), op + ": " + o.summary());
                assertTrue(o.summary().contains("No space left on device") && o.summary().contains("was changed"), o.summary());
                assertFalse(o.summary().contains("cudnn rollback"), "no advice to roll back: " + o.summary());
                assertEquals(before, TreeSnapshot.of(tk), op + ": the target, its tool folder included, is as before");
            }
        }
    }

    @Test
    void theInjectedFaultHookRunsAfterEveryCommitStepAndNowhereElse() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            Host host = m.host();
            int[] calls = {0};
            Path journal = m.path("/usr/local/cuda-12.2/.cudnn-tool/journal.json");
            FaultHook hook = () -> {
                assertTrue(Files.exists(journal), "called inside the commit, with the journal in place");
                calls[0]++;
            };
            InstallPorts ports = TestPorts.ports(host, new NioFileOps(), PostInstallCheck.NONE);
            InstallOutcome o = new InstallService(new InstallPorts(ports.host(), ports.ops(), ports.clock(), ports.check(),
                    ports.limits(), ports.xz(), ports.toolVersion(), ports.holders(), ports.searchPaths(), hook))
                    .run(new InstallRequest(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads), null, null, null,
                            false, false), ReadProgress.NONE);
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            long moves = o.plan().steps().stream().filter(s -> s.action() != PlanStep.Action.SAME).count();
            assertTrue(calls[0] >= moves, "once per journal step: " + calls[0] + " calls, " + moves + " files changed");
        }
    }

    @Test
    void aHalfWrittenTempJournalIsCleanedUpAndNeverUndoesTheInstallBefore() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            Host host = m.host();
            Path tk = m.toolkit();
            Map<String, String> with895 = TreeSnapshot.withoutState(tk);
            Path tmp = tk.resolve(".cudnn-tool/journal.json.tmp");
            Files.writeString(tmp, "{\"id\":\"20261130T030000Z-0002\",\"kind\":\"ins");
            InstallTarget t = InstallTarget.toolkit(ToolkitLocator.read(host, tk, "t"), host.os());
            RollbackOutcome dry = m.rollbacks().rollback(t, null, false, true);
            assertTrue(dry.summary().contains("half-written journal"), dry.summary());
            assertTrue(Files.exists(tmp), "a dry run changes nothing");
            RollbackOutcome r = m.rollbacks().rollback(t, null, false, false);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertTrue(r.summary().contains("half-written journal") && r.summary().contains("nothing else was rolled back"),
                    r.summary());
            assertFalse(Files.exists(tmp));
            assertEquals(with895, TreeSnapshot.withoutState(tk), "cuDNN 8.9.5 is still installed");
            // An install holding the lock cleans a leftover temp journal as well.
            Files.writeString(tmp, "{");
            InstallOutcome o = m.install(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads));
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            assertFalse(Files.exists(tmp));
        }
    }

    /**
     * A real tmpfs holds the toolkit; its free space, then its free inodes, are swept from "just
     * what the installed toolkit uses" upwards. At every point: exit 6 with the tree unchanged,
     * or exit 7 followed by a rollback that restores it exactly, or a complete install.
     */
    @Test
    @EnabledOnOs(OS.LINUX)
    void diskFullOrNoInodesAtEveryPointIsExit6UnchangedOrExit7ThenAnExactRollback(@TempDir Path dir) throws Exception {
        Path mnt = Files.createDirectories(dir.resolve("mnt"));
        String skip = mount(mnt, "size=64m,nr_inodes=4096");
        Assumptions.assumeTrue(skip == null, () -> {
            System.out.println("InstallTransactionTest: tmpfs sweep skipped: " + skip);
            return skip;
        });
        umount(mnt);
        Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads);
        int[] seen = new int[8];
        for (String kind : new String[] {"size", "nr_inodes"}) {
            int okInARow = 0;
            for (int k = 0; k < 400 && okInARow < 2; k++) {
                mount(mnt, "size=64m,nr_inodes=4096");
                try {
                    Path tk = mnt.resolve("cuda-12.2");
                    Host host = scene(tk);
                    Map<String, String> before = TreeSnapshot.of(tk);
                    long used = kind.equals("size") ? usedBytes(mnt) + k * 8192L : inodes(mnt) + k;
                    String remount = run("mount", "-o", "remount," + kind + "=" + used, mnt.toString());
                    assertEquals(null, remount, "remount " + kind + "=" + used);
                    InstallOutcome o;
                    try {
                        o = Machine.of(host).installer().run(new InstallRequest(archive, null,
                                tk, null, false, false), ReadProgress.NONE);
                    } catch (ToolException e) {
                        assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode(), kind + "+" + k + ": " + e.getMessage());
                        assertEquals(before, TreeSnapshot.of(tk), kind + "+" + k);
                        seen[5]++;
                        okInARow = 0;
                        continue;
                    }
                    seen[o.exit().code()]++;
                    if (o.exit() == ExitCode.OK) {
                        okInARow++;
                        continue;
                    }
                    okInARow = 0;
                    if (o.exit() == ExitCode.INSTALL_ROLLED_BACK) {
                        assertEquals(before, TreeSnapshot.of(tk), kind + "+" + k + ": " + o.summary());
                        continue;
                    }
                    assertEquals(ExitCode.ROLLBACK_FAILED, o.exit(), kind + "+" + k + ": " + o.summary());
                    InstallTarget t = InstallTarget.toolkit(ToolkitLocator.read(host, tk, "t"), host.os());
                    RollbackOutcome r = Machine.of(host).rollbacks().rollback(t, null, false, false);
                    assertEquals(ExitCode.OK, r.exit(), kind + "+" + k + ": " + r.summary());
                    assertEquals(withoutState(before), TreeSnapshot.withoutState(tk), kind + "+" + k);
                } finally {
                    umount(mnt);
                }
            }
            assertTrue(okInARow >= 2, kind + ": the sweep reached a size where the install succeeds");
        }
        System.out.println("InstallTransactionTest: tmpfs sweep exits 0/5/6/7: " + seen[0] + "/" + seen[5] + "/" + seen[6] + "/" + seen[7]);
        assertTrue(seen[6] > 0, "some point failed and was undone");
    }

    private static Map<String, String> withoutState(Map<String, String> m) {
        Map<String, String> c = new TreeMap<>(m);
        c.keySet().removeIf(k -> k.equals(".cudnn-tool") || k.startsWith(".cudnn-tool/"));
        return c;
    }

    private Host scene(Path tk) throws IOException {
        TestHosts.linuxToolkit(tk, "12.2.20230823");
        Host host = TestHosts.linux(FileSystems.getDefault(), Map.of(), new FakeRunner());
        Path a = ArchiveFixture.linux("8.9.5.30", "12").writeTo(Files.createTempDirectory(downloads, "s"));
        InstallOutcome o = Machine.of(host).installer().run(new InstallRequest(a, null, tk, null,
                false, false), ReadProgress.NONE);
        assertEquals(ExitCode.OK, o.exit(), o.summary());
        return host;
    }

    private static long usedBytes(Path mnt) throws IOException {
        var store = Files.getFileStore(mnt);
        return store.getTotalSpace() - store.getUnallocatedSpace();
    }

    private static long inodes(Path mnt) throws IOException {
        try (Stream<Path> s = Files.walk(mnt)) {
            return s.count();
        }
    }

    static String mount(Path at, String options) throws Exception {
        String out = run("mount", "-t", "tmpfs", "-o", options, "tmpfs", at.toString());
        return out == null ? null : "cannot mount a tmpfs (" + out + ")";
    }

    static void umount(Path at) throws Exception {
        run("umount", at.toString());
    }

    /** Runs a system command; null when it succeeded, else its output. */
    static String run(String... cmd) throws Exception {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "timed out";
            }
            return p.exitValue() == 0 ? null : out.isEmpty() ? "exit " + p.exitValue() : out;
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
