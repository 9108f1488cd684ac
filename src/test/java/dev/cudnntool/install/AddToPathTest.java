package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.searchpath.LdSoConfPathStore;
import dev.cudnntool.host.searchpath.SearchPathEntries;
import dev.cudnntool.host.searchpath.SearchPathStore.Raw;
import dev.cudnntool.host.searchpath.SearchPathStore.Scope;
import dev.cudnntool.host.searchpath.SearchPathStore;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.JournalRunner;
import dev.cudnntool.target.NioFileOps;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FailingFileOps;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.FakeSearchPathStore;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TestPorts;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** install --add-to-path: the change is recorded before it is made, and every undo restores it exactly. */
class AddToPathTest {
    @TempDir
    Path downloads;

    static final String OLD = "%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps;C:\\Tools\\bin;;C:\\Users\\me\\go\\bin";

    /** An install with --add-to-path naming {@code scope}, written to {@code store}. */
    static InstallOutcome install(Host host, Path archive, Path prefix, SearchPathStore store, Scope scope,
                                  PostInstallCheck check, boolean dryRun) {
        return install(host, new NioFileOps(), archive, prefix, store, scope, check, dryRun);
    }

    static InstallOutcome install(Host host, FileOps ops, Path archive, Path prefix, SearchPathStore store, Scope scope,
                                  PostInstallCheck check, boolean dryRun) {
        return new InstallService(TestPorts.ports(host, ops, check, InstallPorts.NOBODY, store)).run(
                new InstallRequest(archive, null, null, prefix, false, dryRun, scope, null), ReadProgress.NONE);
    }

    static RollbackOutcome rollback(Host host, SearchPathStore store, Path prefix, boolean dryRun) {
        return TestPorts.rollback(host, new NioFileOps(), store)
                .rollback(InstallTarget.prefix(prefix, host.os()), null, false, dryRun);
    }

    static Host windows(FileSystem fs) {
        return TestHosts.windows(fs, Map.of("PATH", "C:\\Windows\\System32", "USERPROFILE", "C:\\Users\\me"), new FakeRunner());
    }

    static Finding finding(List<Finding> findings, String id) {
        return findings.stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow(() -> new AssertionError(id + " in " + findings));
    }

    @Test
    void windowsUserPathGetsTheFolderAppendedAndRollbackRestoresTheOldValueByteForByte() throws Exception {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Host host = windows(fs);
            FakeSearchPathStore store = new FakeSearchPathStore();
            Raw old = FakeSearchPathStore.windows(Raw.REG_EXPAND_SZ, OLD);
            store.values.put(Scope.USER, old);
            Path prefix = fs.getPath("C:\\cudnn");
            Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(downloads);

            InstallOutcome o = install(host, archive, prefix, store, Scope.USER, PostInstallCheck.NONE, false);
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            assertEquals(OLD + ";C:\\cudnn\\bin", store.text(Scope.USER), "appended, every other entry untouched");
            assertEquals(Raw.REG_EXPAND_SZ, store.values.get(Scope.USER).type(), "the type is kept");
            assertEquals(1, store.announced, "WM_SETTINGCHANGE");
            assertTrue(finding(o.findings(), "install.add-to-path").message().contains("C:\\cudnn\\bin"));
            Path recorded = prefix.resolve(".cudnn-tool\\history").resolve(o.record().id()).resolve(SearchPathChange.FILE);
            assertTrue(Files.isRegularFile(recorded), "the old value is recorded in the install's history folder");

            RollbackOutcome r = rollback(host, store, prefix, false);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertArrayEquals(old.data(), store.values.get(Scope.USER).data());
            assertEquals(Raw.REG_EXPAND_SZ, store.values.get(Scope.USER).type());
            assertTrue(finding(r.findings(), "rollback.search-path").message().contains("exactly"), r.findings().toString());
            assertEquals(2, store.announced);
        }
    }

    @Test
    void theSearchPathRecordIsWrittenThroughFileOpsSoAFullDiskThereUndoesTheInstallAndLeavesThePathAlone() throws Exception {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Host host = windows(fs);
            FakeSearchPathStore store = new FakeSearchPathStore();
            Raw old = FakeSearchPathStore.windows(Raw.REG_EXPAND_SZ, OLD);
            store.values.put(Scope.USER, old);
            Path prefix = fs.getPath("C:\\cudnn");
            Files.createDirectories(prefix);
            Map<String, String> before = TreeSnapshot.of(prefix);
            Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(downloads);
            FailingFileOps full = new FailingFileOps().diskFull((op, p) -> op.equals("journal")
                    && p.getFileName().toString().equals(SearchPathChange.FILE));
            InstallOutcome o = install(host, full, archive, prefix, store, Scope.USER, PostInstallCheck.NONE, false);
            assertEquals(ExitCode.INSTALL_ROLLED_BACK, o.exit(), o.summary());
            assertTrue(o.summary().contains("No space left on device"), o.summary());
            assertArrayEquals(old.data(), store.values.get(Scope.USER).data(), "the search path was never changed");
            assertEquals(before, TreeSnapshot.of(prefix), "every file is back as it was");
        }
    }

    @Test
    void aForgedOrDamagedSearchPathRecordIsRefusedWithExit8AndNothingChanges() throws Exception {
        // The record is input: it may only take out the one entry it added, a folder inside the target.
        String[][] forgeries = {
            {"scope", "\"machine\"", null}, // fine by itself: but the machine value then differs from "after"
            {"entry", "\"C:\\\\Windows\\\\System32\"", "not a folder inside"},
            {"entry", "\"C:\\\\cudnn\\\\..\\\\Windows\"", "not a folder inside"},
            {"scope", "\"root\"", "neither user nor machine"},
            {"scope", "null", "fields are missing"},
            {"before", "{\"type\":2,\"data\":\"QzpcZXZpbA==\"}", "not the value before"},
            {null, "{\"scope\":", "cannot be read"},
        };
        for (String[] f : forgeries) {
            try (FileSystem fs = TestHosts.windowsFs()) {
                Host host = windows(fs);
                FakeSearchPathStore store = new FakeSearchPathStore();
                store.values.put(Scope.USER, FakeSearchPathStore.windows(Raw.REG_EXPAND_SZ, OLD));
                Path prefix = fs.getPath("C:\\cudnn");
                Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(Files.createTempDirectory(downloads, "a"));
                InstallOutcome o = install(host, archive, prefix, store, Scope.USER,
                        PostInstallCheck.NONE, false);
                assertEquals(ExitCode.OK, o.exit(), o.summary());
                Path recorded = prefix.resolve(".cudnn-tool\\history").resolve(o.record().id()).resolve(SearchPathChange.FILE);
                String json = Files.readString(recorded);
                if (f[0] == null) {
                    json = f[1];
                } else {
                    var node = (ObjectNode) JournalRunner.JSON.readTree(json);
                    node.set(f[0], JournalRunner.JSON.readTree(f[1]));
                    json = node.toString();
                }
                Files.writeString(recorded, json);
                Map<Scope, Raw> storeBefore = Map.copyOf(store.values);
                Map<String, String> tree = TreeSnapshot.of(prefix);
                int exit;
                String said;
                try {
                    RollbackOutcome r = rollback(host, store, prefix, false);
                    exit = r.exit().code();
                    said = r.summary() + r.findings();
                } catch (ToolException e) {
                    exit = e.exitCode().code();
                    said = e.getMessage();
                }
                if (f[2] == null) { // a machine scope whose value is not what the install wrote: nothing to undo there
                    assertEquals(storeBefore, store.values, said);
                    continue;
                }
                assertEquals(8, exit, f[0] + "=" + f[1] + ": " + said);
                assertTrue(said.contains(f[2]) && said.contains(SearchPathChange.FILE) && !said.contains("\n"), said);
                assertEquals(storeBefore, store.values, "the search path is untouched");
                assertEquals(tree, TreeSnapshot.of(prefix), "nothing in the target changed");
            }
        }
    }

    @Test
    void aPathTheUserEditedSinceLosesOnlyTheEntryTheInstallAdded() throws Exception {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Host host = windows(fs);
            FakeSearchPathStore store = new FakeSearchPathStore();
            store.values.put(Scope.USER, FakeSearchPathStore.windows(Raw.REG_SZ, OLD));
            Path prefix = fs.getPath("C:\\cudnn");
            Path archive = ArchiveFixture.windows("9.18.0.77", "12").writeTo(downloads);
            assertEquals(ExitCode.OK, install(host, archive, prefix, store, Scope.USER,
                    PostInstallCheck.NONE, false).exit());
            assertEquals(OLD + ";C:\\cudnn\\bin\\x64", store.text(Scope.USER), "9.18+: bin\\x64");
            store.values.put(Scope.USER, FakeSearchPathStore.windows(Raw.REG_SZ, "C:\\Python312;" + store.text(Scope.USER)));

            RollbackOutcome r = rollback(host, store, prefix, false);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertEquals("C:\\Python312;" + OLD, store.text(Scope.USER), "the user's edit stays");
            assertEquals(Raw.REG_SZ, store.values.get(Scope.USER).type());
            assertTrue(finding(r.findings(), "rollback.search-path").message().contains("only the entry it added"));
        }
    }

    @Test
    void noUserPathBeforeMeansNoneAfterTheRollback() throws Exception {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Host host = windows(fs);
            FakeSearchPathStore store = new FakeSearchPathStore();
            Path prefix = fs.getPath("C:\\cudnn");
            Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(downloads);
            assertEquals(ExitCode.OK, install(host, archive, prefix, store, Scope.USER,
                    PostInstallCheck.NONE, false).exit());
            assertEquals("C:\\cudnn\\bin", store.text(Scope.USER));
            assertEquals(Raw.REG_EXPAND_SZ, store.values.get(Scope.USER).type());
            assertEquals(ExitCode.OK, rollback(host, store, prefix, false).exit());
            assertNull(store.values.get(Scope.USER));
        }
    }

    @Test
    void aFailedPostInstallCheckUndoesThePathChangeWithTheFiles() throws Exception {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Host host = windows(fs);
            FakeSearchPathStore store = new FakeSearchPathStore();
            Raw old = FakeSearchPathStore.windows(Raw.REG_EXPAND_SZ, OLD);
            store.values.put(Scope.USER, old);
            Path prefix = fs.getPath("C:\\cudnn");
            Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(downloads);
            PostInstallCheck fails = (t, report) -> {
                assertEquals(OLD + ";C:\\cudnn\\bin", store.text(Scope.USER), "the change is made before the probe");
                return List.of(Finding.error(FindingId.CUDNN_LOAD_FAILED, "the probe could not load it", "fix"));
            };
            InstallOutcome o = install(host, archive, prefix, store, Scope.USER, fails, false);
            assertEquals(ExitCode.INSTALL_ROLLED_BACK, o.exit(), o.summary());
            assertArrayEquals(old.data(), store.values.get(Scope.USER).data());
            assertFalse(Files.exists(prefix.resolve("bin")));
        }
    }

    @Test
    void machineScopeWithoutAdministratorStopsWithExit5AndChangesNothing() throws Exception {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Host host = windows(fs);
            FakeSearchPathStore store = new FakeSearchPathStore();
            store.readOnly.add(Scope.MACHINE);
            store.values.put(Scope.MACHINE, FakeSearchPathStore.windows(Raw.REG_EXPAND_SZ, "%SystemRoot%\\system32"));
            Path prefix = fs.getPath("C:\\cudnn");
            Files.createDirectories(prefix);
            Map<String, String> before = TreeSnapshot.of(prefix);
            Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(downloads);
            Scope change = Scope.MACHINE;

            InstallOutcome dry = install(host, archive, prefix, store, change, PostInstallCheck.NONE, true);
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, dry.exit(), "the dry run exits as the real run would");
            ToolException e = assertThrows(ToolException.class,
                    () -> install(host, archive, prefix, store, change, PostInstallCheck.NONE, false));
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode());
            assertTrue(e.getMessage().contains("Administrator") && e.fix().contains("elevated"), e.getMessage() + e.fix());
            assertEquals(before, TreeSnapshot.of(prefix));
            assertEquals("%SystemRoot%\\system32", store.text(Scope.MACHINE));
        }
    }

    @Test
    void dryRunsSayWhatWouldChangeAndChangeNothing() throws Exception {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Host host = windows(fs);
            FakeSearchPathStore store = new FakeSearchPathStore();
            store.values.put(Scope.USER, FakeSearchPathStore.windows(Raw.REG_EXPAND_SZ, OLD));
            Path prefix = fs.getPath("C:\\cudnn");
            Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(downloads);
            Scope change = Scope.USER;
            InstallOutcome dry = install(host, archive, prefix, store, change, PostInstallCheck.NONE, true);
            assertEquals(ExitCode.OK, dry.exit(), dry.summary());
            assertTrue(finding(dry.findings(), "install.add-to-path").message().startsWith("would add C:\\cudnn\\bin to the user PATH"));
            assertEquals(OLD, store.text(Scope.USER));

            install(host, archive, prefix, store, change, PostInstallCheck.NONE, false);
            RollbackOutcome r = rollback(host, store, prefix, true);
            assertTrue(finding(r.findings(), "rollback.search-path").message().startsWith("would restore"), r.findings().toString());
            assertEquals(OLD + ";C:\\cudnn\\bin", store.text(Scope.USER));
        }
    }

    @Test
    void aFolderOnTheSearchPathAlreadyIsNotAddedTwice() throws Exception {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Host host = windows(fs);
            FakeSearchPathStore store = new FakeSearchPathStore();
            store.values.put(Scope.MACHINE, FakeSearchPathStore.windows(Raw.REG_EXPAND_SZ, "c:\\CUDNN\\bin\\"));
            Path prefix = fs.getPath("C:\\cudnn");
            Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(downloads);
            InstallOutcome o = install(host, archive, prefix, store, Scope.USER, PostInstallCheck.NONE, false);
            assertEquals(ExitCode.OK, o.exit());
            assertNull(store.values.get(Scope.USER));
            assertTrue(finding(o.findings(), "install.add-to-path").message().contains("already"));
            assertFalse(Files.exists(prefix.resolve(".cudnn-tool\\history").resolve(o.record().id()).resolve(SearchPathChange.FILE)));
        }
    }

    @Test
    void linuxWritesAConfFileRunsLdconfigAndRollbackRemovesIt() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            FakeRunner runner = new FakeRunner().on("ldconfig", FakeRunner.ok(""));
            TestHosts.ldconfig(fs);
            Host host = TestHosts.linux(fs, Map.of(), runner);
            Files.createDirectories(fs.getPath("/etc/ld.so.conf.d"));
            Files.writeString(fs.getPath("/etc/ld.so.conf.d/libc.conf"), "/usr/local/lib\n");
            Map<String, String> etc = TreeSnapshot.of(fs.getPath("/etc"));
            LdSoConfPathStore store = new LdSoConfPathStore(host);
            Path prefix = fs.getPath("/opt/cudnn");
            Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads);

            InstallOutcome o = install(host, archive, prefix, store, Scope.USER, PostInstallCheck.NONE, false);
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            Path conf = fs.getPath("/etc/ld.so.conf.d/cudnn-tool-" + o.record().id() + ".conf");
            assertEquals("/opt/cudnn/lib\n", Files.readString(conf));
            assertEquals(1, runner.calls.stream().filter(c -> c.get(0).endsWith("ldconfig")).count());

            RollbackOutcome r = rollback(host, store, prefix, false);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertEquals(etc, TreeSnapshot.of(fs.getPath("/etc")), "the conf file is gone, nothing else changed");
            assertEquals(2, runner.calls.stream().filter(c -> c.get(0).endsWith("ldconfig")).count(), "ldconfig rerun");
        }
    }

    @Test
    void linuxWithoutRootStopsWithExit5AndOffersTheLdLibraryPathLine() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
            SearchPathStore notRoot = new LdSoConfPathStore(host) {
                @Override
                public String cannotWrite(Scope scope) {
                    return "writing /etc/ld.so.conf.d needs root";
                }
            };
            Path prefix = fs.getPath("/opt/cudnn");
            Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads);
            ToolException e = assertThrows(ToolException.class, () -> install(host, archive, prefix,
                    notRoot, Scope.USER, PostInstallCheck.NONE, false));
            assertEquals(ExitCode.TARGET_NOT_WRITABLE, e.exitCode());
            assertTrue(e.fix().contains("export LD_LIBRARY_PATH=/opt/cudnn/lib:$LD_LIBRARY_PATH"), e.fix());
            assertFalse(Files.exists(prefix.resolve("lib")));
        }
    }

    @Test
    void aKilledInstallResumedByRollbackUndoesThePathChangeToo() throws Exception {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Host host = windows(fs);
            FakeSearchPathStore store = new FakeSearchPathStore();
            Raw old = FakeSearchPathStore.windows(Raw.REG_EXPAND_SZ, OLD);
            store.values.put(Scope.USER, old);
            Path prefix = fs.getPath("C:\\cudnn");
            Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(downloads);
            // The probe never returns: the process "dies" with the journal and the path change in place.
            PostInstallCheck killed = (t, report) -> {
                throw new IllegalStateException("killed");
            };
            assertThrows(IllegalStateException.class, () -> install(host, archive, prefix,
                    store, Scope.USER, killed, false));
            assertEquals(OLD + ";C:\\cudnn\\bin", store.text(Scope.USER));
            RollbackOutcome r = rollback(host, store, prefix, false);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertArrayEquals(old.data(), store.values.get(Scope.USER).data());
        }
    }

    @Test
    void entriesAreAppendedAndRemovedWithoutTouchingOtherBytes() {
        Raw old = FakeSearchPathStore.windows(Raw.REG_EXPAND_SZ, "A;;B;");
        Raw with = SearchPathEntries.windowsWith(old, "C:\\x");
        assertEquals("A;;B;C:\\x", new String(with.data(), StandardCharsets.UTF_16LE).replace("\0", ""));
        assertEquals("A;;B", SearchPathEntries.windowsText(
                SearchPathEntries.windowsWithout(with, "c:\\X\\")));
        Map<String, String> env = SearchPathEntries.withPersistentPath(
                Map.of("Path", "C:\\Windows;C:\\old"), List.of("c:\\windows", "C:\\cudnn\\bin"));
        assertEquals("C:\\Windows;C:\\old;C:\\cudnn\\bin", env.get("Path"), "registry entries a stale shell lacks are appended");
        assertEquals("C:\\Users\\me\\bin", SearchPathEntries.expand("%userprofile%\\bin",
                Map.of("USERPROFILE", "C:\\Users\\me")));
    }
}
