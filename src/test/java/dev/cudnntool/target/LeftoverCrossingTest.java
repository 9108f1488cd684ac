package dev.cudnntool.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.install.InstallOutcome;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 18 A7: clean-up of the tool's folder (leftover staging folders, the trash, history folders
 * without a record) never deletes through a link and never crosses onto another file system (a
 * mount point inside {@code .cudnn-tool/staging-*}). A folder on another file system is left in
 * place with a warning ({@code cleanup.other-file-system}), never exit 70. The other file system is
 * simulated by the "same file system?" predicate, so no root mount is needed.
 */
class LeftoverCrossingTest {
    @TempDir
    Path tmp;

    /** A mount point, as far as the removal can tell: any folder named {@code mnt}. */
    static final TreeRemoval.SameFileSystem MNT_IS_ANOTHER = (reference, dir) -> !dir.getFileName().toString().equals("mnt");

    private static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    private static void assertOutsideIntact(Path outside) throws IOException {
        assertEquals("precious", Files.readString(outside.resolve("data.txt")));
        assertEquals("deeper", Files.readString(outside.resolve("sub/deep.txt")));
    }

    @Test
    void linksInsideALeftoverStagingFolderAreRemovedAsLinksOnTheRealFileSystem() throws Exception {
        Path outside = tmp.resolve("outside");
        write(outside.resolve("data.txt"), "precious");
        write(outside.resolve("sub/deep.txt"), "deeper");
        Path state = Files.createDirectories(tmp.resolve("prefix/.cudnn-tool"));
        Path staging = state.resolve("staging-20260101T000000Z-0001");
        write(staging.resolve("cuda/include/cudnn.h"), "staged");
        Files.createSymbolicLink(staging.resolve("lib64"), outside); // a link to a folder
        Files.createSymbolicLink(staging.resolve("cuda/file-link"), outside.resolve("data.txt")); // to a file
        Files.createDirectories(state.resolve("trash/x"));
        Files.createSymbolicLink(state.resolve("trash/x/back"), outside);
        Files.createSymbolicLink(state.resolve("staging-20260101T000000Z-0002"), outside); // a staging name that is a link

        FileOps ops = new NioFileOps();
        Leftovers.Cleaned c = Leftovers.clean(new JournalRunner(ops, new StatePaths(tmp.resolve("prefix"))), ops, state, null);

        assertOutsideIntact(outside);
        assertFalse(Files.exists(staging, LinkOption.NOFOLLOW_LINKS), "the staging folder is gone");
        assertFalse(Files.exists(state.resolve("trash"), LinkOption.NOFOLLOW_LINKS), "the trash is gone");
        assertTrue(c.leftInPlace().isEmpty(), c.toString());
        assertTrue(c.removed().contains(staging.getFileName().toString()), c.toString());
    }

    @Test
    void aTreeWhoseRootIsALinkLosesOnlyTheLink() throws Exception {
        Path outside = tmp.resolve("outside");
        write(outside.resolve("data.txt"), "precious");
        write(outside.resolve("sub/deep.txt"), "deeper");
        Path link = Files.createSymbolicLink(Files.createDirectories(tmp.resolve("state")).resolve("staging-x"), outside);
        new TreeRemoval(new NioFileOps()).remove(link);
        assertFalse(Files.exists(link, LinkOption.NOFOLLOW_LINKS));
        assertOutsideIntact(outside);
    }

    @ParameterizedTest
    @ValueSource(strings = {"unix", "windows"})
    void aFolderOnAnotherFileSystemIsNotCrossedButLeftAndNamed(String kind) throws Exception {
        try (FileSystem fs = kind.equals("unix") ? TestHosts.unixFs() : TestHosts.windowsFs()) {
            Path root = fs.getRootDirectories().iterator().next().resolve("opt").resolve("prefix");
            Path state = Files.createDirectories(root.resolve(".cudnn-tool"));
            Path staging = state.resolve("staging-20260101T000000Z-0001");
            write(staging.resolve("cuda/include/cudnn.h"), "staged");
            Path mnt = staging.resolve("cuda/lib64/mnt");
            write(mnt.resolve("data.txt"), "precious");
            write(mnt.resolve("sub/deep.txt"), "deeper");
            write(staging.resolve("cuda/lib64/libcudnn.so.9"), "staged");
            Path otherStaging = state.resolve("staging-20260101T000000Z-0002");
            write(otherStaging.resolve("a/b.txt"), "gone");

            FileOps ops = new NioFileOps();
            JournalRunner runner = new JournalRunner(ops, new StatePaths(root), FaultHook.NONE, new TreeRemoval(ops, MNT_IS_ANOTHER));
            Leftovers.Cleaned c = Leftovers.clean(runner, ops, state, null);

            assertOutsideIntact(mnt);
            assertEquals(List.of(mnt), c.leftInPlace());
            assertTrue(Files.isDirectory(staging.resolve("cuda/lib64")), "the folders on the way to it stay");
            assertFalse(Files.exists(staging.resolve("cuda/include")), "the rest of that staging folder is gone");
            assertFalse(Files.exists(staging.resolve("cuda/lib64/libcudnn.so.9")));
            assertFalse(Files.exists(otherStaging), "another leftover is removed as before");
            assertFalse(c.removed().contains(staging.getFileName().toString()), "not claimed as removed: " + c.removed());
            List<Finding> f = c.findings();
            assertEquals(1, f.size());
            assertEquals("cleanup.other-file-system", f.get(0).id());
            assertEquals(Severity.WARN, f.get(0).severity());
            assertTrue(f.get(0).message().contains(mnt.toString()), f.get(0).message());
        }
    }

    @Test
    void aRootOnAnotherFileSystemIsLeftWhole() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path mnt = fs.getPath("/opt/prefix/.cudnn-tool/trash/mnt");
            write(mnt.resolve("data.txt"), "precious");
            write(mnt.resolve("sub/deep.txt"), "deeper");
            TreeRemoval r = new TreeRemoval(new NioFileOps(), MNT_IS_ANOTHER);
            assertEquals(List.of(mnt), r.remove(mnt));
            assertOutsideIntact(mnt);
        }
    }

    @Test
    void aDeepTreeIsRemovedWithoutOverflowingTheStack() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path root = Files.createDirectories(fs.getPath("/s/staging-1"));
            Path d = root;
            for (int i = 0; i < 3000; i++) {
                d = d.resolve("d");
            }
            write(d.resolve("f"), "x");
            new TreeRemoval(new NioFileOps()).remove(root);
            assertFalse(Files.exists(root));
        }
    }

    @Test
    void theStandardTestTellsAnotherFileSystemOnThisMachine() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/proc/self/mountinfo")), "a Linux mount table");
        TreeRemoval.SameFileSystem standard = TreeRemoval.standard();
        Path sub = Files.createDirectories(tmp.resolve("a/b"));
        assertTrue(standard.test(tmp, sub));
        assertFalse(standard.test(tmp, Path.of("/proc")), "/proc is another file system");
        assertEquals("/mnt/a b\\c\td", TreeRemoval.unescapeMountPoint("/mnt/a\\040b\\134c\\011d"));
    }

    /** Through the services: rollback and install clean up a leftover with a mount point in it, exit 0 with a warning. */
    @Test
    void rollbackAndInstallLeaveAMountPointInALeftoverAndWarn() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").file("/usr/local/sentinel/file", "keep me").build()) {
            FileOps ops = new SimulatedMounts(new NioFileOps());
            Path downloads = Files.createDirectories(m.path("/home/me/Downloads"));
            assertEquals(ExitCode.OK, m.install(ops, ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads)).exit());
            Path state = m.toolkit().resolve(".cudnn-tool");
            Path mnt = state.resolve("staging-20260101T000000Z-0099/mnt");
            write(mnt.resolve("data.txt"), "precious");
            write(mnt.resolve("sub/deep.txt"), "deeper");
            Files.createSymbolicLink(state.resolve("staging-20260101T000000Z-0099/sentinel"), m.path("/usr/local/sentinel"));
            Map<String, String> sentinel = TreeSnapshot.of(m.path("/usr/local/sentinel"));

            RollbackOutcome r = m.rollback(ops, m.toolkitTarget());
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertTrue(r.findings().stream().anyMatch(f -> f.id().equals("cleanup.other-file-system")
                    && f.message().contains(mnt.toString())), r.findings().toString());
            assertOutsideIntact(mnt);
            assertEquals(sentinel, TreeSnapshot.of(m.path("/usr/local/sentinel")));

            InstallOutcome again = m.install(ops, ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads));
            assertEquals(ExitCode.OK, again.exit(), again.summary());
            assertTrue(again.findings().stream().anyMatch(f -> f.id().equals("cleanup.other-file-system")),
                    again.findings().toString());
            assertOutsideIntact(mnt);
            assertEquals(sentinel, TreeSnapshot.of(m.path("/usr/local/sentinel")));
        }
    }

    /** The real operations, with folders named {@code mnt} on "another file system". */
    private record SimulatedMounts(FileOps real) implements FileOps {
        @Override
        public void createDirectory(Path dir) throws IOException {
            real.createDirectory(dir);
        }

        @Override
        public void move(Path from, Path to) throws IOException {
            real.move(from, to);
        }

        @Override
        public void delete(Path path) throws IOException {
            real.delete(path);
        }

        @Override
        public OutputStream newFile(Path file) throws IOException {
            return real.newFile(file);
        }

        @Override
        public void createSymbolicLink(Path link, String target) throws IOException {
            real.createSymbolicLink(link, target);
        }

        @Override
        public void setMode(Path file, int mode) throws IOException {
            real.setMode(file, mode);
        }

        @Override
        public void writeAtomically(Path file, byte[] content) throws IOException {
            real.writeAtomically(file, content);
        }

        @Override
        public void appendLine(Path file, String line) throws IOException {
            real.appendLine(file, line);
        }

        @Override
        public void checkNotInUse(Path file) throws IOException {
            real.checkNotInUse(file);
        }

        @Override
        public void checkWritable(Path dir) throws IOException {
            real.checkWritable(dir);
        }

        @Override
        public TreeRemoval.SameFileSystem sameFileSystem() {
            return MNT_IS_ANOTHER;
        }
    }
}
