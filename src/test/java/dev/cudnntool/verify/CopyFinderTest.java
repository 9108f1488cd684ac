package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** B2/B3: every cuDNN on the machine, from a fake pip tree, conda envs, the distro folder and the path. */
class CopyFinderTest {
    static final String TK = "/usr/local/cuda-12.6";
    static final String LIB = TK + "/targets/x86_64-linux/lib";
    static final String SITE = "/home/me/.local/lib/python3.11/site-packages";

    static void lib(Path dir, String realName, String soname) throws Exception {
        Files.createDirectories(dir);
        Files.write(dir.resolve(realName), ElfImages.cudnn(soname));
        if (!realName.equals(soname)) {
            Files.createSymbolicLink(dir.resolve(soname), dir.getFileSystem().getPath(realName));
        }
    }

    /** torch/lib/libtorch_cuda.so needing libcudnn.so.9, with the wheel's folders as DT_RPATH or DT_RUNPATH. */
    static void torch(Path torchLib, int tag) throws Exception {
        Files.createDirectories(torchLib);
        Files.write(torchLib.resolve("libtorch_cuda.so"), ElfImages.so("libtorch_cuda.so", List.of("libcudart.so.12", "libcudnn.so.9"),
                tag, "$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/cublas/lib:$ORIGIN", List.of("THCudaCheck")));
    }

    /** The target (toolkit 9.5.1), a pip wheel with PyTorch, a conda env, the distro's, one on LD_LIBRARY_PATH. */
    static Host machine(FileSystem fs) throws Exception {
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        Path tk = fs.getPath(LIB);
        for (String base : CudnnComponents.libraries(9)) {
            lib(tk, "lib" + base + ".so.9.5.1", CudnnComponents.linuxSoname(base, 9));
        }
        for (String h : CudnnComponents.headers(9)) {
            Files.writeString(fs.getPath(TK, "include", h), h.equals("cudnn_version.h")
                    ? ArchiveFixture.versionHeader(CudnnVersion.of(9, 5, 1)) : "/* */");
        }
        Path wheel = fs.getPath(SITE, "nvidia/cudnn/lib");
        lib(wheel, "libcudnn.so.9", "libcudnn.so.9"); // pip wheels: soname-named plain files
        TestHosts.write(fs.getPath(SITE, "nvidia/cudnn/include/cudnn_version.h"), ArchiveFixture.versionHeader(CudnnVersion.of(9, 1, 0)));
        torch(fs.getPath(SITE, "torch/lib"), ElfImages.RPATH);
        lib(fs.getPath("/home/me/miniconda3/envs/tf/lib"), "libcudnn.so.8.9.7", "libcudnn.so.8");
        lib(fs.getPath("/usr/lib/x86_64-linux-gnu"), "libcudnn.so.9.3.0", "libcudnn.so.9");
        lib(fs.getPath("/opt/cudnn/lib"), "libcudnn.so.9.2.1", "libcudnn.so.9");
        return TestHosts.linux(fs, Map.of("CUDA_PATH", TK, "HOME", "/home/me", "LD_LIBRARY_PATH", "/opt/cudnn/lib:" + LIB),
                new FakeRunner());
    }

    @Test
    void everyCopyIsListedWithItsOriginVersionAndWhoWinsByName() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Host host = machine(fs);
        VerifyReport r = new VerifyService(host, null).verify(null, null, null);
        Map<String, CudnnCopy> byPath = r.copies().stream().collect(Collectors.toMap(CudnnCopy::path, c -> c));
        assertEquals(CudnnCopy.Origin.TARGET, byPath.get(LIB + "/libcudnn.so.9").origin());
        assertEquals("9.5.1", byPath.get(LIB + "/libcudnn.so.9").version());
        CudnnCopy pip = byPath.get(SITE + "/nvidia/cudnn/lib/libcudnn.so.9");
        assertEquals(CudnnCopy.Origin.PIP, pip.origin());
        assertEquals("9.1.0", pip.version(), "from the wheel's own header: the file carries only the soname");
        assertEquals(CudnnCopy.Origin.CONDA, byPath.get("/home/me/miniconda3/envs/tf/lib/libcudnn.so.8").origin());
        assertEquals("8.9.7", byPath.get("/home/me/miniconda3/envs/tf/lib/libcudnn.so.8").version());
        assertEquals(CudnnCopy.Origin.SYSTEM, byPath.get("/usr/lib/x86_64-linux-gnu/libcudnn.so.9").origin());
        CudnnCopy path = byPath.get("/opt/cudnn/lib/libcudnn.so.9");
        assertEquals(CudnnCopy.Origin.PATH, path.origin());
        assertEquals(List.of(path), r.copies().stream().filter(CudnnCopy::winsByName).toList(), r.copies().toString());
        Finding copies = r.findings().stream().filter(f -> f.id().equals("cudnn.copies")).findFirst().orElseThrow();
        assertTrue(copies.message().contains("5 cuDNN copies") && copies.message().contains("/opt/cudnn/lib/libcudnn.so.9"), copies.message());
        Finding torch = r.findings().stream().filter(f -> f.id().equals("cudnn.torch-copy")).findFirst().orElseThrow();
        assertTrue(torch.message().contains(SITE) && torch.message().contains(SITE + "/nvidia/cudnn/lib/libcudnn.so.9")
                && torch.message().contains("RPATH") && torch.message().contains("9.1.0"), torch.message());
        assertTrue(r.copies().stream().allMatch(c -> c.findings().isEmpty()), "findings per copy only with --all");
    }

    @Test
    void allDiagnosesEveryCopy() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Host host = machine(fs);
        VerifyReport r = new VerifyService(host, null).verify(null, null, null, true);
        for (CudnnCopy c : r.copies()) {
            assertFalse(c.findings().isEmpty(), c.toString());
        }
        CudnnCopy conda = r.copies().stream().filter(c -> c.origin() == CudnnCopy.Origin.CONDA).findFirst().orElseThrow();
        Finding incomplete = conda.findings().stream().filter(f -> f.id().equals("cudnn.incomplete")).findFirst()
                .orElseThrow(() -> new AssertionError(conda.findings().toString()));
        assertTrue(incomplete.message().contains("libcudnn_ops_infer.so.8"), incomplete.message());
        assertFalse(r.ok(), "a broken copy fails verify --all");
        CudnnCopy target = r.copies().stream().filter(c -> c.origin() == CudnnCopy.Origin.TARGET).findFirst().orElseThrow();
        assertEquals(new VerifyService(host, null).verify(null, null, null).findings().stream()
                .filter(f -> !f.id().startsWith("cudnn.copies") && !f.id().equals("cudnn.torch-copy")).toList(), target.findings(),
                "the target's own findings are the plain verify's");
    }

    @Test
    void windowsWheelsTorchAndCondaEnvironments() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        FakeRunner runner = new FakeRunner();
        VerifyServiceTest.windowsInstall(fs, "8.9.5.30", runner);
        String site = "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python311\\Lib\\site-packages";
        Path wheel = fs.getPath(site, "nvidia", "cudnn", "bin");
        Files.createDirectories(wheel);
        Files.write(wheel.resolve("cudnn64_9.dll"), PeImages.dll(PeImages.X64, "9.1.0.70"));
        Path torch = fs.getPath(site, "torch", "lib");
        Files.createDirectories(torch);
        Files.write(torch.resolve("cudnn64_8.dll"), PeImages.dll(PeImages.X64, "8.7.0.84"));
        Path conda = fs.getPath("C:\\Users\\me\\miniconda3\\envs\\tf\\Library\\bin");
        Files.createDirectories(conda);
        Files.write(conda.resolve("cudnn64_8.dll"), PeImages.dll(PeImages.X64, "8.1.0.77"));
        Host host = TestHosts.windows(fs, Map.of("CUDA_PATH", VerifyServiceTest.TK, "PATH", VerifyServiceTest.TK + "\\bin",
                "SystemRoot", "C:\\Windows", "USERPROFILE", "C:\\Users\\me", "LOCALAPPDATA", "C:\\Users\\me\\AppData\\Local"), runner);
        VerifyReport r = new VerifyService(host, null).verify(null, null, null);
        Map<String, CudnnCopy> byPath = r.copies().stream().collect(Collectors.toMap(CudnnCopy::path, c -> c));
        assertEquals(CudnnCopy.Origin.PIP, byPath.get(wheel.resolve("cudnn64_9.dll").toString()).origin());
        assertEquals("9.1.0.70", byPath.get(wheel.resolve("cudnn64_9.dll").toString()).version());
        assertEquals(CudnnCopy.Origin.PIP, byPath.get(torch.resolve("cudnn64_8.dll").toString()).origin());
        assertEquals(CudnnCopy.Origin.CONDA, byPath.get(conda.resolve("cudnn64_8.dll").toString()).origin());
        assertTrue(byPath.get(VerifyServiceTest.TK + "\\bin\\cudnn64_8.dll").winsByName());
        Finding t = r.findings().stream().filter(f -> f.id().equals("cudnn.torch-copy")).findFirst().orElseThrow();
        assertTrue(t.message().contains(wheel.resolve("cudnn64_9.dll").toString()), t.message());
    }

    /** #19 A4: the same PyTorch built with DT_RUNPATH gets the copy on LD_LIBRARY_PATH, and the text says so (warn, fix). */
    @Test
    void torchWithRunpathLosesToLdLibraryPath() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Host host = machine(fs);
        torch(fs.getPath(SITE, "torch/lib"), ElfImages.RUNPATH);
        VerifyReport r = new VerifyService(host, null).verify(null, null, null);
        Finding t = r.findings().stream().filter(f -> f.id().equals("cudnn.torch-copy")).findFirst().orElseThrow();
        assertEquals(Severity.WARN, t.severity(), t.toString());
        assertTrue(t.message().contains("loads /opt/cudnn/lib/libcudnn.so.9 (cuDNN 9.2.1") && t.message().contains("LD_LIBRARY_PATH")
                && t.message().contains("not its own wheel's " + SITE + "/nvidia/cudnn/lib/libcudnn.so.9 (cuDNN 9.1.0)")
                && t.message().contains("DT_RUNPATH, which the loader searches after LD_LIBRARY_PATH"), t.message());
        assertTrue(t.fix().contains("remove /opt/cudnn/lib from LD_LIBRARY_PATH"), t.fix());
    }

    /** #19 A4: DT_RPATH wins over LD_LIBRARY_PATH; with RUNPATH and nothing on LD_LIBRARY_PATH the wheel's copy wins, said as such. */
    @Test
    void torchRpathWinsAndRunpathWinsOnlyWhileLdLibraryPathHoldsNone() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        machine(fs);
        Finding rpath = torchFinding(TestHosts.linux(fs, Map.of("CUDA_PATH", TK, "HOME", "/home/me",
                "LD_LIBRARY_PATH", "/opt/cudnn/lib"), new FakeRunner()));
        assertEquals(Severity.INFO, rpath.severity());
        assertTrue(rpath.message().contains("loads its own wheel's cuDNN") && rpath.message().contains("DT_RPATH, which the loader"
                + " searches before LD_LIBRARY_PATH"), rpath.message());
        torch(fs.getPath(SITE, "torch/lib"), ElfImages.RUNPATH);
        Finding runpath = torchFinding(TestHosts.linux(fs, Map.of("CUDA_PATH", TK, "HOME", "/home/me"), new FakeRunner()));
        assertEquals(Severity.INFO, runpath.severity());
        assertTrue(runpath.message().contains("loads its own wheel's cuDNN") && runpath.message().contains("would win over it"),
                runpath.message());
        Files.delete(fs.getPath(SITE, "nvidia/cudnn/lib/libcudnn.so.9"));
        Files.delete(fs.getPath("/opt/cudnn/lib/libcudnn.so.9"));
        Files.delete(fs.getPath("/usr/lib/x86_64-linux-gnu/libcudnn.so.9"));
        Finding none = torchFinding(TestHosts.linux(fs, Map.of("HOME", "/home/me"), new FakeRunner()));
        assertEquals(Severity.WARN, none.severity());
        assertTrue(none.message().contains("finds no libcudnn.so.9"), none.message());
    }

    private static Finding torchFinding(Host host) {
        return new VerifyService(host, null).verify(null, null, null).findings().stream()
                .filter(f -> f.id().equals("cudnn.torch-copy")).findFirst().orElseThrow();
    }
}
