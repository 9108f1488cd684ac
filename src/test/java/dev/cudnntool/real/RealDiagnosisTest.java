package dev.cudnntool.real;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.Arch;
import dev.cudnntool.Finding;
import dev.cudnntool.OsFamily;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.host.loader.PeFile;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.verify.ProbeCheck;
import dev.cudnntool.verify.VerifyReport;
import dev.cudnntool.verify.VerifyService;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 with real NVIDIA cuDNN 9.5.1: each broken setup built in a temp folder from the real
 * libraries, diagnosed end to end through the command line (the probe loads them in a child JVM).
 */
@Tag("real-cudnn")
class RealDiagnosisTest {

    @TempDir
    Path tmp;

    /** A1 (root only): the folder is in /etc/ld.so.conf.d, ldconfig was never run; then it is. */
    @Test
    void aFolderListedInLdSoConfDWithoutLdconfigCannotBeLoadedByName() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "writing /etc/ld.so.conf.d needs root");
        assumeTrue(Files.isDirectory(Path.of("/etc/ld.so.conf.d")) && Files.isRegularFile(Path.of("/etc/ld.so.cache")), "no ld.so.conf.d");
        Path tk = RealVerify.toolkit(tmp);
        Path conf = Path.of("/etc/ld.so.conf.d/zz-cudnn-tool-test-" + ProcessHandle.current().pid() + ".conf");
        Path cache = Path.of("/etc/ld.so.cache");
        byte[] cacheBefore = Files.readAllBytes(cache);
        try {
            Files.writeString(conf, "# written by RealDiagnosisTest\n" + tk.resolve("lib64") + "\n");
            JsonNode doc = RealVerify.verify(RealVerify.host(Map.of()), "--cuda-path", tk.toString());
            JsonNode f = RealVerify.finding(doc, "cudnn.not-found-by-name");
            assertEquals("error", f.get("severity").asText());
            assertTrue(f.get("message").asText().contains(conf + " line 2"), f.toString());
            assertEquals("sudo ldconfig", f.get("fix").asText());
            assertEquals(1, doc.get("exitCode").asInt());

            Process p = new ProcessBuilder("ldconfig").inheritIO().start();
            assumeTrue(p.waitFor() == 0, "ldconfig failed");
            JsonNode after = RealVerify.verify(RealVerify.host(Map.of()), "--cuda-path", tk.toString());
            assertTrue(RealVerify.findings(after, "cudnn.not-found-by-name").isEmpty(), after.get("findings").toString());
            assertTrue(after.get("probe").get("loadedByNamePath").asText().startsWith(tk.resolve("lib64").toString()),
                    after.get("probe").toString());
        } finally {
            Files.deleteIfExists(conf);
            Files.write(cache, cacheBefore);
        }
    }

    /** A3: a library cut to half its size is named before loading; no child is started for it. */
    @Test
    void aTruncatedLibraryIsADamagedFileFoundWithoutLoading() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path graph = tk.resolve("lib64/libcudnn_graph.so.9.5.1");
        Files.delete(graph); // a hard link to the shared original: cut a copy, never the original
        Files.copy(RealCudnn.linux(9).resolve("libcudnn_graph.so.9"), graph);
        try (var ch = Files.newByteChannel(graph, StandardOpenOption.WRITE)) {
            ch.truncate(Files.size(graph) / 2);
        }
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", tk.resolve("lib64").toString())), "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.damaged-file");
        assertTrue(f.get("message").asText().contains(graph.toString()) && f.get("message").asText().contains("cut short"), f.toString());
        assertTrue(doc.get("probe") == null || doc.get("probe").isNull(), "no child was started: " + doc.get("probe"));
        assertTrue(RealVerify.findings(doc, "cudnn.load-failed").isEmpty(), doc.get("findings").toString());
    }

    /** A3: when the loader does map it anyway, the crash is classified by signal and names the file. */
    @Test
    void loadingATruncatedLibraryIsASigbusNamedWithTheFileAndLeavesNoFilesBehind() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("lib"));
        Path main = dir.resolve("libcudnn.so.9");
        Files.copy(RealCudnn.linux(9).resolve("libcudnn.so.9"), main);
        Path graph = dir.resolve("libcudnn_graph.so.9");
        Files.copy(RealCudnn.linux(9).resolve("libcudnn_graph.so.9"), graph);
        try (var ch = Files.newByteChannel(graph, StandardOpenOption.WRITE)) {
            ch.truncate(Files.size(graph) / 2);
        }
        List<Path> before = hsErrFiles(Path.of("").toAbsolutePath());
        ProbeResult p = new ProbeRunner(new SystemProcessRunner(), ProbeRunner.currentJava()).probe(main, null, List.of(graph));
        assertTrue(p.crashed(), p.toString());
        assertEquals(graph.toString(), p.crash().loading());
        List<Finding> f = ProbeCheck.findings(RealVerify.host(Map.of()), p, null, null, false);
        Finding damaged = f.stream().filter(x -> x.id().equals("cudnn.damaged-file")).findFirst().orElseThrow(() -> new AssertionError(f));
        assertTrue(damaged.message().contains(graph.toString()) && damaged.message().contains("SIGBUS")
                && damaged.message().contains("ld-linux"), damaged.message());
        assertEquals(before, hsErrFiles(Path.of("").toAbsolutePath()), "no hs_err file in the current folder");
        if (p.crash().errorLog() != null) {
            Files.deleteIfExists(Path.of(p.crash().errorLog()));
        }
    }

    private static List<Path> hsErrFiles(Path dir) throws Exception {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "{hs_err_pid*.log,core*}")) {
            ds.forEach(out::add);
        }
        out.sort(null);
        return out;
    }

    /** A4: the real 9.5.1 dispatcher under headers that declare a function it does not export. */
    @Test
    void aDispatcherThatLacksAHeaderDeclaredFunctionIsFromAnotherRelease() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Files.writeString(tk.resolve("include/cudnn_graph.h"), "size_t CUDNNWINAPI\ncudnnGetVersion(void);\n"
                + "cudnnStatus_t CUDNNWINAPI\ncudnnCreate(cudnnHandle_t *handle);\n");
        Host host = RealVerify.host(Map.of("LD_LIBRARY_PATH", tk.resolve("lib64").toString()));
        assertTrue(RealVerify.findings(RealVerify.verify(host, "--cuda-path", tk.toString()), "cudnn.mixed-versions").isEmpty(),
                "both functions are exported by the real 9.5.1 dispatcher");
        // A function a newer release declares (made up here: Maven Central has no newer real 9.x to mix with).
        Files.writeString(tk.resolve("include/cudnn_graph.h"), "cudnnStatus_t CUDNNWINAPI\ncudnnGetVersion(void);\n"
                + "cudnnStatus_t CUDNNWINAPI\ncudnnBackendPopulateCudaGraphFromRelease924(cudnnHandle_t h, void *g);\n");
        JsonNode doc = RealVerify.verify(host, "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.mixed-versions");
        assertTrue(f.get("message").asText().contains(tk.resolve("lib64/libcudnn.so.9").toString())
                && f.get("message").asText().contains("cudnnBackendPopulateCudaGraphFromRelease924"), f.toString());
    }

    /** A7: the link is there, its target is not. */
    @Test
    void aDanglingRealLinkIsNamedWithItsTarget() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Files.delete(tk.resolve("lib64/libcudnn_graph.so.9.5.1"));
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", tk.resolve("lib64").toString())), "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.dangling-link");
        assertTrue(f.get("message").asText().contains(tk.resolve("lib64/libcudnn_graph.so.9").toString())
                && f.get("message").asText().contains("libcudnn_graph.so.9.5.1"), f.toString());
        assertTrue(RealVerify.findings(doc, "cudnn.incomplete").isEmpty(), doc.get("findings").toString());
    }

    /** B1: the real 9.5.1 build (CUDA 12.6) opens libcublasLt.so.12 and libnvrtc.so.12, absent here. */
    @Test
    void missingCublasLtAndNvrtcAreWarnedAboutWithTheirPipPackages() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path lib = tk.resolve("lib64");
        assumeTrue(!Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libcublasLt.so.12")), "this machine has cuBLASLt installed");
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", lib.toString())), "--cuda-path", tk.toString());
        JsonNode blas = RealVerify.findings(doc, "cudnn.dependency-missing").stream()
                .filter(f -> f.get("message").asText().startsWith("libcublasLt.so.12")).findFirst()
                .orElseThrow(() -> new AssertionError(doc.get("findings").toString()));
        assertEquals("warn", blas.get("severity").asText());
        assertTrue(blas.get("fix").asText().contains("nvidia-cublas-cu12"), blas.toString());
        assertTrue(RealVerify.findings(doc, "cudnn.dependency-missing").stream().noneMatch(f -> f.get("message").asText().startsWith("libz")),
                "zlib is on this machine: " + doc.get("findings"));
        assertEquals(0, doc.get("exitCode").asInt(), "warnings only: " + doc.get("findings"));
    }

    /**
     * A6: a library only root may read, probed as the user nobody (setpriv). Root itself cannot be
     * denied, so the child drops to nobody; its class path is copied where nobody can read it.
     */
    @Test
    void aLibraryTheUserCannotReadIsNamedWithTheUserAndChmod() throws Exception {
        assumeTrue(AsNobody.available(), "only root with setpriv can start the probe as nobody");
        Path open = Files.createDirectories(tmp.resolve("world"));
        tmp.toFile().setReadable(true, false);
        tmp.toFile().setExecutable(true, false);
        Path tk = TestHosts.toolkit(open.resolve("cuda-12.6"), "12.6.0");
        Path lib = Files.createDirectories(tk.resolve("lib64"));
        RealCudnn.layOut(9, lib, tk.resolve("include"));
        Path graph = lib.resolve("libcudnn_graph.so.9.5.1");
        Files.delete(graph); // a hard link to the shared original: restrict a copy, never the original
        Files.copy(RealCudnn.linux(9).resolve("libcudnn_graph.so.9"), graph);
        Files.setPosixFilePermissions(graph, PosixFilePermissions.fromString("rw-------"));
        for (Path p : List.of(tk, lib, tk.resolve("include"))) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxrwxrwx"));
        }
        List<String> java = AsNobody.java(open);
        Path jnaTmp = AsNobody.tmpdir(open);
        Map<String, String> env = Map.of("LD_LIBRARY_PATH", lib.toString(), "HOME", jnaTmp.toString(), "USER", "nobody");
        Host host = new Host(FileSystems.getDefault(), env, OsFamily.LINUX, Arch.X86_64, 64, new SystemProcessRunner(env));
        ProbeRunner asNobody = new ProbeRunner(new SystemProcessRunner(env), java);
        VerifyReport r = new VerifyService(host, asNobody).verify(tk, null, null);
        Finding f = r.findings().stream().filter(x -> x.id().equals("cudnn.unreadable")).findFirst()
                .orElseThrow(() -> new AssertionError("probe: " + r.probe() + "\nfindings: " + r.findings()));
        assertTrue(f.message().contains(graph.toString()) && f.message().contains("nobody"), f.message());
        assertEquals("sudo chmod a+r " + graph, f.fix());
        assertFalse(r.ok());
    }

    /** A3/A4 on Windows images: NVIDIA's real cudnn64_8.dll exports its API and fits its file; a cut copy does not. */
    @Test
    void theRealWindowsDispatcherExportsItsApiAndACutCopyIsDamaged() throws Exception {
        Path dll = RealCudnn.windows().resolve("cudnn64_8.dll");
        Set<String> exports = PeFile.exports(dll);
        assertTrue(exports.contains("cudnnGetVersion") && exports.contains("cudnnCreate") && exports.size() > 100, exports.toString());
        assertEquals(Optional.empty(), PeFile.damage(dll));
        Path cut = tmp.resolve("cudnn64_8.dll");
        Files.copy(dll, cut);
        try (var ch = Files.newByteChannel(cut, StandardOpenOption.WRITE)) {
            ch.truncate(Files.size(cut) / 2);
        }
        assertTrue(PeFile.damage(cut).orElseThrow().contains("cut short"));
    }
}
