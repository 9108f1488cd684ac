package dev.cudnntool.install;

import dev.cudnntool.target.DamagedState;
import dev.cudnntool.target.History;
import dev.cudnntool.target.InstallTarget;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.Hex;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, tried again as a hostile user would (the red team). Each test is one class of hole
 * found in the hardened build; it failed before its fix.
 */
class RedTeamTest {
    @TempDir
    Path downloads;

    private static String sha(Path p) {
        try {
            return Hex.sha256(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void edit(StateScene s, Consumer<ObjectNode> change) throws IOException {
        ObjectNode r = s.read(s.record(s.second));
        change.accept(r);
        s.write(s.record(s.second), r);
    }

    /**
     * A1/A4: a forged record that lists a toolkit file which is not cuDNN's (with its true sha256,
     * so it looks unchanged) made rollback delete it with exit 0: cuda.h, version.json, libcudart.
     */
    @Test
    void stateNamingAToolkitFileThatIsNotCudnnsIsRefused() throws Exception {
        for (String victim : new String[] {"include/cuda.h", "version.json", "lib64/libcudart.so.12"}) {
            try (StateScene s = new StateScene(downloads)) {
                Path file = s.tk.resolve("include/cuda.h");
                Files.writeString(file, "/* the toolkit's cuda.h */");
                String sum = sha(s.tk.resolve(victim));
                edit(s, r -> r.withArray("installed").addObject().put("path", victim).put("sha256", sum)
                        .put("source", "include/cudnn_x.h"));
                DamagedState e = s.refuses(s::rollback);
                assertTrue(e.getMessage().contains(victim) && e.getMessage().contains("not one of cuDNN's files"), e.getMessage());
            }
        }
    }

    @Test
    void stateRestoringABackupOverAToolkitFileThatIsNotCudnnsIsRefused() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            Files.writeString(s.tk.resolve("include/cuda.h"), "/* the toolkit's cuda.h */");
            edit(s, r -> ((ObjectNode) r.withArray("backedUp").get(0)).put("original", "include/cuda.h"));
            DamagedState e = s.refuses(s::rollback);
            assertTrue(e.getMessage().contains("include/cuda.h"), e.getMessage());
        }
    }

    /** A forged journal of a killed install: "done" moving a staged file over cuda.h; undoing it would take cuda.h away. */
    @Test
    void journalMovingAToolkitFileThatIsNotCudnnsIsRefused() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            Files.writeString(s.tk.resolve("include/cuda.h"), "/* the toolkit's cuda.h */");
            String id = "20261130T030000Z-0003";
            Files.writeString(s.state.resolve("journal.json"), "{\"id\":\"" + id + "\",\"kind\":\"install\",\"state\":\"committing\","
                    + "\"ops\":[{\"type\":\"move\",\"from\":\".cudnn-tool/staging-" + id + "/cuda.h\",\"to\":\"include/cuda.h\"}],"
                    + "\"recordId\":\"" + id + "\"}");
            Files.writeString(s.state.resolve("journal.log"), "begin " + id + "\ndone 0\n");
            DamagedState e = s.refuses(s::rollback);
            assertTrue(e.getMessage().contains("include/cuda.h"), e.getMessage());
            assertEquals(ExitCode.NOTHING_TO_ROLL_BACK, e.exitCode());
        }
    }

    /**
     * A1: the tool's own folders that rollback moves files into (trash, kept, a record's removed
     * slots) made into links leading out of the target: rollback moved the record, the removed
     * files or the changed files out of the target with exit 0. Refused (exit 8) before anything
     * moves; --repair renames the link (never what it points to) and rollback works again.
     */
    @Test
    void stateFolderOfTheToolThatIsALinkIsRefusedAndRepaired() throws Exception {
        for (String folder : new String[] {"trash", "kept", "removed", "removed/0"}) {
            try (StateScene s = new StateScene(downloads)) {
                Path history = History.dir(s.state).resolve(s.second.record().id());
                Path link = folder.startsWith("removed") ? history.resolve(folder) : s.state.resolve(folder);
                Files.createDirectories(link.getParent());
                Files.createSymbolicLink(link, s.sentinel);
                boolean force = folder.equals("kept");
                if (force) {
                    Files.writeString(s.tk.resolve("include/cudnn.h"), "changed by the user");
                }
                DamagedState e = s.refuses(() -> s.rollbacks().rollback(s.target, null, force, false));
                assertTrue(e.getMessage().contains(link.toString()) && e.getMessage().contains("is a link"), e.getMessage());
                s.refuses(() -> s.rollbacks().rollback(s.target, null, force, true)); // the dry run agrees
                Map<String, String> sentinel = TreeSnapshot.of(s.sentinel);
                RollbackOutcome repaired = s.rollbacks().repair(s.target, false);
                assertEquals(ExitCode.OK, repaired.exit(), repaired.summary());
                assertTrue(Files.isSymbolicLink(link.resolveSibling(link.getFileName() + ".link-20261130T030000Z"))
                        || repaired.summary().contains(".link-"), repaired.summary());
                RollbackOutcome o = s.rollbacks().rollback(s.target, null, force, false);
                assertEquals(ExitCode.OK, o.exit(), o.summary());
                assertEquals(sentinel, TreeSnapshot.of(s.sentinel), "nothing reached the sentinel");
            }
        }
    }

    /**
     * A1: the lock file made a dangling link: taking the lock created a file outside the target
     * (as root: /etc/nologin would lock everyone out). On the real file system, where it happened.
     */
    @Test
    void stateLockThatIsALinkCreatesNothingOutsideTheTarget(@TempDir Path work) throws Exception {
        Host host = TestHosts.linux(FileSystems.getDefault(),
                Map.of(), new FakeRunner());
        Path prefix = work.resolve("cudnn");
        Path sentinel = Files.createDirectories(work.resolve("sentinel"));
        Path archive = ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads);
        InstallOutcome installed = Machine.of(host).installer().run(
                new InstallRequest(archive, null, null, prefix, false, false), ReadProgress.NONE);
        assertEquals(ExitCode.OK, installed.exit(), installed.summary());
        Path lock = prefix.resolve(".cudnn-tool/lock");
        Files.deleteIfExists(lock);
        Path outside = sentinel.resolve("created-through-the-lock");
        Files.createSymbolicLink(lock, outside);
        RollbackOutcome o = Machine.of(host).rollbacks().rollback(
                InstallTarget.prefix(prefix, host.os()), null, false, false);
        assertEquals(ExitCode.OK, o.exit(), o.summary());
        assertTrue(!Files.exists(outside, LinkOption.NOFOLLOW_LINKS), "no file was created outside the target");
    }

    /**
     * Hostile environment: CUDA_PATH (or --cuda-path) naming "/" or "/etc" was taken for a toolkit
     * of unknown version, and the install wrote /include/cudnn*.h, /lib64 and /.cudnn-tool there.
     * A folder is a toolkit only if it holds version.json, version.txt, bin/nvcc or include/cuda.h.
     */
    @Test
    void environmentNamingAFolderThatIsNotAToolkitInstallsNothing() throws Exception {
        for (String dir : new String[] {"/", "/etc"}) {
            try (FileSystem fs = TestHosts.unixFs()) {
                Files.createDirectories(fs.getPath("/etc/ssl"));
                Files.writeString(fs.getPath("/etc/passwd"), "root:x:0:0::/root:/bin/sh\n");
                Map<String, String> before = TreeSnapshot.of(fs.getPath("/"));
                Path archive = ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads);
                Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", dir),
                        new FakeRunner());
                InstallOutcome o = Machine.of(host).install(archive);
                assertEquals(ExitCode.HOST_NOT_READY, o.exit(), o.summary());
                assertTrue(o.findings().stream().anyMatch(f -> f.id().equals("toolkit.not-a-toolkit")), o.findings().toString());
                InstallOutcome opt = Machine.of(host).installer().run(new InstallRequest(archive, null,
                        fs.getPath(dir), null, true, false), ReadProgress.NONE);
                assertEquals(ExitCode.HOST_NOT_READY, opt.exit(), opt.summary());
                assertEquals(before, TreeSnapshot.of(fs.getPath("/")), "nothing was written");
            }
        }
    }

    /**
     * A4: NVIDIA's header-only cudnn-frontend (include/cudnn_frontend.h and friends, put into the
     * toolkit by PyTorch builds and conda) is not cuDNN's, but was moved out as a stale cuDNN header.
     */
    @Test
    void toolkitFileThatIsNotCudnnsIsNeverMovedOutAsStale() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            FileSystem fs = m.fs();
            Path include = fs.getPath("/usr/local/cuda-12.2/include");
            Files.writeString(include.resolve("cudnn_frontend.h"), "#include \"cudnn_frontend/graph.h\"\n");
            Files.writeString(include.resolve("cudnn_frontend_utils.h"), "/* frontend */\n");
            Path archive = ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads);
            InstallOutcome o = m.install(archive);
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            assertTrue(o.summary().contains("0 old files moved out"), o.summary());
            assertEquals("#include \"cudnn_frontend/graph.h\"\n", Files.readString(include.resolve("cudnn_frontend.h")));
            assertTrue(Files.exists(include.resolve("cudnn_frontend_utils.h")));
        }
    }

    /**
     * A4: --prefix into a folder of the user's own (a project, /opt) replaced its LICENSE, which
     * is not cuDNN's, with NVIDIA's. It stays; cuDNN's licence is kept in the install record.
     */
    @Test
    void prefixFileThatIsNotCudnnsIsNeverReplaced() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Host host = TestHosts.linux(fs, Map.of(),
                    new FakeRunner());
            Path prefix = Files.createDirectories(fs.getPath("/home/me/project"));
            Files.writeString(prefix.resolve("LICENSE"), "MIT License, my project\n");
            Path archive = ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads);
            InstallOutcome o = Machine.of(host).installer().run(
                    new InstallRequest(archive, null, null, prefix, false, false), ReadProgress.NONE);
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            assertEquals("MIT License, my project\n", Files.readString(prefix.resolve("LICENSE")));
            assertTrue(o.record().license() != null && Files.readString(prefix.resolve(o.record().license())).contains("cuDNN"),
                    "cuDNN's licence is kept in the record: " + o.record().license());
            RollbackOutcome r = Machine.of(host).rollbacks().rollback(InstallTarget.prefix(prefix, host.os()),
                    null, false, false);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertEquals("MIT License, my project\n", Files.readString(prefix.resolve("LICENSE")));
            // a cuDNN licence from an earlier install is cuDNN's: replaced as before
            Files.writeString(prefix.resolve("LICENSE"), "cuDNN SOFTWARE LICENSE AGREEMENT (older)\n");
            InstallOutcome again = Machine.of(host).installer().run(
                    new InstallRequest(archive, null, null, prefix, false, false), ReadProgress.NONE);
            assertEquals(ExitCode.OK, again.exit(), again.summary());
            assertTrue(Files.readString(prefix.resolve("LICENSE")).contains("(fixture)"));
        }
    }

    /**
     * A5: a --prefix whose lib folder is a link leading outside it (lib -> /usr/lib) gave exit 70
     * ("not inside the target"). Said out loud like lib64 in a toolkit, installed, rolled back.
     */
    @Test
    void prefixFolderThatIsALinkLeadingOutsideIsNamedNotExit70() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Host host = TestHosts.linux(fs, Map.of(),
                    new FakeRunner());
            Path prefix = Files.createDirectories(fs.getPath("/opt/cudnn"));
            Path real = Files.createDirectories(fs.getPath("/data/cudnn-lib"));
            Files.createSymbolicLink(prefix.resolve("lib"), real);
            Path archive = ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads);
            InstallOutcome o = Machine.of(host).installer().run(
                    new InstallRequest(archive, null, null, prefix, false, false), ReadProgress.NONE);
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            assertTrue(o.findings().stream().anyMatch(f -> f.id().equals("target.outside-link")), o.findings().toString());
            assertTrue(Files.exists(real.resolve("libcudnn.so.8.9.5")));
            RollbackOutcome r = Machine.of(host).rollbacks().rollback(InstallTarget.prefix(prefix, host.os()),
                    null, false, false);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            try (Stream<Path> left = Files.list(real)) {
                assertEquals(0, left.count(), "rollback took every file back out");
            }
        }
    }

    /** A1/C: a deeper folder of a --prefix (lib/sub) that is a link leading outside: exit 70 before; now exit 5, dry run too. */
    @Test
    void prefixDeeperFolderThatIsALinkLeadingOutsideIsRefused() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Host host = TestHosts.linux(fs, Map.of(),
                    new FakeRunner());
            Path prefix = Files.createDirectories(fs.getPath("/opt/cudnn/lib")).getParent();
            Path outside = Files.createDirectories(fs.getPath("/srv/elsewhere"));
            Files.createSymbolicLink(prefix.resolve("lib/sub"), outside);
            Map<String, String> before = TreeSnapshot.of(fs.getPath("/"));
            Path archive = ArchiveFixture.linux("8.9.5.30", "12")
                    .file("cudnn-linux-x86_64-8.9.5.30_cuda12-archive/lib/sub/libcudnn_sub.so.8.9.5", "x".getBytes(), 0755)
                    .writeTo(downloads);
            for (boolean dry : new boolean[] {true, false}) {
                try {
                    InstallOutcome o = Machine.of(host).installer().run(
                            new InstallRequest(archive, null, null, prefix, false, dry), ReadProgress.NONE);
                    assertEquals(ExitCode.TARGET_NOT_WRITABLE, o.exit(), o.summary());
                } catch (ToolException e) {
                    assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode(), e.getMessage());
                    assertTrue(e.getMessage().contains("leads outside"), e.getMessage());
                }
            }
            assertEquals(before, TreeSnapshot.of(fs.getPath("/")), "nothing changed anywhere");
        }
    }

    /**
     * B4 (always a way out): a folder named journal.json.tmp with something in it made every
     * install exit 6 "check the target is writable and retry", forever. It is a leftover: removed.
     */
    @Test
    void stateTempJournalThatIsAFolderIsNoDeadEnd() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            Path tmp = Files.createDirectories(s.state.resolve("journal.json.tmp/sub"));
            Files.writeString(tmp.resolve("x"), "x");
            InstallOutcome o = s.installAgain(false);
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            assertTrue(!Files.exists(s.state.resolve("journal.json.tmp"), LinkOption.NOFOLLOW_LINKS));
        }
    }
}
