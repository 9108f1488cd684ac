package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveInfo;
import dev.cudnntool.archive.ArchiveItem;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.EntryRole;
import dev.cudnntool.archive.Evidence;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.format.EntryType;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 9, the archive side as an install sees it: confinement (A2–A4), modes (C5), names already on disk (C1). */
class InstallHardeningTest {
    static final String TOP = "cudnn-linux-x86_64-8.9.5.30_cuda12-archive/";

    @TempDir
    Path downloads;

    private static InstallOutcome prefixInstall(Host host, Path archive, Path prefix) {
        return Machine.of(host).installer().run(
                new InstallRequest(archive, null, null, prefix, false, false), ReadProgress.NONE);
    }

    @Test
    void stateFolderEntryIsNeverPlantedInAPrefix() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Files.createDirectories(fs.getPath("/opt"));
            Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
            Path prefix = fs.getPath("/opt/cudnn");
            Path archive = ArchiveFixture.linux("8.9.5.30", "12")
                    .file(TOP + ".cudnn-tool/history/20990101T000000Z-0001/install.json", "{\"id\": \"planted\"}")
                    .writeTo(downloads);
            ToolException e = assertThrows(ToolException.class, () -> prefixInstall(host, archive, prefix));
            assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
            assertFalse(Files.exists(prefix), "nothing of the refused install stays: " + TreeSnapshot.of(fs.getPath("/opt")));
        }
    }

    @Test
    void toolkitFilesThatAreNotCudnnsAreNeverReplaced() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Path tk = m.toolkit();
            Files.writeString(tk.resolve("include/cuda.h"), "/* the toolkit's cuda.h */");
            Map<String, String> before = TreeSnapshot.of(tk);
            Path archive = ArchiveFixture.linux("8.9.5.30", "12")
                    .file(TOP + "include/cuda.h", "/* planted */")
                    .file(TOP + "lib/libcudart.so.12", "planted")
                    .file(TOP + "lib/libc.so.6", "planted")
                    .writeTo(downloads);
            InstallOutcome o = m.install(archive);
            assertEquals(ExitCode.ARCHIVE_REJECTED, o.exit(), o.summary());
            assertTrue(o.summary().contains("archive.foreign-file"), o.summary());
            assertEquals(before, TreeSnapshot.of(tk), "the toolkit, its state folder included, is exactly as before");
        }
    }

    @Test
    void modesAreTheToolsWhateverTheArchiveSays() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            FileSystem fs = m.fs();
            ArchiveFixture f = ArchiveFixture.linux("8.9.5.30", "12");
            ArchiveFixture hostile = ArchiveFixture.empty(f.fileName(), ArchiveFixture.Format.TAR_XZ);
            for (ArchiveFixture.Entry e : f.entries()) {
                if (e.kind() == ArchiveFixture.Entry.Kind.FILE) {
                    hostile.file(e.path(), e.content(), e.path().contains(".so") ? 06777 : 04666);
                } else if (e.kind() == ArchiveFixture.Entry.Kind.SYMLINK) {
                    hostile.symlink(e.path(), e.linkTarget());
                } else {
                    hostile.dir(e.path());
                }
            }
            InstallOutcome o = m.install(hostile.writeTo(downloads));
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            Path lib = fs.getPath("/usr/local/cuda-12.2/targets/x86_64-linux/lib");
            assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(lib.resolve("libcudnn.so.8.9.5"))));
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(lib.resolve("libcudnn_static.a"))));
            assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    fs.getPath("/usr/local/cuda-12.2/include/cudnn.h"))));
        }
    }

    @Test
    void aCudnnLikeNameWithAHugeNumberInTheTargetIsLeftAlone() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            FileSystem fs = m.fs();
            Path odd = fs.getPath("/usr/local/cuda-12.2/targets/x86_64-linux/lib/libcudnn_x.so.99999999999");
            Files.writeString(odd, "someone else's");
            InstallOutcome o = m.install(
                    ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads));
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            assertEquals("someone else's", Files.readString(odd));
        }
    }

    @Test
    void aFolderWhereACudnnFileGoesIsNamedAndNothingChanges() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Path tk = m.toolkit();
            Path folder = Files.createDirectories(tk.resolve("include/cudnn_ops_infer.h"));
            Map<String, String> before = TreeSnapshot.of(tk);
            ToolException e = assertThrows(ToolException.class, () -> m.install(
                    ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads)));
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode());
            assertTrue(e.getMessage().contains("include/cudnn_ops_infer.h is a folder"), e.getMessage());
            assertTrue(Files.isDirectory(folder));
            assertEquals(before, TreeSnapshot.of(tk));
        }
    }

    @Test
    void linkLeavingDestinationAfterFlatteningIsRefused() throws Exception {
        // The reader refuses such links already; the plan checks again where the loader will follow them.
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Host host = m.host();
            InstallTarget t = InstallTarget.toolkit(ToolkitLocator.read(host,
                    m.toolkit(), "test"), host.os());
            ArchiveName n = ArchiveName.parse("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz");
            ArchiveItem real = new ArchiveItem(TOP + "lib/libcudnn.so.8.9.5", "lib/libcudnn.so.8.9.5",
                    EntryRole.RUNTIME_LIBRARY, EntryType.FILE, 1, "00", null, 0755);
            for (String target : List.of("../../../../etc/passwd", "../libcudnn.so.8.9.5", "libcudnn_missing.so.8")) {
                ArchiveItem link = new ArchiveItem(TOP + "lib/a/libcudnn.so.8", "lib/a/libcudnn.so.8",
                        EntryRole.RUNTIME_LIBRARY, EntryType.SYMLINK, 0, null, target, 0777);
                ArchiveReport r = new ArchiveReport(ArchiveInfo.of(n, "00", 1), TOP, List.of(real, link),
                        new Evidence(null, null, List.of()), List.of(), n);
                ToolException e = assertThrows(ToolException.class, () -> Placement.plan(t, r), target);
                assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
                assertTrue(e.getMessage().contains("not a file of this install in the same folder"), e.getMessage());
            }
        }
    }

    @Test
    void placementPredicateIsCudnnsFilesOnly() {
        try (FileSystem fs = TestHosts.unixFs()) {
            assertTrue(Placement.isCudnnFile(fs.getPath("/x/lib64/libcudnn_ops.so.9.5.1")));
            assertFalse(Placement.isCudnnFile(fs.getPath("/x/lib64/libcudart.so.12")));
            assertFalse(Placement.isCudnnFile(fs.getPath("/x/include/cuda.h")));
            assertFalse(Placement.isCudnnFile(fs.getPath("/")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
