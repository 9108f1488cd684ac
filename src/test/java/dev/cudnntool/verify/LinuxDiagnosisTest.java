package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The broken Linux setups of issue 11 on jimfs: well-formed ELF images, a made-up ld.so.cache,
 * the probe's answers replayed. Each test would pass "no problems found" (or the wrong cause) on
 * the code before it.
 */
class LinuxDiagnosisTest {
    static final String TK = "/usr/local/cuda-12.6";
    static final String LIB = TK + "/targets/x86_64-linux/lib";

    final FileSystem fs = TestHosts.unixFs();
    final FakeRunner runner = new FakeRunner();

    static List<Finding> all(VerifyReport r, String id) {
        return r.findings().stream().filter(f -> f.id().equals(id)).toList();
    }

    static Finding find(VerifyReport r, String id) {
        return all(r, id).stream().findFirst().orElseThrow(() -> new AssertionError(id + " not in " + r.findings()));
    }

    static void none(VerifyReport r, String id) {
        assertTrue(all(r, id).isEmpty(), id + " should not be in " + r.findings());
    }

    /** A toolkit with cuDNN 9.5.1 as soname-named files (a pip-style copy), headers declaring two functions. */
    Path install(int major, String version) throws Exception {
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        Path lib = fs.getPath(LIB);
        for (String base : CudnnComponents.libraries(major)) {
            String soname = CudnnComponents.linuxSoname(base, major);
            Files.write(lib.resolve(soname), base.equals("cudnn") ? ElfImages.cudnn(soname)
                    : ElfImages.so(soname, base.equals("cudnn_graph") ? List.of("libz.so.1", "libc.so.6") : List.of("libc.so.6"),
                    "$ORIGIN", List.of("internal_" + base)));
        }
        Path inc = fs.getPath(TK, "include");
        for (String h : CudnnComponents.headers(major)) {
            Files.writeString(inc.resolve(h), h.equals("cudnn_version.h") ? ArchiveFixture.versionHeader(CudnnVersion.parse(version))
                    : h.equals("cudnn.h") ? "size_t CUDNNWINAPI\ncudnnGetVersion(void);\ncudnnStatus_t CUDNNWINAPI cudnnCreate(cudnnHandle_t *h);\n"
                    : "/* " + h + " */\n");
        }
        // zlib and the CUDA libraries cuDNN opens, as a complete machine has them
        Path sys = fs.getPath("/lib/x86_64-linux-gnu");
        Files.createDirectories(sys);
        Files.write(sys.resolve("libz.so.1"), ElfImages.so("libz.so.1", List.of(), null, List.of("inflate")));
        for (String n : List.of("libcublasLt.so.12", "libcublas.so.12", "libnvrtc.so.12")) {
            Files.write(lib.resolve(n), ElfImages.so(n, List.of(), null, List.of("x")));
        }
        return lib;
    }

    Host host(Map<String, String> env) {
        Map<String, String> e = new HashMap<>(Map.of("PATH", "/usr/bin"));
        e.putAll(env);
        return TestHosts.linux(fs, e, runner);
    }

    /** The probe child's answer for this install, replayed. */
    void probeSays(int major, String lines, int exit, String stderr) {
        String last = CudnnComponents.subLibraries(major).get(CudnnComponents.subLibraries(major).size() - 1);
        runner.on("--sub " + LIB + "/" + CudnnComponents.linuxSoname(last, major), new ProcessResult(exit, lines, stderr, false, null));
    }

    static String loaded(String lib, long version, long cudart) {
        return "{\"event\":\"loading\",\"path\":\"" + lib + "\"}\n"
                + "{\"event\":\"mainLoaded\",\"path\":\"" + lib + "\",\"loadedPath\":\"" + lib + "\"}\n"
                + "{\"event\":\"version\",\"value\":" + version + "}\n{\"event\":\"cudartVersion\",\"value\":" + cudart + "}\n"
                + "{\"event\":\"handle\",\"status\":1001,\"statusName\":\"CUDNN_STATUS_NOT_INITIALIZED\"}\n{\"event\":\"done\"}\n";
    }

    VerifyReport verify(Host host, CudnnVersion expect) {
        return new VerifyService(host, new ProbeRunner(runner, List.of("java"))).verify(null, null, expect);
    }

    @Test
    void aHealthyInstallOnTheLoaderPathIsOk() throws Exception {
        install(9, "9.5.1");
        probeSays(9, "{\"event\":\"byName\",\"name\":\"libcudnn.so.9\",\"loadedPath\":\"" + LIB + "/libcudnn.so.9\"}\n"
                + loaded(LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), null);
        assertTrue(r.ok(), r.findings().toString());
        assertTrue(r.findings().stream().noneMatch(f -> f.severity() != Severity.INFO && !f.id().equals("driver.missing")),
                r.findings().toString());
    }

    /** A1: listed in /etc/ld.so.conf.d but ldconfig never ran; the probe's by-name load failed. */
    @Test
    void aFolderListedButNotCachedIsAByNameFailureFixedByLdconfig() throws Exception {
        install(9, "9.5.1");
        TestHosts.write(fs.getPath("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/cudnn.conf"), "# cuDNN\n" + LIB + "\n");
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(
                new String[] {"libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1"}), LdSoCache.x8664Flags()));
        probeSays(9, "{\"event\":\"loading\",\"path\":\"libcudnn.so.9\"}\n{\"event\":\"byName\",\"name\":\"libcudnn.so.9\","
                + "\"error\":\"libcudnn.so.9: cannot open shared object file: No such file or directory\"}\n"
                + loaded(LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK)), null);
        assertFalse(r.ok(), "a program cannot load cuDNN by name: " + r.findings());
        Finding f = find(r, "cudnn.not-found-by-name");
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.message().contains("/etc/ld.so.conf.d/cudnn.conf line 2") && f.message().contains("ldconfig"), f.message());
        assertEquals("sudo ldconfig", f.fix());
        none(r, "search-path.missing");
    }

    /** A1: nowhere on the search path: the LD_LIBRARY_PATH line. */
    @Test
    void aFolderOnNoSearchPathGetsTheExportLine() throws Exception {
        install(9, "9.5.1");
        probeSays(9, "{\"event\":\"byName\",\"name\":\"libcudnn.so.9\","
                + "\"error\":\"libcudnn.so.9: cannot open shared object file: No such file or directory\"}\n"
                + loaded(LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        Finding f = find(verify(host(Map.of("CUDA_PATH", TK)), null), "cudnn.not-found-by-name");
        assertTrue(f.fix().startsWith("export LD_LIBRARY_PATH=" + LIB), f.fix());
    }

    /** A1: the loader finds cuDNN but not zlib: the fix is zlib, not the path. */
    @Test
    void aByNameFailureForADependencyNamesTheDependency() throws Exception {
        install(9, "9.5.1");
        probeSays(9, "{\"event\":\"byName\",\"name\":\"libcudnn.so.9\","
                + "\"error\":\"libz.so.1: cannot open shared object file: No such file or directory\"}\n"
                + loaded(LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        Finding f = find(verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), null), "cudnn.not-found-by-name");
        assertTrue(f.message().contains("libz.so.1"), f.message());
        assertTrue(f.fix().contains("zlib1g"), f.fix());
    }

    /** A2: the other copy wins through an ld.so.conf.d file: the fix names that file and line. */
    @Test
    void aCopyWinningThroughAnLdSoConfFileIsNamedWithItsLine() throws Exception {
        install(9, "9.5.1");
        Path old = fs.getPath("/opt/cudnn-9.1/lib");
        Files.createDirectories(old);
        Files.write(old.resolve("libcudnn.so.9.1.0"), ElfImages.cudnn("libcudnn.so.9"));
        Files.createSymbolicLink(old.resolve("libcudnn.so.9"), fs.getPath("libcudnn.so.9.1.0"));
        TestHosts.write(fs.getPath("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/000-old-cudnn.conf"), "# old\n\n/opt/cudnn-9.1/lib\n");
        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/cuda.conf"), LIB + "\n");
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.of(
                new String[] {"libcudnn.so.9", "/opt/cudnn-9.1/lib/libcudnn.so.9"},
                new String[] {"libcudnn.so.9", LIB + "/libcudnn.so.9"}), LdSoCache.x8664Flags()));
        probeSays(9, "{\"event\":\"byName\",\"name\":\"libcudnn.so.9\",\"loadedPath\":\"/opt/cudnn-9.1/lib/libcudnn.so.9\"}\n"
                + loaded(LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", "/nonexistent/lib")), null);
        Finding shadow = all(r, "cudnn.shadow").stream().filter(Finding::isError).findFirst().orElseThrow(() -> new AssertionError(r.findings().toString()));
        assertTrue(shadow.fix().contains("/etc/ld.so.conf.d/000-old-cudnn.conf line 3") && shadow.fix().contains("sudo ldconfig"), shadow.fix());
        assertFalse(shadow.fix().contains("LD_LIBRARY_PATH"), "LD_LIBRARY_PATH has nothing to do with it: " + shadow.fix());
        Finding shadowed = find(r, "cudnn.shadowed");
        assertTrue(shadowed.fix().contains("000-old-cudnn.conf line 3"), shadowed.fix());
    }

    /** A2: a distribution package in the system folder. */
    @Test
    void aCopyInTheSystemFolderIsAPackageNotAPathEntry() throws Exception {
        install(9, "9.5.1");
        Path sys = fs.getPath("/usr/lib/x86_64-linux-gnu");
        Files.createDirectories(sys);
        Files.write(sys.resolve("libcudnn.so.9.3.0"), ElfImages.cudnn("libcudnn.so.9"));
        Files.createSymbolicLink(sys.resolve("libcudnn.so.9"), fs.getPath("libcudnn.so.9.3.0"));
        probeSays(9, "{\"event\":\"byName\",\"name\":\"libcudnn.so.9\",\"loadedPath\":\"" + sys + "/libcudnn.so.9\"}\n"
                + loaded(LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK)), null);
        Finding shadowed = find(r, "cudnn.shadowed");
        assertTrue(shadowed.fix().contains("system folder") && shadowed.fix().contains("apt remove"), shadowed.fix());
    }

    /** A3: a library cut to half its size is named before any child is started. */
    @Test
    void aTruncatedSubLibraryIsDamagedAndNoProbeIsStarted() throws Exception {
        Path lib = install(9, "9.5.1");
        byte[] whole = Files.readAllBytes(lib.resolve("libcudnn_graph.so.9"));
        Files.write(lib.resolve("libcudnn_graph.so.9"), Arrays.copyOf(whole, whole.length / 2));
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), null);
        Finding f = find(r, "cudnn.damaged-file");
        assertTrue(f.message().contains(LIB + "/libcudnn_graph.so.9") && f.message().contains("cut short"), f.message());
        assertTrue(runner.calls.stream().noneMatch(c -> String.join(" ", c).contains("ProbeMain")), runner.calls.toString());
        none(r, "cudnn.load-failed");
    }

    /** A4: the headers declare a function the dispatcher does not export: another release's dispatcher. */
    @Test
    void aDispatcherFromAnotherReleaseIsToldByItsExports() throws Exception {
        Path lib = install(9, "9.5.1");
        Files.writeString(fs.getPath(TK, "include", "cudnn_graph.h"),
                "cudnnStatus_t CUDNNWINAPI\ncudnnBackendPopulateCudaGraph(cudnnHandle_t h, void *g);\n");
        probeSays(9, loaded(LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), null);
        Finding f = find(r, "cudnn.mixed-versions");
        assertTrue(f.message().contains(lib.resolve("libcudnn.so.9").toString()) && f.message().contains("cudnnBackendPopulateCudaGraph"),
                f.message());
    }

    /** A5: cuDNN 8 and 9 side by side, the header is 9's, --expect 8. */
    @Test
    void twoMajorsInOneFolderAreDescribedNotCalledAnUpgrade() throws Exception {
        Path lib = install(9, "9.5.1");
        for (String base : CudnnComponents.libraries(8)) {
            String soname = CudnnComponents.linuxSoname(base, 8);
            Files.write(lib.resolve(soname), ElfImages.cudnn(soname));
        }
        probeSays(8, loaded(LIB + "/libcudnn.so.8", 8907, 12020), 0, "");
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), CudnnVersion.of(8, 9, 7));
        Finding f = find(r, "cudnn.two-majors");
        assertTrue(f.message().contains("libcudnn.so.8") && f.message().contains("libcudnn.so.9") && f.message().contains("9.5.1"), f.message());
        assertTrue(f.message().contains("compiled against this install gets cuDNN 9"), f.message());
        none(r, "cudnn.header-library-mismatch");
        assertTrue(r.findings().stream().noneMatch(x -> x.message().contains("half-finished")), r.findings().toString());
    }

    /** A6: the loader says permission denied: the file, the user, chmod. */
    @Test
    void permissionDeniedNamesTheFileTheUserAndChmod() throws Exception {
        install(9, "9.5.1");
        probeSays(9, "{\"event\":\"byName\",\"name\":\"libcudnn.so.9\",\"error\":\"" + LIB
                + "/libcudnn.so.9: failed to map segment from shared object: Permission denied\"}\n"
                + loaded(LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        Finding f = find(verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB, "USER", "alice")), null), "cudnn.unreadable");
        assertTrue(f.message().contains(LIB + "/libcudnn.so.9") && f.message().contains("alice"), f.message());
        assertEquals("sudo chmod a+r " + LIB + "/libcudnn.so.9", f.fix());
    }

    /** A7: the link is there, its target is not. */
    @Test
    void aDanglingLinkIsNamedWithItsMissingTarget() throws Exception {
        Path lib = install(9, "9.5.1");
        Files.move(lib.resolve("libcudnn_graph.so.9"), lib.resolve("libcudnn_graph.so.9.5.1"));
        Files.createSymbolicLink(lib.resolve("libcudnn_graph.so.9"), fs.getPath("libcudnn_graph.so.9.4.0"));
        probeSays(9, loaded(LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), null);
        Finding f = find(r, "cudnn.dangling-link");
        assertTrue(f.message().contains(LIB + "/libcudnn_graph.so.9") && f.message().contains("libcudnn_graph.so.9.4.0")
                && f.message().contains("does not exist"), f.message());
        assertEquals("point it at the file that is there: ln -sf libcudnn_graph.so.9.5.1 " + LIB + "/libcudnn_graph.so.9"
                + " (or reinstall the complete archive with cudnn install)", f.fix());
        none(r, "cudnn.incomplete");
    }

    /** A8: a CUDA 13 build on a driver whose ceiling is 12.9; a 13.3 build on R580 (13.0) is fine. */
    @Test
    void theDriverIsComparedWithTheCudaBuildByMajor() throws Exception {
        install(9, "9.5.1");
        Files.createDirectories(fs.getPath("/usr/bin"));
        Files.writeString(fs.getPath("/usr/bin/nvidia-smi"), "");
        runner.on("nvidia-smi", NvidiaSmiOutputs.R575).on("--format=csv,noheader", "NVIDIA A100, 575.51.03\n");
        probeSays(9, loaded(LIB + "/libcudnn.so.9", 90501, 13000), 0, "");
        Finding f = find(verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), null), "driver.too-old");
        assertTrue(f.message().contains("CUDA 13.0") && f.message().contains("12.9") && f.message().contains("575.51.03"), f.message());
        assertTrue(f.fix().contains("580.65.06"), f.fix());

        runner.on("nvidia-smi", NvidiaSmiOutputs.R580).on("--format=csv,noheader", "NVIDIA A100, 580.65.06\n");
        probeSays(9, loaded(LIB + "/libcudnn.so.9", 90501, 13030), 0, "");
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), null);
        none(r, "driver.too-old");
    }

    /** A8: Linux messages carry no Windows folder names. */
    @Test
    void linuxWordingHasNoWindowsFolders() throws Exception {
        Path lib = install(9, "9.5.1");
        Files.delete(lib.resolve("libcudnn_ops.so.9"));
        VerifyReport r = new VerifyService(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), null).verify(null, null, null);
        Finding f = find(r, "cudnn.incomplete");
        assertFalse(f.fix().contains("lib\\x64") || f.message().contains("lib\\x64"), f.fix());
        assertTrue(r.findings().stream().noneMatch(x -> x.fix().contains("\\x64") || x.message().contains("\\x64")), r.findings().toString());
    }

    /** B1: zlib, cuBLASLt and NVRTC must be findable by name. */
    @Test
    void missingRunTimeDependenciesAreNamedWithWhereTheyComeFrom() throws Exception {
        Path lib = install(9, "9.5.1");
        Files.delete(fs.getPath("/lib/x86_64-linux-gnu/libz.so.1"));
        Files.delete(lib.resolve("libcublasLt.so.12"));
        probeSays(9, loaded(LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        VerifyReport r = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB)), null);
        List<Finding> deps = all(r, "cudnn.dependency-missing");
        assertEquals(2, deps.size(), deps.toString());
        assertTrue(deps.stream().allMatch(d -> d.severity() == Severity.WARN));
        Finding z = deps.stream().filter(d -> d.message().startsWith("libz.so.1")).findFirst().orElseThrow();
        assertTrue(z.message().contains("libcudnn_graph.so.9") && z.fix().contains("zlib1g"), z.toString());
        Finding blas = deps.stream().filter(d -> d.message().startsWith("libcublasLt.so.12")).findFirst().orElseThrow();
        assertTrue(blas.fix().contains("nvidia-cublas-cu12") && blas.fix().contains("lib64"), blas.fix());
        // on the search path through LD_LIBRARY_PATH counts as found
        Path elsewhere = fs.getPath("/opt/cublas/lib");
        Files.createDirectories(elsewhere);
        Files.write(elsewhere.resolve("libcublasLt.so.12"), ElfImages.so("libcublasLt.so.12", List.of(), null, List.of("x")));
        VerifyReport again = verify(host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB + ":" + elsewhere)), null);
        assertEquals(1, all(again, "cudnn.dependency-missing").size(), again.findings().toString());
    }
}
