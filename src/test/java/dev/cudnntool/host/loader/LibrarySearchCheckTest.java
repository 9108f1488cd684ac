package dev.cudnntool.host.loader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.RegistryPath;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LibrarySearchCheckTest {
    static final String TK = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2";
    static final CudnnVersion V9_5 = CudnnVersion.of(9, 5, 1);

    private static Finding find(List<Finding> fs, String id) {
        return fs.stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow(() -> new AssertionError(id + " not in " + fs));
    }

    /** One registry value's entries: none for "". */
    private static List<String> entries(String value) {
        return value.isEmpty() ? List.of() : List.of(value);
    }

    private static Host windows(FileSystem fs, String path, Map<String, String> more) throws Exception {
        Files.createDirectories(fs.getPath(TK, "bin"));
        Files.createDirectories(fs.getPath("C:\\Windows\\System32"));
        Map<String, String> env = new HashMap<>(Map.of("Path", path, "SystemRoot", "C:\\Windows",
                "CUDA_PATH", TK, "ProgramFiles", "C:\\Program Files"));
        env.putAll(more);
        return TestHosts.windows(fs, env, new FakeRunner());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            TK + "\\bin;C:\\Windows\\System32",
            "\"" + TK + "\\bin\";C:\\Windows",                       // quoted
            TK + "\\bin\\;C:\\Windows",                               // trailing backslash
            "c:\\program files\\nvidia gpu computing toolkit\\cuda\\V12.2\\BIN", // other case
            "%CUDA_PATH%\\bin;%SystemRoot%\\System32",               // variables
    })
    void windowsPathEntriesAreReadAsWindowsReadsThem(String path) throws Exception {
        Host host = windows(TestHosts.windowsFs(), path, Map.of());
        LibrarySearchCheck.Result r = LibrarySearchCheck.check(host, host.path(TK, "bin"), 9, V9_5);
        assertTrue(r.targetOnSearchPath(), path);
        assertTrue(r.findings().stream().noneMatch(f -> f.id().equals("search-path.missing")), r.findings().toString());
    }

    @Test
    void aMissingEntryGetsTheLineThatFixesIt() throws Exception {
        Host host = windows(TestHosts.windowsFs(), "C:\\Windows\\System32", Map.of());
        Finding f = find(LibrarySearchCheck.check(host, host.path(TK, "bin"), 9, V9_5).findings(), "search-path.missing");
        assertEquals(Severity.WARN, f.severity());
        assertTrue(f.fix().contains("set \"PATH=" + TK + "\\bin;%PATH%\""), f.fix());

        FileSystem ufs = TestHosts.unixFs();
        Files.createDirectories(ufs.getPath("/usr/local/cuda/lib64"));
        Host linux = TestHosts.linux(ufs, Map.of(), new FakeRunner());
        Finding l = find(LibrarySearchCheck.check(linux, ufs.getPath("/usr/local/cuda/lib64"), 9, V9_5).findings(), "search-path.missing");
        assertTrue(l.fix().startsWith("export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"), l.fix());
    }

    @Test
    void ldSoConfAndItsIncludesCount() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.2"), "12.2.0");
        TestHosts.write(fs.getPath("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/000_cuda.conf"), "# CUDA\n/usr/local/cuda-12.2/targets/x86_64-linux/lib\n");
        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/libc.conf"), "/usr/local/lib\n");
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
        // lib64 is a link to the folder ld.so.conf names: the same folder.
        LibrarySearchCheck.Result r = LibrarySearchCheck.check(host, fs.getPath("/usr/local/cuda-12.2/lib64"), 8, null);
        assertTrue(r.targetOnSearchPath(), r.findings().toString());
        assertEquals(List.of(fs.getPath("/usr/local/cuda-12.2/targets/x86_64-linux/lib"), fs.getPath("/usr/local/lib")),
                LoaderPath.ldSoConf(host));
    }

    @Test
    void anOldCopyInSystem32WinsOverTheToolkitAndIsAnError() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Host host = windows(fs, TK + "\\bin", Map.of());
        Files.write(fs.getPath("C:\\Windows\\System32\\cudnn64_9.dll"), PeImages.dll(PeImages.X64, "9.1.0.70"));
        LibrarySearchCheck.Result r = LibrarySearchCheck.check(host, host.path(TK, "bin"), 9, V9_5);
        Finding f = find(r.findings(), "cudnn.shadow");
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.message().contains("9.1.0.70") && f.message().contains("System32"), f.message());
        assertTrue(f.fix().contains("delete or rename"), f.fix());
        assertTrue(r.copies().get(0).winsOverTarget());
    }

    @Test
    void aCopyEarlierOnPathIsNamedWithTheVariableThatHoldsIt() throws Exception {
        // Issue 11 A2: the fix names the mechanism: the user's or the machine's Path, or only this process.
        String[][] cases = {
            {"C:\\old\\cudnn\\bin", "", "in the machine Path"},
            {"", "C:\\old\\cudnn\\bin", "in the user Path"},
            {"", "", "only in this process's environment"},
        };
        for (String[] c : cases) {
            FileSystem fs = TestHosts.windowsFs();
            Path old = Files.createDirectories(fs.getPath("C:\\old\\cudnn\\bin"));
            Files.write(old.resolve("cudnn64_9.dll"), PeImages.dll(PeImages.X64, "9.1.0.70"));
            Host host = windows(fs, old + ";" + TK + "\\bin", Map.of())
                    .withRegistryPath(new RegistryPath(entries(c[1]), entries(c[0])));
            Finding f = find(LibrarySearchCheck.check(host, host.path(TK, "bin"), 9, V9_5).findings(), "cudnn.shadow");
            assertEquals(Severity.ERROR, f.severity());
            assertTrue(f.fix().contains("remove C:\\old\\cudnn\\bin from PATH") && f.fix().contains(c[2]), f.fix());
        }
    }

    @Test
    void copiesLaterOnPathOfAnotherMajorOrOutsideThePathAreWarnings() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Path conda = fs.getPath("C:\\Users\\me\\miniconda3\\envs\\torch\\Library\\bin");
        Path nvidia = fs.getPath("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.3");
        Path later = fs.getPath("C:\\old\\cudnn\\bin");
        for (Path p : List.of(conda, nvidia, later)) {
            Files.createDirectories(p);
        }
        Files.write(conda.resolve("cudnn64_9.dll"), PeImages.dll(PeImages.X64, "9.3.0.75"));
        Files.write(nvidia.resolve("cudnn64_9.dll"), PeImages.dll(PeImages.X64, "9.1.0.70"));
        Files.write(later.resolve("cudnn64_8.dll"), PeImages.dll(PeImages.X64, "8.9.5.30"));
        Host host = windows(fs, TK + "\\bin;" + later, Map.of("CONDA_PREFIX", "C:\\Users\\me\\miniconda3\\envs\\torch"));
        LibrarySearchCheck.Result r = LibrarySearchCheck.check(host, host.path(TK, "bin"), 9, V9_5);
        List<Finding> shadows = r.findings().stream().filter(f -> f.id().equals("cudnn.shadow")).toList();
        // #33 A5: the cuDNN 8 copy on PATH is listed but never a shadow of a cuDNN 9 target (it was the third warning before).
        assertEquals(2, shadows.size(), shadows.toString());
        assertTrue(r.copies().stream().anyMatch(c -> c.path().endsWith("cudnn64_8.dll") && !c.winsOverTarget()), r.copies().toString());
        assertTrue(shadows.stream().allMatch(f -> f.severity() == Severity.WARN), shadows.toString());
        assertTrue(shadows.stream().anyMatch(f -> f.fix().contains("conda")), shadows.toString());
    }

    @Test
    void linuxCopyEarlierOnLdLibraryPathIsAnError() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.2"), "12.2.0");
        Path env = fs.getPath("/home/me/.conda/envs/tf/lib");
        Files.createDirectories(env);
        Files.writeString(env.resolve("libcudnn.so.9.1.0"), "elf");
        Files.createSymbolicLink(env.resolve("libcudnn.so.9"), fs.getPath("libcudnn.so.9.1.0"));
        Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", env + ":/usr/local/cuda-12.2/lib64"), new FakeRunner());
        LibrarySearchCheck.Result r = LibrarySearchCheck.check(host, fs.getPath("/usr/local/cuda-12.2/lib64"), 9, V9_5);
        Finding f = find(r.findings(), "cudnn.shadow");
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.message().contains("9.1.0") && f.message().contains(env.toString()), f.message());
        // Another major on the same path is no shadow at all (#33 A5; it warned before): programs built for cuDNN 8 load
        // libcudnn.so.8, not 9, and removing the 9 copy would break the programs built for it.
        LibrarySearchCheck.Result eight = LibrarySearchCheck.check(host, fs.getPath("/usr/local/cuda-12.2/lib64"), 8, null);
        assertTrue(eight.findings().stream().noneMatch(x -> x.id().equals("cudnn.shadow")), eight.findings().toString());
        assertTrue(eight.copies().stream().anyMatch(c -> c.path().contains("libcudnn.so.9")), eight.copies().toString());
    }

    @Test
    void zlibwapiForCudnn83To91OnWindows() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Host host = windows(fs, TK + "\\bin", Map.of());
        Path bin = fs.getPath(TK, "bin");
        Finding missing = find(LibrarySearchCheck.check(host, bin, 8, CudnnVersion.of(8, 9, 5)).findings(), "cudnn.zlibwapi-missing");
        assertEquals(Severity.ERROR, missing.severity());
        assertTrue(missing.fix().contains(bin.toString()));
        Files.write(bin.resolve("zlibwapi.dll"), PeImages.dll(PeImages.I386, "1.2.3.0"));
        Finding x86 = find(LibrarySearchCheck.check(host, bin, 8, CudnnVersion.of(8, 9, 5)).findings(), "cudnn.zlibwapi-missing");
        assertTrue(x86.message().contains("32-bit"), x86.message());
        Files.write(bin.resolve("zlibwapi.dll"), PeImages.dll(PeImages.X64, "1.2.3.0"));
        assertTrue(LibrarySearchCheck.check(host, bin, 8, CudnnVersion.of(8, 9, 5)).findings().stream().noneMatch(Finding::isError));
        Files.delete(bin.resolve("zlibwapi.dll"));
        assertFalse(LibrarySearchCheck.needsZlibwapi(CudnnVersion.of(9, 2, 0)));
        assertFalse(LibrarySearchCheck.needsZlibwapi(CudnnVersion.of(8, 2, 4)));
        assertTrue(LibrarySearchCheck.needsZlibwapi(CudnnVersion.of(9, 1, 0)));
        assertTrue(LibrarySearchCheck.check(host, bin, 9, CudnnVersion.of(9, 5, 1)).findings().stream()
                .noneMatch(f -> f.id().startsWith("cudnn.zlibwapi")));
    }

    /** A1: ld.so.conf.d names the folder, but the cache (what the loader reads) has nothing from it. */
    @Test
    void aListedFolderThatLdconfigNeverCachedIsNotSearched() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.2"), "12.2.0");
        Path lib = fs.getPath("/usr/local/cuda-12.2/targets/x86_64-linux/lib");
        Files.writeString(lib.resolve("libcudnn.so.9"), "elf");
        TestHosts.write(fs.getPath("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/000_cuda.conf"), "# CUDA\n/usr/local/cuda-12.2/targets/x86_64-linux/lib\n");
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
        LibrarySearchCheck.Result r = LibrarySearchCheck.check(host, fs.getPath("/usr/local/cuda-12.2/lib64"), 9, V9_5);
        assertFalse(r.targetOnSearchPath(), r.findings().toString());
        Finding f = find(r.findings(), "search-path.missing");
        assertTrue(f.message().contains("/etc/ld.so.conf.d/000_cuda.conf line 2") && f.message().contains("ldconfig"), f.message());
        assertEquals("sudo ldconfig", f.fix());
        // after ldconfig: the cache holds the file, and the folder is searched
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(
                new String[] {"libcudnn.so.9", lib + "/libcudnn.so.9"}), LdSoCache.x8664Flags()));
        assertTrue(LibrarySearchCheck.check(host, fs.getPath("/usr/local/cuda-12.2/lib64"), 9, V9_5).targetOnSearchPath());
        assertEquals(lib.resolve("libcudnn.so.9"), LoaderPath.find(host, LdSoCache.of(host), "libcudnn.so.9", List.of(), List.of())
                .orElseThrow().file());
    }

    /** The loader's order: RPATH (only without RUNPATH), LD_LIBRARY_PATH, RUNPATH, the cache, the defaults. */
    @Test
    void theLinuxSearchOrderIsTheLoaders() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        for (String d : List.of("/rpath", "/env", "/runpath", "/cached", "/usr/lib", "/etc")) {
            Files.createDirectories(fs.getPath(d));
            Files.writeString(fs.getPath(d, "libx.so.1"), d);
        }
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(new String[] {"libx.so.1", "/cached/libx.so.1"}),
                LdSoCache.x8664Flags()));
        Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/env"), new FakeRunner());
        LdSoCache cache = LdSoCache.of(host);
        List<Path> rpath = List.of(fs.getPath("/rpath"));
        List<Path> runpath = List.of(fs.getPath("/runpath"));
        assertEquals(LoaderPath.Mechanism.RPATH, LoaderPath.find(host, cache, "libx.so.1", rpath, List.of()).orElseThrow().place().mechanism());
        assertEquals(LoaderPath.Mechanism.LD_LIBRARY_PATH, LoaderPath.find(host, cache, "libx.so.1", rpath, runpath).orElseThrow().place().mechanism());
        Host noEnv = TestHosts.linux(fs, Map.of(), new FakeRunner());
        assertEquals(LoaderPath.Mechanism.RUNPATH, LoaderPath.find(noEnv, cache, "libx.so.1", rpath, runpath).orElseThrow().place().mechanism());
        assertEquals(LoaderPath.Mechanism.LD_SO_CACHE, LoaderPath.find(noEnv, cache, "libx.so.1", List.of(), List.of()).orElseThrow().place().mechanism());
        assertEquals(LoaderPath.Mechanism.DEFAULT_FOLDER, LoaderPath.find(noEnv, LdSoCache.empty(), "libx.so.1", List.of(), List.of())
                .orElseThrow().place().mechanism());
    }
}
