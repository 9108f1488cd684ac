package dev.cudnntool.verify;
import static dev.cudnntool.verify.LinuxDiagnosisTest.all;
import static dev.cudnntool.verify.LinuxDiagnosisTest.find;
import static dev.cudnntool.verify.LinuxDiagnosisTest.none;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Arch;
import dev.cudnntool.Finding;
import dev.cudnntool.OsFamily;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.host.Host;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.DeniedFolders;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 19 (diagnosis, round three) on jimfs: how people really have the files laid out. Each test
 * failed on the code before its change (verify said "no cuDNN is installed; nothing is broken").
 */
class LinuxLayoutDiagnosisTest {
    static final String TK = "/usr/local/cuda-12.6";
    static final String LIB = TK + "/targets/x86_64-linux/lib";

    final FileSystem fs = TestHosts.unixFs();
    final FakeRunner runner = new FakeRunner();

    Host host(Map<String, String> env) {
        Map<String, String> e = new HashMap<>(Map.of("PATH", "/usr/bin"));
        e.putAll(env);
        return TestHosts.linux(fs, e, runner);
    }

    VerifyReport verify(Host host) {
        return new VerifyService(host, null).verify(null, null, null);
    }

    /** cuDNN 9.5.1 as an archive lays it out (real file, soname link, dev link), then {@code drop} links removed. */
    Path install(Path lib, boolean sonameLinks) throws Exception {
        Files.createDirectories(lib);
        for (String base : CudnnComponents.libraries(9)) {
            String soname = CudnnComponents.linuxSoname(base, 9);
            String real = soname + ".5.1";
            Files.write(lib.resolve(real), ElfImages.so(soname, List.of("libc.so.6"), "$ORIGIN",
                    List.of(base.equals("cudnn") ? "cudnnGetVersion" : "internal_" + base)));
            if (sonameLinks) {
                Files.createSymbolicLink(lib.resolve(soname), fs.getPath(real));
            }
        }
        Path inc = fs.getPath(TK, "include");
        Files.createDirectories(inc);
        for (String h : CudnnComponents.headers(9)) {
            Files.writeString(inc.resolve(h), h.equals("cudnn_version.h") ? ArchiveFixture.versionHeader(CudnnVersion.parse("9.5.1"))
                    : "/* " + h + " */\n");
        }
        return lib;
    }

    /** A1: only libcudnn*.so.9.5.1, no libcudnn*.so.9 links: found, and the missing links are the error, with ldconfig -n. */
    @Test
    void fullVersionFilesWithoutSonameLinksAreACopyWithNoSonameLinkError() throws Exception {
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        Path lib = install(fs.getPath(LIB), false);
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)));
        assertNotNull(r.cudnn(), "cuDNN was not seen: " + r.findings());
        assertFalse(r.ok());
        assertEquals(lib.resolve("libcudnn.so.9.5.1"), r.cudnn().mainLibrary());
        Finding f = find(r, "cudnn.no-soname-link");
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.message().contains(LIB) && f.message().contains("libcudnn.so.9.5.1") && f.message().contains("libcudnn_graph.so.9"),
                f.message());
        assertTrue(f.fix().startsWith("sudo ldconfig -n " + LIB), f.fix());
        none(r, "cudnn.incomplete");
        none(r, "cudnn.missing");
        assertEquals(1, all(r, "cudnn.no-soname-link").size());
    }

    /** A1: the one link deleted after ldconfig: the exact ln -s that puts it back. */
    @Test
    void theMainSonameLinkDeletedAfterLdconfigIsTheExactLnCommand() throws Exception {
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        Path lib = install(fs.getPath(LIB), true);
        Files.delete(lib.resolve("libcudnn.so.9"));
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)));
        Finding f = find(r, "cudnn.no-soname-link");
        assertTrue(f.fix().startsWith("sudo ln -s libcudnn.so.9.5.1 " + LIB + "/libcudnn.so.9"), f.fix());
        assertTrue(f.message().contains("libcudnn.so.9.5.1 but no libcudnn.so.9 link"), f.message());
        assertFalse(r.ok());
    }

    /** A healthy layout raises no cudnn.no-soname-link. */
    @Test
    void aCompleteLayoutHasNoSonameFinding() throws Exception {
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        install(fs.getPath(LIB), true);
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)));
        assertNotNull(r.cudnn());
        none(r, "cudnn.no-soname-link");
        assertTrue(r.ok(), r.findings().toString());
    }

    /** A1 in the user's own folder: no sudo in the fix. */
    @Test
    void aCopyUnderHomeIsFixedWithoutSudo() throws Exception {
        install(fs.getPath("/home/ann/cudnn/lib"), false);
        VerifyReport r = new VerifyService(host(Map.of("HOME", "/home/ann")), null).verify(null, fs.getPath("/home/ann/cudnn"), null);
        Finding f = find(r, "cudnn.no-soname-link");
        assertTrue(f.fix().startsWith("ldconfig -n /home/ann/cudnn/lib"), f.fix());
    }

    /** A2: the library folder is 0700 and another user's: cudnn.unreadable naming it, not "nothing installed". */
    @Test
    void aLibraryFolderTheUserCannotEnterIsUnreadableNotMissing() throws Exception {
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        install(fs.getPath(LIB), true);
        FileSystem denied = DeniedFolders.wrap(fs, LIB);
        Host host = TestHosts.linux(denied, Map.of("PATH", "/usr/bin", "CUDA_PATH", TK, "USER", "ann"), runner);
        VerifyReport r = new VerifyService(host, null).verify(null, null, null);
        Finding f = find(r, "cudnn.unreadable");
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.message().startsWith(LIB + " cannot be opened by the user ann"), f.message());
        assertEquals("sudo chmod a+rx " + LIB + " (or run as the user who owns it)", f.fix());
        none(r, "cudnn.missing");
        assertFalse(r.ok());
    }

    /** A2: a folder above the library folder closed (the toolkit's targets/): that folder is named. */
    @Test
    void aClosedFolderAboveTheLibraryFolderIsTheOneNamed() throws Exception {
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        install(fs.getPath(LIB), true);
        Host host = TestHosts.linux(DeniedFolders.wrap(fs, TK + "/targets"), Map.of("PATH", "/usr/bin", "USER", "ann"), runner);
        VerifyReport r = new VerifyService(host, null).verify(host.path(TK), null, null);
        Finding f = find(r, "cudnn.unreadable");
        assertTrue(f.fix().startsWith("sudo chmod a+rx " + TK + "/targets "), f.fix());
        assertFalse(r.ok());
    }

    /** A readable folder without cuDNN stays the plain "no cuDNN" answer. */
    @Test
    void anOpenEmptyFolderIsStillPlainlyMissing() throws Exception {
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        Host host = TestHosts.linux(DeniedFolders.wrap(fs, "/opt/other"), Map.of("PATH", "/usr/bin", "CUDA_PATH", TK), runner);
        VerifyReport r = new VerifyService(host, null).verify(null, null, null);
        find(r, "cudnn.missing");
        none(r, "cudnn.unreadable");
        assertTrue(r.ok(), r.findings().toString());
    }

    /** cuDNN 9.5.1 built for {@code machine} in the toolkit's library folder, soname links as usual. */
    Path installFor(int machine) throws Exception {
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        Path lib = install(fs.getPath(LIB), true);
        for (String base : CudnnComponents.libraries(9)) {
            Path real = lib.resolve(CudnnComponents.linuxSoname(base, 9) + ".5.1");
            Files.write(real, ElfImages.forMachine(Files.readAllBytes(real), machine));
        }
        return lib;
    }

    /** A3: the sbsa (aarch64) build on an x86_64 machine: named before loading, with the x86_64 archive. */
    @Test
    void anArmBuildOnX8664IsWrongArchWithTheRightArchiveNamed() throws Exception {
        installFor(ElfImages.AARCH64);
        ProbeRunner probe = new ProbeRunner(runner, List.of("java"));
        VerifyReport r = new VerifyService(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), probe).verify(null, null, null);
        Finding f = find(r, "cudnn.wrong-arch");
        assertEquals(1, all(r, "cudnn.wrong-arch").size(), r.findings().toString());
        assertTrue(f.message().startsWith(LIB + "/libcudnn.so.9 (-> " + LIB + "/libcudnn.so.9.5.1) and "), f.message());
        assertTrue(f.message().contains("built for aarch64") && f.message().contains("this machine is x86_64"), f.message());
        assertTrue(f.fix().contains("cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz"), f.fix());
        assertEquals(null, r.probe(), "nothing of another CPU is loaded");
        none(r, "cudnn.damaged-file");
        assertFalse(r.ok());
    }

    /** A3: a ppc64le build, the same. */
    @Test
    void aPpc64leBuildOnX8664IsWrongArch() throws Exception {
        installFor(ElfImages.PPC64);
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)));
        assertTrue(find(r, "cudnn.wrong-arch").message().contains("built for ppc64le"), r.findings().toString());
    }

    /** A3: the x86_64 build on a 64-bit ARM server: the sbsa archive is the right one. */
    @Test
    void anX8664BuildOnArmNamesTheSbsaArchive() throws Exception {
        installFor(ElfImages.X86_64);
        Host arm = new Host(fs, Map.of("PATH", "/usr/bin", "CUDA_PATH", TK), OsFamily.LINUX, Arch.AARCH64,
                64, runner);
        VerifyReport r = new VerifyService(arm, null).verify(null, null, null);
        Finding f = find(r, "cudnn.wrong-arch");
        assertTrue(f.message().contains("built for x86_64") && f.message().contains("this machine is aarch64"), f.message());
        assertTrue(f.fix().contains("cudnn-linux-sbsa-9.5.1.17_cuda12-archive.tar.xz"), f.fix());
    }

    /** A3 on Windows: an ARM64 cudnn64_9.dll on x64 is wrong-arch with the x64 zip, not a generic dll-arch. */
    @Test
    void anArm64DllOnX64IsWrongArch() throws Exception {
        FileSystem win = TestHosts.windowsFs();
        String tk = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.6";
        Path root = TestHosts.toolkit(win.getPath(tk), "12.6.0");
        for (String base : CudnnComponents.libraries(9)) {
            Files.write(root.resolve("bin").resolve(CudnnComponents.windowsDll(base, 9)),
                    PeImages.dll(base.equals("cudnn") ? PeImages.ARM64
                            : PeImages.X64, "9.5.1.17"));
        }
        for (String h : CudnnComponents.headers(9)) {
            Files.writeString(root.resolve("include").resolve(h), h.equals("cudnn_version.h")
                    ? ArchiveFixture.versionHeader(CudnnVersion.parse("9.5.1")) : "/* */");
        }
        Files.createDirectories(win.getPath("C:\\Windows\\System32"));
        Host host = TestHosts.windows(win, Map.of("CUDA_PATH", tk, "PATH", tk + "\\bin", "SystemRoot", "C:\\Windows"), runner);
        VerifyReport r = new VerifyService(host, null).verify(null, null, null);
        Finding f = find(r, "cudnn.wrong-arch");
        assertTrue(f.message().contains("cudnn64_9.dll") && f.message().contains("built for ARM64")
                && f.message().contains("this machine is x64"), f.message());
        assertTrue(f.fix().contains("cudnn-windows-x86_64-9.5.1.17_cuda12-archive.zip"), f.fix());
        none(r, "cudnn.dll-arch");
    }

    /** A7: lib64 a folder of its own (not the link to targets/), cuDNN copied into targets/x86_64-linux/lib: seen. */
    @Test
    void cudnnInTargetsLibBesideASeparateLib64IsSeen() throws Exception {
        TestHosts.toolkit(fs.getPath(TK), "12.6.0");
        Files.createDirectories(fs.getPath(TK, "lib64"));
        Files.write(fs.getPath(TK, "lib64", "libcudart.so.12"), ElfImages.so("libcudart.so.12", List.of(), null, List.of("cudaMalloc")));
        install(fs.getPath(LIB), true);
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)));
        assertNotNull(r.cudnn(), r.findings().toString());
        assertEquals(fs.getPath(LIB), r.cudnn().runtimeDir());
        none(r, "cudnn.missing");
        assertTrue(r.ok(), r.findings().toString());
        assertEquals(1, r.copies().size(), r.copies().toString());
        assertEquals(CudnnCopy.Origin.TARGET, r.copies().get(0).origin());
    }

    /** A7 on a 64-bit ARM server: targets/sbsa-linux/lib; and another CPU's targets folder (cross-compiling) is not the target. */
    @Test
    void cudnnInTargetsSbsaLibIsSeenOnArmOnly() throws Exception {
        TestHosts.toolkit(fs.getPath(TK), "12.6.0");
        Files.createDirectories(fs.getPath(TK, "lib64"));
        String sbsa = TK + "/targets/sbsa-linux/lib";
        install(fs.getPath(sbsa), true);
        for (String base : CudnnComponents.libraries(9)) {
            Path real = fs.getPath(sbsa, CudnnComponents.linuxSoname(base, 9) + ".5.1");
            Files.write(real, ElfImages.forMachine(Files.readAllBytes(real), ElfImages.AARCH64));
        }
        Host arm = new Host(fs, Map.of("PATH", "/usr/bin", "CUDA_PATH", TK, "LD_LIBRARY_PATH", sbsa), OsFamily.LINUX,
                Arch.AARCH64, 64, runner);
        VerifyReport r = new VerifyService(arm, null).verify(null, null, null);
        assertNotNull(r.cudnn(), r.findings().toString());
        assertEquals(fs.getPath(sbsa), r.cudnn().runtimeDir());
        assertTrue(r.ok(), r.findings().toString());
        VerifyReport x86 = verify(host(Map.of("CUDA_PATH", TK)));
        assertEquals(null, x86.cudnn(), "an x86_64 machine does not run targets/sbsa-linux: " + x86.findings());
    }
}
