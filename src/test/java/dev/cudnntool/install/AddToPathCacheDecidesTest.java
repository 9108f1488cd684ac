package dev.cudnntool.install;

import dev.cudnntool.target.NioFileOps;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.searchpath.LdSoConfPathStore;
import dev.cudnntool.host.searchpath.SearchPathStore.Scope;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 18 D 17: a folder named in an ld.so.conf.d file but not in /etc/ld.so.cache is not on the loader's path yet. */
class AddToPathCacheDecidesTest {
    @TempDir
    Path downloads;

    @Test
    void aFolderListedButNotCachedIsNotAlreadyThere() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            FakeRunner runner = new FakeRunner().on("ldconfig", FakeRunner.ok(""));
            TestHosts.ldconfig(fs);
            Host host = TestHosts.linux(fs, Map.of(), runner);
            TestHosts.write(fs.getPath("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
            TestHosts.write(fs.getPath("/etc/ld.so.conf.d/cudnn.conf"), "/opt/cudnn/lib\n");
            Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(
                    new String[] {"libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1"}), LdSoCache.x8664Flags()));
            LdSoConfPathStore store = new LdSoConfPathStore(host);
            SearchPathChange change = new SearchPathChange(host, new NioFileOps(), store, Scope.USER);
            assertFalse(change.alreadyThere(fs.getPath("/opt/cudnn/lib")), "listed, never cached: ldconfig has not run");

            Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads);
            InstallOutcome o = AddToPathTest.install(host, archive, fs.getPath("/opt/cudnn"), store, Scope.USER, PostInstallCheck.NONE, false);
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            assertFalse(AddToPathTest.finding(o.findings(), "install.add-to-path").message().contains("already"), o.findings().toString());
            assertTrue(runner.calls.stream().anyMatch(c -> c.get(0).endsWith("ldconfig")), "ldconfig run");
        }
    }

    @Test
    void aFolderListedAndCachedIsAlreadyThere() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
            TestHosts.write(fs.getPath("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
            TestHosts.write(fs.getPath("/etc/ld.so.conf.d/cudnn.conf"), "/opt/cudnn/lib\n");
            Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(
                    new String[] {"libcudnn.so.9", "/opt/cudnn/lib/libcudnn.so.9"}), LdSoCache.x8664Flags()));
            assertTrue(new SearchPathChange(host, new NioFileOps(), new LdSoConfPathStore(host), Scope.USER).alreadyThere(fs.getPath("/opt/cudnn/lib")));
        }
    }
}
