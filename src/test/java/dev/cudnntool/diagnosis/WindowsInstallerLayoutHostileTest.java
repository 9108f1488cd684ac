package dev.cudnntool.diagnosis;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Hostile %ProgramFiles% values and folder names under NVIDIA\CUDNN: verify answers, never crashes, never prints them raw. */
class WindowsInstallerLayoutHostileTest {
    private static final String TK = WindowsInstallerLayoutTest.TK;

    private static Host host(FileSystem fs, String programFiles) {
        Map<String, String> env = new HashMap<>(Map.of("CUDA_PATH", TK, "PATH", "C:\\Windows"));
        if (programFiles != null) {
            env.put("ProgramFiles", programFiles);
        }
        return TestHosts.windows(fs, env, new FakeRunner());
    }

    private static void answersCleanly(Host host, String what) {
        Cli.Run r = Cli.run(host, "verify", "--no-probe", "--json");
        assertTrue(r.exit() == 0 || r.exit() == 1, what + ": exit " + r.exit() + "\n" + r.err());
        assertFalse(r.err().contains("Exception") || r.out().contains("Exception"), what + ": " + r.err());
        assertTrue(r.json().has("findings"), what);
        Cli.Run text = Cli.run(host, "verify", "--no-probe");
        assertFalse(text.out().contains("\u001b") || text.err().contains("\u001b"), what + ": a raw escape reached the terminal");
        String md = Cli.run(host, "verify", "--no-probe", "--report").out();
        assertFalse(md.contains("\u001b"), what);
    }

    @Test
    void junkProgramFilesFallsBackAndNeverCrashes() {
        for (String pf : List.of("", "relative\\Program Files", "Program Files", "C:", "C:relative", "\\\\", "\\\\?\\C:\\x",
                "C:\\a<b>|\"?*", "C:\\x\u0000y", "C:\\x\u001b[31m", "C:\\" + "a".repeat(40_000), "::::", "\\\\server\\share\\pf",
                "C:\\Program Files\\..\\..\\..")) {
            FileSystem fs = WindowsInstallerLayoutTest.installed();
            answersCleanly(host(fs, pf), "ProgramFiles=" + pf.substring(0, Math.min(60, pf.length())));
        }
    }

    @Test
    void versionsThatOverflowOrCudaFoldersThatAreNoVersionAreIgnored() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        TestHosts.toolkit(fs.getPath(TK), "12.6.85");
        String root = "C:\\Program Files\\NVIDIA\\CUDNN\\";
        for (String rel : List.of("v99999999999.1\\bin\\12.6", "v9.99999999999\\bin\\12.6", "v9.5\\bin\\99999999999.6",
                "v9.5\\bin\\00.0", "v9.5\\bin\\12.6.1", "v9.5\\bin\\\u0661\u0662.6", "v\u0669.5\\bin\\12.6", "v-1.5\\bin\\12.6",
                "v9.5\\bin\\12.6\\x64", "v9.4\\bin\\12.6")) {
            TestHosts.write(fs.getPath(root + rel, "cudnn64_9.dll"), "MZ");
        }
        Files.writeString(fs.getPath(root + "v9.3"), "a file, not a release folder");
        Host h = host(fs, "C:\\Program Files");
        List<String> seen = new ArrayList<>();
        WindowsInstallerLayout.folders(h).forEach(f -> seen.add(f.release().getFileName() + "/" + f.cuda()));
        assertEquals(List.of("v9.5/12.6", "v9.5/00.0", "v9.4/12.6"), seen);
        answersCleanly(h, "overflowing versions");
    }

    /** More release folders than are kept: the newest are, whatever order the folder lists them in. */
    @Test
    void withManyReleaseFoldersTheNewestAreKept() {
        FileSystem fs = TestHosts.windowsFs();
        TestHosts.toolkit(fs.getPath(TK), "12.6.85");
        String root = "C:\\Program Files\\NVIDIA\\CUDNN\\";
        for (int i = 0; i < 200; i++) {
            TestHosts.write(fs.getPath(root + "v1." + i + "\\bin\\12.6", "cudnn64_9.dll"), "MZ");
        }
        TestHosts.write(fs.getPath(root + "v9.5\\bin\\12.6\\x64", "cudnn64_9.dll"), "MZ");
        List<WindowsInstallerLayout.Folder> folders = WindowsInstallerLayout.folders(host(fs, "C:\\Program Files"));
        assertEquals(WindowsInstallerLayout.MAX_FOLDERS, folders.size());
        assertEquals("v9.5", folders.get(0).release().getFileName().toString());
        assertEquals("v1.199", folders.get(1).release().getFileName().toString());
    }

    /** Seeded: thousands of folders with random names; at most MAX_FOLDERS are taken and every one is a real version. */
    @TestFactory
    Stream<DynamicTest> randomFolderNames() {
        String alphabet = "v0123456789..-x \u001b\n|`<>#";
        return Stream.of(7L, 19L, 2026L).map(seed -> dynamicTest("seed " + seed, () -> {
            Random rnd = new Random(seed);
            FileSystem fs = TestHosts.windowsFs();
            TestHosts.toolkit(fs.getPath(TK), "12.6.85");
            String root = "C:\\Program Files\\NVIDIA\\CUDNN\\";
            for (int i = 0; i < 600; i++) {
                StringBuilder release = new StringBuilder(rnd.nextBoolean() ? "v" : "");
                StringBuilder cuda = new StringBuilder();
                for (int k = rnd.nextInt(8); k >= 0; k--) {
                    release.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
                    cuda.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
                }
                if (rnd.nextInt(3) == 0) {
                    release = new StringBuilder("v" + rnd.nextInt(100) + "." + rnd.nextInt(1000));
                }
                if (rnd.nextInt(3) == 0) {
                    cuda = new StringBuilder(rnd.nextInt(100) + "." + rnd.nextInt(100));
                }
                try {
                    Files.createDirectories(fs.getPath(root + release.toString().strip(), "bin", cuda.toString().strip()));
                } catch (Exception invalidOnWindows) {
                    // a name Windows refuses: not made
                }
            }
            Host h = host(fs, "C:\\Program Files");
            List<WindowsInstallerLayout.Folder> folders = WindowsInstallerLayout.folders(h);
            assertTrue(folders.size() <= WindowsInstallerLayout.MAX_FOLDERS, "" + folders.size());
            for (WindowsInstallerLayout.Folder f : folders) {
                assertTrue(f.release().getFileName().toString().matches("v\\d{1,2}\\.\\d{1,3}"), f.toString());
                assertTrue(f.cuda().matches("\\d{1,2}\\.\\d{1,2}"), f.toString());
                f.cudaVersion();
            }
            answersCleanly(h, "seed " + seed);
        }));
    }
}
