package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.Arch;
import dev.cudnntool.Finding;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.host.searchpath.LdSoConfPathStore;
import dev.cudnntool.host.searchpath.SearchPathStore;
import dev.cudnntool.target.NioFileOps;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --add-to-path on a real Linux as root: the conf file and ldconfig for real; /etc is restored in a finally. */
class AddToPathLinuxRootTest {
    @TempDir
    Path dir;

    @Test
    void writesTheConfFileRunsLdconfigAndTheUndoRemovesIt() throws Exception {
        Path confDir = Path.of("/etc/ld.so.conf.d");
        assumeTrue(Host.osFromName(System.getProperty("os.name")) == OsFamily.LINUX, "Linux only");
        assumeTrue(Files.isDirectory(confDir) && Files.isWritable(confDir), "needs root (writes /etc/ld.so.conf.d)");
        assumeTrue(Files.isExecutable(Path.of("/sbin/ldconfig")) || Files.isExecutable(Path.of("/usr/sbin/ldconfig")), "needs ldconfig");
        Host host = new Host(FileSystems.getDefault(), System.getenv(), OsFamily.LINUX, Arch.X86_64, 64, new SystemProcessRunner());
        SearchPathStore store = new LdSoConfPathStore(host);
        String id = "test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        Path conf = confDir.resolve("cudnn-tool-" + id + ".conf");
        Path lib = Files.createDirectories(dir.resolve("cudnn").resolve("lib"));
        Path history = Files.createDirectories(dir.resolve("history"));
        try {
            Finding added = new SearchPathChange(host, new NioFileOps(), store, SearchPathStore.Scope.USER).apply(history, id, lib);
            assertEquals(lib + "\n", Files.readString(conf));
            assertTrue(added.message().contains("ldconfig was run") && !added.message().contains("failed"), added.message());
            assertTrue(Files.isRegularFile(history.resolve(SearchPathChange.FILE)), "recorded");

            Finding undone = SearchPathChange.undo(host, store, history, id, false);
            assertFalse(Files.exists(conf));
            assertTrue(undone.message().startsWith("removed " + conf), undone.message());
        } finally {
            if (Files.deleteIfExists(conf)) {
                new SystemProcessRunner().run(List.of(Files.isExecutable(Path.of("/sbin/ldconfig")) ? "/sbin/ldconfig"
                        : "/usr/sbin/ldconfig"), Duration.ofSeconds(60));
            }
        }
    }
}
