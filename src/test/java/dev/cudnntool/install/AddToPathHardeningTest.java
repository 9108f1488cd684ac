package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.searchpath.LdSoConfPathStore;
import dev.cudnntool.host.searchpath.SearchPathEntries;
import dev.cudnntool.host.searchpath.SearchPathStore.Raw;
import dev.cudnntool.host.searchpath.SearchPathStore.Scope;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.target.History;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.JournalRunner;
import dev.cudnntool.target.NioFileOps;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FailingFileOps;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TestPorts;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** #18 A1–A4 and D22 on Linux: the ld.so.conf.d file is the install's own, written safely, undone only while it is ours. */
class AddToPathHardeningTest {
    @TempDir
    Path downloads;

    private FakeRunner runner;
    private Host host;
    private LdSoConfPathStore store;

    private void linux(FileSystem fs) throws Exception {
        runner = new FakeRunner().on("ldconfig", FakeRunner.ok(""));
        host = TestHosts.linux(fs, Map.of(), runner);
        store = new LdSoConfPathStore(host);
        TestHosts.ldconfig(fs);
        Files.createDirectories(fs.getPath("/etc/ld.so.conf.d"));
        Files.writeString(fs.getPath("/etc/ld.so.conf.d/libc.conf"), "/usr/local/lib\n");
    }

    private InstallOutcome install(String version, String prefix) throws Exception {
        return install(version, prefix, Scope.USER, new NioFileOps(), false);
    }

    private InstallOutcome install(String version, String prefix, Scope scope, FileOps ops, boolean dry) throws Exception {
        Path archive = ArchiveFixture.linux(version, "12").writeTo(Files.createTempDirectory(downloads, "a"));
        return new InstallService(TestPorts.ports(host, ops, PostInstallCheck.NONE, InstallPorts.NOBODY, store)).run(
                new InstallRequest(archive, null, null, host.path(prefix), false, dry, scope, null), ReadProgress.NONE);
    }

    private RollbackOutcome rollback(String prefix, FileOps ops) {
        return TestPorts.rollback(host, ops, store).rollback(InstallTarget.prefix(host.path(prefix), host.os()), null, false, false);
    }

    private Path conf(String id) {
        return host.path("/etc/ld.so.conf.d/cudnn-tool-" + id + ".conf");
    }

    private long ldconfigRuns() {
        return runner.calls.stream().filter(c -> c.get(0).endsWith("ldconfig")).count();
    }

    private static Finding finding(List<Finding> findings, FindingId id) {
        return findings.stream().filter(f -> f.is(id)).findFirst().orElseThrow(() -> new AssertionError(id + " in " + findings));
    }

    // ---- A1 ----

    @Test
    void aControlCharacterInATargetFoundOtherwiseThanByTheCommandLineIsAUsageErrorToo() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            Map<String, String> etc = TreeSnapshot.of(fs.getPath("/etc"));
            for (String prefix : List.of("/opt/a\nb", "/opt/a\u0085b", "/opt/x#y/cuda", "/opt/a=b", "/opt/\ufffd")) {
                for (boolean dry : new boolean[] {true, false}) {
                    ToolException e = assertThrows(ToolException.class, () -> install("9.5.1.17", prefix, Scope.USER, new NioFileOps(), dry));
                    assertEquals(ExitCode.USAGE, e.exitCode(), prefix);
                    assertFalse(e.getMessage().contains("\n") || e.getMessage().contains("\u0085"), e.getMessage());
                    assertTrue(e.fix().startsWith("use a plain path"), e.fix());
                    assertEquals(etc, TreeSnapshot.of(fs.getPath("/etc")));
                    assertFalse(Files.exists(fs.getPath("/opt")), "nothing installed");
                }
            }
            assertEquals(0, ldconfigRuns());
        }
    }

    // ---- A2 ----

    @Test
    void twoInstallsInOneSecondOnOneTargetGetTwoIdsAndTwoConfFilesAndRollingBackOneKeepsTheOther() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            InstallOutcome first = install("9.5.1.17", "/opt/cudnn");
            InstallOutcome second = install("9.6.0.74", "/opt/cudnn");
            assertEquals(ExitCode.OK, first.exit(), first.summary());
            assertEquals(ExitCode.OK, second.exit(), second.summary());
            String tag = History.targetTag(host.path("/opt/cudnn"));
            assertTrue(first.record().id().matches("20261130T030000Z-0001-" + tag), first.record().id());
            assertNotEquals(first.record().id(), second.record().id());
            assertTrue(Files.isRegularFile(conf(first.record().id())) && Files.isRegularFile(conf(second.record().id())));

            RollbackOutcome r = rollback("/opt/cudnn", new NioFileOps());
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertFalse(Files.exists(conf(second.record().id())));
            assertEquals("/opt/cudnn/lib\n", Files.readString(conf(first.record().id())), "the first install's entry stays");
        }
    }

    @Test
    void installsInOneSecondOnTwoTargetsGetTwoIdsAndRollingBackOneLeavesTheOthersConfFile() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            InstallOutcome a = install("9.5.1.17", "/opt/a");
            InstallOutcome b = install("9.5.1.17", "/opt/b");
            assertEquals(ExitCode.OK, a.exit(), a.summary());
            assertEquals(ExitCode.OK, b.exit(), b.summary());
            assertNotEquals(a.record().id(), b.record().id(), "same second, both the first install of their target");
            assertEquals("/opt/a/lib\n", Files.readString(conf(a.record().id())));
            assertEquals("/opt/b/lib\n", Files.readString(conf(b.record().id())));

            assertEquals(ExitCode.OK, rollback("/opt/b", new NioFileOps()).exit());
            assertFalse(Files.exists(conf(b.record().id())));
            assertEquals("/opt/a/lib\n", Files.readString(conf(a.record().id())), "the other target's entry stays");
        }
    }

    @Test
    void anIdWhoseConfFileIsTakenAlreadyIsNotReused() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            String expected = History.newId(TestPorts.CLOCK.instant(), host.path("/opt/cudnn"), 0, id -> false);
            Files.writeString(conf(expected), "/somewhere/else\n"); // e.g. left by a record --repair set aside
            InstallOutcome o = install("9.5.1.17", "/opt/cudnn");
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            assertNotEquals(expected, o.record().id());
            assertEquals("/somewhere/else\n", Files.readString(conf(expected)));
        }
    }

    // ---- A3 ----

    @Test
    void theRecordHoldsTheSha256OfWhatWasWrittenAndThePreviousState() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            InstallOutcome o = install("9.5.1.17", "/opt/cudnn");
            Path recorded = host.path("/opt/cudnn/.cudnn-tool/history").resolve(o.record().id()).resolve(SearchPathChange.FILE);
            var json = JournalRunner.JSON.readTree(Files.readString(recorded));
            assertEquals(SearchPathChange.sha256("/opt/cudnn/lib\n".getBytes(StandardCharsets.UTF_8)), json.get("written").asText());
            assertFalse(json.has("before"), "there was no file before: " + json);
            assertEquals(conf(o.record().id()).toString(), json.get("location").asText());
        }
    }

    @Test
    void aConfFileAnAdministratorChangedSinceIsLeftAsItIsWithAWarningNamingIt() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            InstallOutcome o = install("9.5.1.17", "/opt/cudnn");
            Path conf = conf(o.record().id());
            String edited = "/opt/cudnn/lib\n/opt/site/lib\n";
            Files.writeString(conf, edited);
            long before = ldconfigRuns();

            RollbackOutcome r = rollback("/opt/cudnn", new NioFileOps());
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertEquals(edited, Files.readString(conf), "the administrator's lines are not lost");
            Finding f = finding(r.findings(), FindingId.ROLLBACK_SEARCH_PATH);
            assertEquals(Severity.WARN, f.severity());
            assertTrue(f.message().contains(conf.toString()) && f.message().contains("left as it is"), f.message());
            assertEquals(before, ldconfigRuns(), "nothing changed there: ldconfig not run");
        }
    }

    @Test
    void aConfFileThatWasThereBeforeIsRestoredByteForByteWhileItHoldsWhatTheToolWrote() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            Path history = Files.createDirectories(host.path("/opt/cudnn/.cudnn-tool/history/20261130T030000Z-0001"));
            Path lib = Files.createDirectories(host.path("/opt/cudnn/lib"));
            String id = "20261130T030000Z-0001-" + History.targetTag(host.path("/opt/cudnn"));
            history = Files.move(history, history.resolveSibling(id));
            byte[] old = "# kept by the admin\n/opt/old/lib\n".getBytes(StandardCharsets.UTF_8);
            Files.write(conf(id), old);
            new SearchPathChange(host, new NioFileOps(), store, Scope.USER).apply(history, id, lib);
            assertEquals("/opt/cudnn/lib\n", Files.readString(conf(id)));
            Finding f = SearchPathChange.undo(host, store, history, id, false);
            assertArrayEquals(old, Files.readAllBytes(conf(id)), f.message());
            assertTrue(f.message().startsWith("restored " + conf(id)), f.message());
        }
    }

    @Test
    void aForgedRecordNamingAnotherFileOrAnotherTargetsIdIsDamagedStateAndNothingChanges() throws Exception {
        String[][] forgeries = {
            {"location", "\"/etc/ld.so.conf.d/libc.conf\"", "not this install's own"},
            {"location", "\"/etc/ld.so.conf.d/cudnn-tool-OTHER.conf\"", "not this install's own"},
            {"after", "{\"type\":0,\"data\":\"L3Vzci9saWIK\"}", "not the line"},
            {"written", "\"" + "0".repeat(64) + "\"", "sha256"},
            {"before", "{\"type\":1,\"data\":\"eA==\"}", "not of a kind"},
            {"entry", "\"/usr/lib\"", "not a folder inside"},
            {"entry", "\"/opt/cudnn/x#y\"", "not a folder inside"},
            {"scope", "[1]", "cannot be read"},
            {"extra", "1", "cannot be read"},
        };
        for (String[] f : forgeries) {
            try (FileSystem fs = TestHosts.unixFs()) {
                linux(fs);
                InstallOutcome o = install("9.5.1.17", "/opt/cudnn");
                InstallOutcome other = install("9.5.1.17", "/opt/other");
                Path recorded = host.path("/opt/cudnn/.cudnn-tool/history").resolve(o.record().id()).resolve(SearchPathChange.FILE);
                var node = (ObjectNode) JournalRunner.JSON.readTree(Files.readString(recorded));
                node.set(f[0], JournalRunner.JSON.readTree(f[1].replace("OTHER", other.record().id())));
                Files.writeString(recorded, node.toString());
                Map<String, String> etc = TreeSnapshot.of(fs.getPath("/etc"));
                Map<String, String> tree = TreeSnapshot.of(host.path("/opt"));
                ToolException e = assertThrows(ToolException.class, () -> rollback("/opt/cudnn", new NioFileOps()), f[0] + "=" + f[1]);
                assertEquals(ExitCode.NOTHING_TO_ROLL_BACK, e.exitCode(), e.getMessage());
                assertTrue(e.getMessage().contains(f[2]) && e.getMessage().contains(SearchPathChange.FILE), f[0] + ": " + e.getMessage());
                assertEquals(etc, TreeSnapshot.of(fs.getPath("/etc")), "no conf file touched");
                assertEquals(tree, TreeSnapshot.of(host.path("/opt")), "nothing in the targets changed");
            }
        }
    }

    @Test
    void aRecordCopiedUnderAnotherTargetsIdNeverRemovesThatTargetsConfFile() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            // /opt holds /opt/cudnn: a record in /opt may name folders inside /opt/cudnn.
            InstallOutcome inner = install("9.5.1.17", "/opt/cudnn");
            InstallOutcome outer = install("9.5.1.17", "/opt");
            String innerId = inner.record().id();
            Path hist = host.path("/opt/.cudnn-tool/history");
            Path forged = Files.move(hist.resolve(outer.record().id()), hist.resolve(innerId));
            Path json = forged.resolve("install.json");
            Files.writeString(json, Files.readString(json).replace(outer.record().id(), innerId));
            Path sp = forged.resolve(SearchPathChange.FILE);
            var node = (ObjectNode) JournalRunner.JSON.readTree(Files.readString(sp));
            node.put("location", conf(innerId).toString());
            node.put("entry", "/opt/cudnn/lib");
            Raw line = SearchPathEntries.confFile("/opt/cudnn/lib");
            node.set("after", JournalRunner.JSON.valueToTree(line));
            node.put("written", SearchPathChange.sha256(line.data()));
            Files.writeString(sp, node.toString());
            ToolException e = assertThrows(ToolException.class, () -> rollback("/opt", new NioFileOps()));
            assertEquals(ExitCode.NOTHING_TO_ROLL_BACK, e.exitCode());
            assertTrue(e.getMessage().contains("another target"), e.getMessage());
            assertEquals("/opt/cudnn/lib\n", Files.readString(conf(innerId)), "the other install's entry stays");
        }
    }

    // ---- A4 ----

    @Test
    void aLinkPlantedAtTheOldTemporaryNameOrAtTheFinalNameIsNeverFollowed() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            Path victim = Files.writeString(fs.getPath("/etc/shadow"), "root:secret\n");
            String id = History.newId(TestPorts.CLOCK.instant(), host.path("/opt/cudnn"), 0, x -> false);
            Files.createSymbolicLink(fs.getPath("/etc/ld.so.conf.d/cudnn-tool-" + id + ".conf.tmp"), victim);
            InstallOutcome o = install("9.5.1.17", "/opt/cudnn");
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            assertEquals("root:secret\n", Files.readString(victim), "the link's target is unchanged");
            assertEquals("/opt/cudnn/lib\n", Files.readString(conf(o.record().id())));
            assertTrue(Files.isRegularFile(conf(o.record().id()), LinkOption.NOFOLLOW_LINKS));

            // The store itself: a link at the final name is replaced as a link, its target untouched; a read never follows it.
            Path link = conf("20261130T030000Z-0009-00000000");
            Files.createSymbolicLink(link, victim);
            assertThrows(LdSoConfPathStore.NotAFile.class, () -> store.read(Scope.USER, "20261130T030000Z-0009-00000000"));
            store.write(Scope.USER, "20261130T030000Z-0009-00000000", SearchPathEntries.confFile("/opt/cudnn/lib"));
            assertEquals("root:secret\n", Files.readString(victim));
            assertEquals("/opt/cudnn/lib\n", Files.readString(link));
            assertFalse(Files.isSymbolicLink(link));
            try (Stream<Path> s = Files.list(fs.getPath("/etc/ld.so.conf.d"))) {
                assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".")), "no temporary file left");
            }
        }
    }

    @Test
    void rollbackLeavesALinkPlantedAtTheConfFilesNameAndItsTarget() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            InstallOutcome o = install("9.5.1.17", "/opt/cudnn");
            Path victim = Files.writeString(fs.getPath("/etc/important.conf"), "/opt/cudnn/lib\n");
            Files.delete(conf(o.record().id()));
            Files.createSymbolicLink(conf(o.record().id()), victim);
            RollbackOutcome r = rollback("/opt/cudnn", new NioFileOps());
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertEquals(Severity.WARN, finding(r.findings(), FindingId.ROLLBACK_SEARCH_PATH).severity());
            assertTrue(Files.isSymbolicLink(conf(o.record().id())));
            assertEquals("/opt/cudnn/lib\n", Files.readString(victim));
        }
    }

    // ---- D22 ----

    @Test
    void aRollbackThatFailsBeforeItsCommitLeavesTheSearchPathAsWellAndSaysNothingChanged() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            InstallOutcome o = install("9.5.1.17", "/opt/cudnn");
            long runs = ldconfigRuns();
            FailingFileOps full = new FailingFileOps().diskFull((op, p) -> op.equals("journal")
                    && p.getFileName().toString().startsWith("journal.json"));
            RollbackOutcome r = rollback("/opt/cudnn", full);
            assertEquals(ExitCode.INSTALL_ROLLED_BACK, r.exit(), r.summary());
            assertTrue(r.summary().contains("nothing was changed"), r.summary());
            assertEquals("/opt/cudnn/lib\n", Files.readString(conf(o.record().id())), "true to its word: the entry is still there");
            assertEquals(runs, ldconfigRuns());
        }
    }

    @Test
    void aRollbackThatFailsAfterTheSearchPathWasRestoredSaysSo() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            InstallOutcome o = install("9.5.1.17", "/opt/cudnn");
            AtomicInteger deletes = new AtomicInteger();
            FailingFileOps failsAtCommit = new FailingFileOps().diskFull((op, p) -> op.equals("delete")
                    && p.getFileName().toString().equals("journal.json") && deletes.incrementAndGet() == 1);
            RollbackOutcome r = rollback("/opt/cudnn", failsAtCommit);
            assertEquals(ExitCode.INSTALL_ROLLED_BACK, r.exit(), r.summary());
            assertFalse(r.summary().contains("nothing was changed"), r.summary());
            assertTrue(r.summary().contains("search path") && r.summary().contains(conf(o.record().id()).toString()), r.summary());
            assertFalse(Files.exists(conf(o.record().id())));
            assertTrue(Files.exists(host.path("/opt/cudnn/lib/libcudnn.so.9")), "the files were put back");
        }
    }

    @Test
    void anInstallThatAddsTheFolderDoesNotWarnThatItIsMissing() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            linux(fs);
            InstallOutcome without = install("9.5.1.17", "/opt/plain", null, new NioFileOps(), false);
            assertTrue(without.findings().stream().anyMatch(f -> f.is(FindingId.SEARCH_PATH_MISSING)), "the check fires: " + without.findings());
            for (boolean dry : new boolean[] {true, false}) {
                InstallOutcome o = install("9.5.1.17", "/opt/cudnn", Scope.USER, new NioFileOps(), dry);
                assertEquals(ExitCode.OK, o.exit(), o.summary());
                assertTrue(o.findings().stream().noneMatch(f -> f.is(FindingId.SEARCH_PATH_MISSING)), o.findings().toString());
                assertTrue(finding(o.findings(), FindingId.INSTALL_ADD_TO_PATH).message().contains("/opt/cudnn/lib"));
            }
        }
    }
}
