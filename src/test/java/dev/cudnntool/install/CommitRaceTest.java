package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.target.FaultHook;
import dev.cudnntool.target.NioFileOps;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TestPorts;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 18 A6: a target folder swapped for a link to an outside folder while the commit runs.
 * Before, the files were split between the target and the outside folder with exit 0. Now the
 * step after the swap sees the folder changed, nothing is moved through the link, and the steps
 * taken are undone (exit 6) or left in the journal for cudnn rollback (exit 7), never unrecorded.
 */
class CommitRaceTest {
    @TempDir
    Path downloads;

    /** cuDNN 8.9.7 installed on {@code m} with {@code hook} called after each commit step. */
    private InstallOutcome install897(Machine m, FaultHook hook) throws Exception {
        InstallPorts p = TestPorts.ports(m.host(), new NioFileOps(), PostInstallCheck.NONE);
        return new InstallService(new InstallPorts(p.host(), p.ops(), p.clock(), p.check(), p.limits(), p.xz(),
                p.toolVersion(), p.holders(), p.searchPaths(), hook))
                .run(new InstallRequest(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads), null, null, null,
                        false, false), ReadProgress.NONE);
    }

    @ParameterizedTest(name = "{0} swapped after commit step {1}")
    @CsvSource({"targets/x86_64-linux/lib, 1", "targets/x86_64-linux/lib, 9", "targets/x86_64-linux/lib, 30",
            "include, 1", "include, 3", "targets, 2", "targets/x86_64-linux, 5"})
    void aTargetFolderSwappedForALinkMidCommitStopsTheCommit(String folder, int afterStep) throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                    .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            Path tk = m.toolkit();
            assertTrue(Files.isDirectory(tk.resolve(folder), LinkOption.NOFOLLOW_LINKS), folder);
            Path outside = Files.createDirectories(m.path("/srv/outside"));
            Map<String, String> before = TreeSnapshot.withoutState(tk);
            int[] steps = {0};
            FaultHook swap = () -> {
                if (++steps[0] == afterStep) {
                    try {
                        Files.move(tk.resolve(folder), tk.resolve(folder + ".moved-away"));
                        Files.createSymbolicLink(tk.resolve(folder), outside);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            };
            InstallOutcome o = install897(m, swap);

            assertTrue(steps[0] >= afterStep, "the swap happened during the commit (" + steps[0] + " steps)");
            assertTrue(o.exit() == ExitCode.INSTALL_ROLLED_BACK || o.exit() == ExitCode.ROLLBACK_FAILED,
                    "stopped, not " + o.exit() + ": " + o.summary());
            try (Stream<Path> s = Files.list(outside)) {
                List<Path> leaked = s.toList();
                assertEquals(List.of(), leaked, "nothing was moved through the link into the outside folder");
            }
            String said = o.summary() + " " + o.findings().stream().map(Finding::message).toList();
            assertTrue(said.contains(folder + " changed while the tool was working in it"), said);
            if (o.exit() == ExitCode.INSTALL_ROLLED_BACK) {
                // Put the folder back as it was: the target is then exactly as before the install.
                Files.delete(tk.resolve(folder));
                Files.move(tk.resolve(folder + ".moved-away"), tk.resolve(folder));
                assertEquals(before, TreeSnapshot.withoutState(tk), "every step taken was undone");
            } else {
                assertTrue(Files.exists(tk.resolve(".cudnn-tool/journal.json")),
                        "what could not be undone stays recorded in the journal for cudnn rollback");
            }
        }
    }

    /** lib64 is a link to targets/x86_64-linux/lib, where the plan puts the files: swapping the link changes nothing. */
    @org.junit.jupiter.api.Test
    void swappingALinkThePlanDoesNotGoThroughLeavesTheInstallWhole() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").build()) {
            Path tk = m.toolkit();
            Path outside = Files.createDirectories(m.path("/srv/outside"));
            int[] steps = {0};
            FaultHook swap = () -> {
                if (++steps[0] == 2) {
                    try {
                        Files.delete(tk.resolve("lib64"));
                        Files.createSymbolicLink(tk.resolve("lib64"), outside);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            };
            InstallOutcome o = install897(m, swap);
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            try (Stream<Path> s = Files.list(outside)) {
                assertEquals(List.of(), s.toList());
            }
            assertTrue(Files.exists(tk.resolve("targets/x86_64-linux/lib/libcudnn.so.8.9.7")));
        }
    }
}
