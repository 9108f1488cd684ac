package dev.cudnntool.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * #35: variations of each defect class, through the command line as a user meets them, with time
 * limits as hang guards only. Exit 70 (an internal error) is never the answer to bad input.
 */
class ClassesThroughTheCliTest {
    private static final Duration GUARD = Duration.ofSeconds(120);

    @Test
    void aRecordWhoseCreatedFolderClimbsAboveTheRootIsDamagedAndRepairable() throws Exception {
        String[] climbs = {"../../../../../../../../../../../../../../../../../..", "..".concat("/..".repeat(500))};
        for (String climb : climbs) {
            try (FileSystem fs = TestHosts.unixFs()) {
                Path root = StateFuzzTest.target(fs);
                Path record = root.resolve(".cudnn-tool/history/" + StateFuzzTest.ID + "/install.json");
                Files.writeString(record, "{\"id\":\"" + StateFuzzTest.ID + "\",\"installedAt\":\"2026-11-30T03:00:00Z\","
                        + "\"toolVersion\":\"0.1.0\",\"archiveFile\":\"cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz\","
                        + "\"version\":\"9.5.1\",\"installed\":[{\"path\":\"include/cudnn.h\",\"sha256\":\"" + "0".repeat(64)
                        + "\"}],\"backedUp\":[],\"createdDirs\":[\"" + climb + "\",\"include\"]}");
                Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
                Cli.Run rollback = assertTimeoutPreemptively(GUARD, () -> Cli.run(host, "rollback", "--prefix", root.toString()));
                assertEquals(8, rollback.exit(), rollback.err());
                assertTrue(rollback.err().contains("--repair"), rollback.err());
                Cli.Run list = assertTimeoutPreemptively(GUARD, () -> Cli.run(host, "rollback", "--list", "--prefix", root.toString()));
                assertNotEquals(70, list.exit(), list.err());
                assertTrue(list.out().contains("damaged"), list.out());
                Cli.Run repair = assertTimeoutPreemptively(GUARD,
                        () -> Cli.run(host, "rollback", "--repair", "--prefix", root.toString()));
                assertEquals(0, repair.exit(), repair.out() + repair.err());
                assertFalse(Files.exists(record), "set aside");
                Cli.Run after = Cli.run(host, "rollback", "--list", "--prefix", root.toString());
                assertFalse(after.out().contains("damaged"), after.out());
            }
        }
    }

    @Test
    void loaderCacheEntriesOfEveryShapeLeaveVerifyAnswering() throws Exception {
        for (String value : new String[] {"/", "", "lib", "/..", "//"}) {
            try (FileSystem fs = TestHosts.unixFs()) {
                Path tk = TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.2"), "12.2.0");
                Files.createDirectories(fs.getPath("/etc"));
                Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(new String[] {"libcudnn.so.9", value},
                        new String[] {"libcudnn.so", value}, new String[] {"libcudnn_ops.so.9", value}), LdSoCache.x8664Flags()));
                for (String ldPath : new String[] {value, "/:" + value + "::relative"}) {
                    Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", ldPath), new FakeRunner());
                    Cli.Run r = assertTimeoutPreemptively(GUARD,
                            () -> Cli.run(host, "verify", "--no-probe", "--cuda-path", tk.toString(), "--json"));
                    assertNotEquals(70, r.exit(), value + ": " + r.out() + r.err());
                    assertTrue(r.isJson(), r.out());
                }
            }
        }
    }

    @Test
    void aVersionHeaderOfMegabytesOfBlankLinesIsReadInOnePass() throws Exception {
        String header = ArchiveFixture.versionHeader(CudnnVersion.of(9, 5, 1));
        for (String filler : new String[] {"\n", " \n", "\t\r\n"}) {
            try (FileSystem fs = TestHosts.unixFs()) {
                Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
                Path dir = Files.createDirectories(fs.getPath("/downloads"));
                // the defines, then megabytes of blank lines (the reader reads a bounded head of the file)
                String blank = filler.repeat(4 * 1024 * 1024 / filler.length());
                Path a = ArchiveFixture.linux("9.5.1.17", "12").replace("include/cudnn_version.h", header + blank).writeTo(dir);
                Cli.Run r = assertTimeoutPreemptively(GUARD, () -> Cli.run(host, "inspect", a.toString(), "--json"));
                assertNotEquals(70, r.exit(), r.err());
                assertEquals("9.5.1", r.json().path("evidence").path("headerVersion").asText(), r.exit() + " " + r.json().path("findings"));
            }
        }
    }
}
