package dev.cudnntool.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.fetch.SafeFiles;
import dev.cudnntool.testing.Seeds;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** #32 item 3: the probe's crash report goes into a private 0700 folder of the tool's own, or nowhere. */
class CrashFolderTest {
    private static final String[] PLANTED = {"none", "own-0700", "own-0755", "own-0777", "other-0700", "root-0700",
        "symlink-to-own", "symlink-dangling", "file", "hardlinked-file"};

    @TestFactory
    Stream<DynamicTest> theFolderIsUsedOnlyWhenItIsPrivateAndTheCallers() {
        long seed = Seeds.seed(32_3);
        return IntStream.range(0, Seeds.tries(40, 400)).mapToObj(i -> {
            Random r = new Random(Seeds.caseSeed(seed, i));
            String planted = PLANTED[r.nextInt(PLANTED.length)];
            return DynamicTest.dynamicTest(i + " " + planted, Seeds.replayable("CrashFolderTest", seed, i, () -> {
                FileSystem fs = TestHosts.unixFs();
                UserPrincipal caller = SafeFiles.caller(fs);
                Path tmp = Files.createDirectories(fs.getPath("/tmp"));
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
                Path dir = tmp.resolve(CrashFolder.PREFIX + "user");
                Path elsewhere = Files.createDirectories(fs.getPath("/home/other/stolen"));
                switch (planted) {
                    case "none" -> { }
                    case "symlink-to-own" -> Files.createSymbolicLink(dir, elsewhere);
                    case "symlink-dangling" -> Files.createSymbolicLink(dir, fs.getPath("/nowhere/at/all"));
                    case "file" -> Files.writeString(dir, "x");
                    case "hardlinked-file" -> Files.createLink(dir, Files.writeString(fs.getPath("/home/other/f"), "x"));
                    default -> {
                        String[] p = planted.split("-");
                        Files.createDirectory(dir);
                        Files.setOwner(dir, fs.getUserPrincipalLookupService().lookupPrincipalByName(p[0].equals("own") ? "user" : p[0]));
                        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString(
                                switch (p[1]) { case "0755" -> "rwxr-xr-x"; case "0777" -> "rwxrwxrwx"; default -> "rwx------"; }));
                    }
                }
                Path got = CrashFolder.prepare(tmp, caller);
                boolean usable = planted.equals("none") || planted.equals("own-0700");
                if (usable) {
                    assertEquals(dir, got);
                    assertFalse(Files.isSymbolicLink(got));
                    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(got, LinkOption.NOFOLLOW_LINKS)));
                    assertEquals("user", Files.getOwner(got, LinkOption.NOFOLLOW_LINKS).getName());
                    List<String> opts = ProbeRunner.crashOptions(got);
                    assertTrue(opts.get(0).startsWith("-XX:ErrorFile=" + got + "/"), opts.toString());
                } else {
                    assertNull(got);
                    assertEquals(List.of("-XX:+ErrorFileToStderr", "-XX:-CreateCoredumpOnCrash"), ProbeRunner.crashOptions(got));
                    assertFalse(Files.exists(elsewhere.resolve("cudnn-probe-hs_err_pid1.log")));
                }
                assertTrue(Files.isDirectory(elsewhere) && Files.list(elsewhere).findAny().isEmpty(), "nothing written through a link");
            }));
        });
    }

    @Test
    void aHostileUserNameBecomesAPlainFileName() {
        assertEquals("a_b_.._c", CrashFolder.safeName("a/b/../c").replace("__", "_"));
        assertEquals("_x", CrashFolder.safeName(".x"));
        assertEquals("user", CrashFolder.safeName(""));
        assertEquals("a_b", CrashFolder.safeName("a\u001bb"));
    }

    @Test
    void onThisMachineALinkPlantedInTheTempFolderIsRefused(@TempDir Path tmp) throws Exception {
        UserPrincipal me = SafeFiles.caller(tmp.getFileSystem());
        Path target = Files.createDirectories(tmp.resolve("victim"));
        Files.createSymbolicLink(tmp.resolve(CrashFolder.PREFIX + CrashFolder.safeName(me.getName())), target);
        assertNull(CrashFolder.prepare(tmp, me));
        Path fresh = Files.createDirectories(tmp.resolve("clean"));
        Path made = CrashFolder.prepare(fresh, me);
        assertEquals(fresh.resolve(CrashFolder.PREFIX + CrashFolder.safeName(me.getName())), made);
        if (made.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(made)));
        }
    }
}
