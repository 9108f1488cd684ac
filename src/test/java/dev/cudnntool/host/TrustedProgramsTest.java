package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.searchpath.LdSoConfPathStore;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** #18 A5: programs run as root come from fixed, trusted places; a fake earlier on PATH is never run. */
class TrustedProgramsTest {
    @TempDir
    Path tmp;

    private static final Platform LINUX = new Platform(OsFamily.LINUX, Arch.X86_64, 64, false);

    private static Path program(FileSystem fs, String path, String mode) throws IOException {
        Path p = fs.getPath(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
        return p;
    }

    private static boolean ranFrom(FakeRunner runner, String folder) {
        return runner.calls.stream().anyMatch(c -> c.get(0).startsWith(folder));
    }

    @Test
    void fakeProgramsEarlierOnPathAreNeverRun() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            program(fs, "/home/me/bin/ldconfig", "rwxr-xr-x");
            program(fs, "/home/me/bin/nvidia-smi", "rwxr-xr-x");
            program(fs, "/home/me/bin/nvcc", "rwxr-xr-x");
            FakeRunner runner = new FakeRunner().on("ldconfig", FakeRunner.ok("")).on("nvidia-smi", NvidiaSmiOutputs.R535)
                    .on("nvcc --version", "Cuda compilation tools, release 12.2, V12.2.140");
            Host host = TestHosts.linux(fs, Map.of("PATH", "/home/me/bin:.:/usr/bin"), runner);
            fs.getPath("").toAbsolutePath(); // the current folder holds nothing of ours either

            // No trusted copies: nothing is run at all.
            assertThrows(IOException.class, () -> new LdSoConfPathStore(host).announce());
            assertEquals("driver.missing", DriverCheck.check(host, LINUX, null).findings().get(0).id());
            Path tk = Files.createDirectories(fs.getPath("/usr/local/cuda-12.2/include"));
            ToolkitLocator.read(host, tk.getParent(), "test");
            assertEquals(List.of(), runner.calls, "nothing from PATH was run");

            // The trusted copies are run, the ones earlier on PATH still never.
            program(fs, "/usr/sbin/ldconfig", "rwxr-xr-x");
            program(fs, "/usr/bin/nvidia-smi", "rwxr-xr-x");
            program(fs, "/usr/local/cuda-12.2/bin/nvcc", "rwxr-xr-x");
            new LdSoConfPathStore(host).announce();
            assertEquals("driver.ok", DriverCheck.check(host, LINUX, null).findings().get(0).id());
            assertEquals("nvcc", ToolkitLocator.read(host, tk.getParent(), "test").versionSource());
            assertFalse(ranFrom(runner, "/home/me"), runner.calls.toString());
            assertTrue(runner.calls.stream().allMatch(c -> List.of("/usr/sbin/ldconfig", "/usr/bin/nvidia-smi",
                    "/usr/local/cuda-12.2/bin/nvcc").contains(c.get(0))), runner.calls.toString());
        }
    }

    @Test
    void aProgramOthersMayWriteIsNotTrusted() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Host host = TestHosts.linux(fs, Map.of("PATH", "/usr/bin"), new FakeRunner());
            program(fs, "/sbin/ldconfig", "rwxrwxrwx");
            assertTrue(TrustedPrograms.ldconfig(host).isEmpty(), "world-writable /sbin/ldconfig");
            program(fs, "/usr/sbin/ldconfig", "rwxr-xr-x");
            assertEquals("/usr/sbin/ldconfig", TrustedPrograms.ldconfig(host).orElseThrow().toString());
            program(fs, "/usr/bin/nvidia-smi", "rwxrwxr-x");
            assertTrue(TrustedPrograms.nvidiaSmi(host, false).isEmpty(), "group-writable nvidia-smi");
            program(fs, "/usr/lib/wsl/lib/nvidia-smi", "rwxr-xr-x");
            assertTrue(TrustedPrograms.nvidiaSmi(host, false).isEmpty(), "WSL's folder only in WSL");
            assertEquals("/usr/lib/wsl/lib/nvidia-smi", TrustedPrograms.nvidiaSmi(host, true).orElseThrow().toString());
            program(fs, "/opt/cuda/bin/nvcc", "rwxrwxrwx");
            assertTrue(TrustedPrograms.nvcc(host, fs.getPath("/opt/cuda")).isEmpty());
        }
    }

    @Test
    void windowsTakesNvidiaSmiFromSystem32OrNvsmiNeverFromPath() throws Exception {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Files.createDirectories(fs.getPath("C:\\Tools"));
            Files.writeString(fs.getPath("C:\\Tools\\nvidia-smi.exe"), "MZ");
            Files.createDirectories(fs.getPath("C:\\Users\\me"));
            Files.writeString(fs.getPath("C:\\Users\\me\\nvidia-smi.exe"), "MZ"); // the current folder
            FakeRunner runner = new FakeRunner().on("nvidia-smi.exe", NvidiaSmiOutputs.WINDOWS);
            Host host = TestHosts.windows(fs, Map.of("PATH", "C:\\Tools;.", "SystemRoot", "C:\\Windows"), runner);
            Platform win = new Platform(OsFamily.WINDOWS, Arch.X86_64, 64, false);
            assertEquals("driver.missing", DriverCheck.check(host, win, null).findings().get(0).id());
            assertEquals(List.of(), runner.calls);
            Files.createDirectories(fs.getPath("C:\\Program Files\\NVIDIA Corporation\\NVSMI"));
            Files.writeString(fs.getPath("C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe"), "MZ");
            assertEquals("driver.ok", DriverCheck.check(host, win, null).findings().get(0).id());
            assertTrue(runner.calls.stream().allMatch(c -> c.get(0).equals("C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe")),
                    runner.calls.toString());
        }
    }

    @Test
    void onThisMachineOwnershipIsCheckedByUid() throws Exception {
        assumeTrue(Host.osFromName(System.getProperty("os.name")) == OsFamily.LINUX, "Linux only");
        Host host = new Host(FileSystems.getDefault(), Map.of(), OsFamily.LINUX, Arch.X86_64, 64, new FakeRunner());
        if (Files.isRegularFile(Path.of("/sbin/ldconfig")) && Integer.valueOf(0).equals(Files.getAttribute(Path.of("/sbin/ldconfig"), "unix:uid"))) {
            assertEquals("/sbin/ldconfig", TrustedPrograms.ldconfig(host).orElseThrow().toString());
        }
        Path p = Files.writeString(tmp.resolve("prog"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        boolean root = Integer.valueOf(0).equals(Files.getAttribute(p, "unix:uid"));
        assumeTrue(root, "needs root to give a file to another user");
        assertTrue(TrustedPrograms.untrusted(p, true, null) == null);
        Files.setAttribute(p, "unix:uid", 65534);
        assertNotNull(TrustedPrograms.untrusted(p, true, null), "owned by nobody");
        assertTrue(TrustedPrograms.untrusted(p, true, null).contains("not owned by root"));
        // nvcc: a toolkit in a user's folder may be that user's; a file of someone else's is not run.
        Path tk = Files.createDirectories(tmp.resolve("tk"));
        Files.setAttribute(tk, "unix:uid", 65534);
        assertTrue(TrustedPrograms.untrusted(p, false, tk) == null, "the toolkit's owner");
        Files.setAttribute(tk, "unix:uid", 12345);
        assertNotNull(TrustedPrograms.untrusted(p, false, tk), "neither root nor the toolkit's owner");
    }
}
