package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 9 A4 (only cuDNN's files are touched), A5 (target folders leading outside), C4 (a folder in a file's place). */
class PlanGuardTest {
    static final String TOP = "cudnn-linux-x86_64-8.9.7.29_cuda12-archive/";

    @TempDir
    Path downloads;

    private static InstallOutcome run(Host host, Path archive, boolean dryRun) {
        return Machine.of(host).installer().run(
                new InstallRequest(archive, null, null, null, false, dryRun), ReadProgress.NONE);
    }

    @Test
    void aToolkitFileThatIsNotCudnnsIsNeverReplaced() throws Exception {
        for (String[] c : new String[][] {{"include/cuda.h", "include/cuda.h"},
                {"lib/libcudart.so.12", "targets/x86_64-linux/lib/libcudart.so.12"}}) {
            try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
                Host host = m.host();
                Path tk = m.toolkit();
                TestHosts.write(tk.resolve("include/cuda.h"), "the toolkit's own");
                Map<String, String> before = TreeSnapshot.of(tk);
                Path archive = ArchiveFixture.linux("8.9.7.29", "12").file(TOP + c[0], "planted")
                        .writeTo(Files.createTempDirectory(downloads, "a"));
                // Refused by the reader (archive.foreign-file) or, failing that, by the plan guard: exit 3 either way.
                String said;
                try {
                    InstallOutcome o = run(host, archive, false);
                    assertEquals(ExitCode.ARCHIVE_REJECTED, o.exit(), o.summary());
                    said = o.summary() + o.findings();
                } catch (ToolException e) {
                    assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode(), e.getMessage());
                    said = e.getMessage();
                }
                assertTrue(said.contains(c[1].substring(c[1].lastIndexOf('/') + 1)), said);
                assertEquals(before, TreeSnapshot.of(tk), c[0]);
            }
        }
    }

    @Test
    void aTargetFolderThatLeadsOutsideIsSaidOutLoudAndThePlanShowsWhereFilesGo() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            FileSystem fs = m.fs();
            Host host = m.host();
            Path tk = m.toolkit();
            Path shared = Files.createDirectories(fs.getPath("/opt/shared/include"));
            Files.delete(tk.resolve("include"));
            Files.createSymbolicLink(tk.resolve("include"), shared);
            Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads);
            for (boolean dry : new boolean[] {true, false}) {
                InstallOutcome o = run(host, archive, dry);
                assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
                Finding f = o.findings().stream().filter(x -> x.id().equals("target.outside-link")).findFirst().orElseThrow();
                assertEquals(Severity.WARN, f.severity());
                assertTrue(f.message().contains("/usr/local/cuda/include is a link") && f.message().contains("to /opt/shared/include"),
                        f.message());
                assertTrue(o.plan().steps().stream().anyMatch(s -> s.destination().equals("/opt/shared/include/cudnn.h")),
                        o.plan().steps().toString());
            }
            assertTrue(Files.isRegularFile(shared.resolve("cudnn.h")));
            InstallTarget t = InstallTarget.toolkit(ToolkitLocator.read(host, tk, "t"), host.os());
            RollbackOutcome r = m.rollback(t);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertTrue(!Files.exists(shared.resolve("cudnn.h")), "rollback undoes it through the same link");
        }
    }

    @Test
    void aFolderWhereACudnnFileGoesIsNamedAndNothingChanges() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Host host = m.host();
            Path tk = m.toolkit();
            Files.createDirectories(tk.resolve("include/cudnn.h"));
            Map<String, String> before = TreeSnapshot.of(tk);
            Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads);
            InstallOutcome dry = run(host, archive, true);
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, dry.exit(), dry.summary());
            ToolException e = assertThrows(ToolException.class, () -> run(host, archive, false));
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode());
            assertTrue(e.getMessage().contains("include/cudnn.h") && e.getMessage().contains("folder"), e.getMessage());
            StateScene.oneLine(e);
            assertEquals(before, TreeSnapshot.of(tk));
        }
    }

    @Test
    void onWindowsALibX64FolderLinkedOutsideIsNamedAndRollsBack() throws Exception {
        try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
            FileSystem fs = m.fs();
            Host host = m.host();
            Path tk = m.toolkit();
            Path shared = Files.createDirectories(fs.getPath("C:\\shared\\x64libs"));
            Files.createSymbolicLink(tk.resolve("lib\\x64-link"), shared);
            Files.delete(tk.resolve("lib\\x64"));
            Files.move(tk.resolve("lib\\x64-link"), tk.resolve("lib\\x64"));
            Map<String, String> before = TreeSnapshot.of(shared);
            Path archive = ArchiveFixture.windows("8.9.5.30", "12").writeTo(downloads);
            InstallOutcome o = run(host, archive, false);
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            assertTrue(o.findings().stream().anyMatch(f -> f.id().equals("target.outside-link")
                    && f.message().contains("C:\\shared\\x64libs")), o.findings().toString());
            assertTrue(Files.isRegularFile(shared.resolve("cudnn.lib")));
            InstallTarget t = InstallTarget.toolkit(ToolkitLocator.read(host, tk, "t"), host.os());
            assertEquals(ExitCode.OK, m.rollback(t).exit());
            assertEquals(before, TreeSnapshot.of(shared));
        }
    }
}
