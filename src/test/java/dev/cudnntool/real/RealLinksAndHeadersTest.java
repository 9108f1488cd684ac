package dev.cudnntool.real;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.Finding;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.verify.ProbeCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 19 A8, A9, A11 with the real cuDNN 8.9.7 and 9.5.1 libraries: links and headers as people's machines have them. */
@Tag("real-cudnn")
class RealLinksAndHeadersTest {
    @TempDir
    Path tmp;

    /** A11: libcudnn.so left pointing at a real cuDNN 8 next to a real cuDNN 9: -lcudnn would link 8. */
    @Test
    void devLinkToRealCudnn8IsDevLinkMismatch() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path lib = tk.resolve("lib64");
        Map<String, String> env = Map.of("LD_LIBRARY_PATH", lib.toString());
        JsonNode healthy = RealVerify.verify(RealVerify.host(env), "--cuda-path", tk.toString());
        assertTrue(RealVerify.findings(healthy, "cudnn.dev-link-mismatch").isEmpty(), healthy.get("findings").toString());
        Files.createLink(lib.resolve("libcudnn.so.8.9.7"), RealCudnn.linux(8).resolve("libcudnn.so.8"));
        Files.createSymbolicLink(lib.resolve("libcudnn.so.8"), Path.of("libcudnn.so.8.9.7"));
        Files.delete(lib.resolve("libcudnn.so"));
        Files.createSymbolicLink(lib.resolve("libcudnn.so"), Path.of("libcudnn.so.8"));
        JsonNode doc = RealVerify.verify(RealVerify.host(env), "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.dev-link-mismatch");
        assertEquals("error", f.get("severity").asText());
        assertTrue(f.get("message").asText().contains("libcudnn.so -> libcudnn.so.8 (cuDNN 8)"), f.toString());
        assertTrue(f.get("fix").asText().contains("ln -sfn libcudnn.so.9 " + lib.resolve("libcudnn.so")), f.toString());
        assertEquals(1, doc.get("exitCode").asInt());
    }

    /**
     * A13: the real cuDNN 9.5.1 (a CUDA 12.6 build) loaded by the real probe on this GPU-less machine: cudnnCreate fails.
     * With an R580 driver reported, the cause is never the driver's version: without libcuda.so.1 (this machine has none)
     * it is the missing driver library; with a libcuda.so.1 on the path (a gcc-built stand-in), explicitly not the version.
     */
    @Test
    void realHandleFailureWithR580IsNotBlamedOnTheDriverVersion() throws Exception {
        Assumptions.assumeTrue(LoaderPath.find(RealVerify.host(Map.of()),
                LdSoCache.of(RealVerify.host(Map.of())), "libcuda.so.1", List.of(),
                List.of()).isEmpty(), "a machine without the NVIDIA driver library");
        Path lib = tmp.resolve("lib");
        RealCudnn.layOut(9, lib, tmp.resolve("include"));
        ProbeResult p = new ProbeRunner(new SystemProcessRunner(),
                ProbeRunner.currentJava()).probe(lib.resolve("libcudnn.so.9"), null, List.of());
        assertTrue(p.handleStatus() != null && p.handleStatus() != 0, p.toString());
        DriverInfo r580 = new DriverInfo("/usr/bin/nvidia-smi", "580.65.06", "13.0",
                List.of(new NvidiaSmi.Gpu("NVIDIA H100", "580.65.06")));
        List<Finding> none = ProbeCheck.findings(RealVerify.host(Map.of()), p, null, null, r580);
        Finding f = none.stream().filter(x -> x.id().equals("cudnn.handle-failed")).findFirst().orElseThrow(() -> new AssertionError(none));
        assertTrue(f.message().contains("libcuda.so.1") && f.message().contains("driver.libcuda-missing"), f.message());
        assertTrue(!f.fix().contains("update the NVIDIA driver"), f.fix());

        Path drv = Files.createDirectories(tmp.resolve("driver"));
        Path src = drv.resolve("cuda.c");
        Files.writeString(src, "int cuInit(unsigned int flags) { return 100; }\n"); // CUDA_ERROR_NO_DEVICE
        RealLoaderOrderTest.run(List.of("/usr/bin/gcc", "-shared", "-fPIC", "-o", drv.resolve("libcuda.so.1").toString(),
                "-Wl,-soname,libcuda.so.1", src.toString()), Map.of());
        Host withLib = RealVerify.host(Map.of("LD_LIBRARY_PATH", drv.toString()));
        List<Finding> fits = ProbeCheck.findings(withLib, p, null, null, r580);
        Finding g = fits.stream().filter(x -> x.id().equals("cudnn.handle-failed")).findFirst().orElseThrow();
        assertTrue(g.message().contains("although driver 580.65.06 supports CUDA up to 13.0, enough for this CUDA 12.6 build, so its"
                + " version is not the cause"), g.message());
        assertTrue(!g.fix().contains("update"), g.fix());
    }

    /**
     * A8 with the real libraries, loaded by the real probe: a toolkit reached through a /usr/local/cuda-style link, whose
     * lib64 is a folder of per-file links into targets/x86_64-linux/lib, both folders on LD_LIBRARY_PATH: one copy, on
     * the path, shadowing nothing. Then a link loop where a sub-library was: said to be a loop.
     */
    @Test
    void realToolkitThroughLinksShadowsNothingAndALoopIsALoop() throws Exception {
        Path tk = TestHosts.toolkit(tmp.resolve("cuda-12.6"), "12.6.0");
        Path real = tk.resolve("targets/x86_64-linux/lib");
        RealCudnn.layOut(9, real, tk.resolve("include"));
        Path lib64 = Files.createDirectories(tk.resolve("lib64"));
        try (var ds = Files.newDirectoryStream(real)) {
            for (Path f : ds) {
                Files.createSymbolicLink(lib64.resolve(f.getFileName().toString()), Path.of("../targets/x86_64-linux/lib")
                        .resolve(f.getFileName().toString()));
            }
        }
        Path cuda = Files.createSymbolicLink(tmp.resolve("cuda"), Path.of("cuda-12.6"));
        for (String path : new String[] {real + ":" + lib64, cuda.resolve("lib64").toString(), cuda.resolve("targets/x86_64-linux/lib").toString()}) {
            JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", path)), "--cuda-path", cuda.toString());
            for (String id : new String[] {"cudnn.shadow", "cudnn.shadowed", "search-path.missing", "cudnn.not-found-by-name"}) {
                assertTrue(RealVerify.findings(doc, id).isEmpty(), "LD_LIBRARY_PATH=" + path + ": " + doc.get("findings"));
            }
            assertEquals(0, doc.get("exitCode").asInt(), doc.get("findings").toString());
        }
        Path graph = real.resolve("libcudnn_graph.so.9.5.1");
        Files.delete(graph);
        Files.createSymbolicLink(graph, Path.of("libcudnn_graph.so.9"));
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", real.toString())), "--cuda-path", tk.toString());
        JsonNode loop = RealVerify.finding(doc, "cudnn.dangling-link");
        assertTrue(loop.get("message").asText().contains("is a link loop: ") && loop.get("message").asText().contains(
                real.resolve("libcudnn_graph.so.9") + " -> " + real.resolve("libcudnn_graph.so.9.5.1") + " -> " + real.resolve("libcudnn_graph.so.9")),
                loop.toString());
        assertTrue(!loop.get("message").asText().contains("does not exist"), loop.toString());
        assertEquals(1, doc.get("exitCode").asInt());
    }

    /**
     * A9: NVIDIA's Debian layout built from the real cuDNN 9.5.1 under a temporary /usr: libraries in lib/x86_64-linux-gnu,
     * headers as include/x86_64-linux-gnu/cudnn*_v9.h, include/cudnn*.h through an alternatives folder. Complete and
     * healthy; then the alternative left pointing at a removed cuDNN 8: a dangling link with update-alternatives.
     */
    @Test
    void realDebianLayoutIsRecognisedAndADanglingAlternativeIsSaid() throws Exception {
        Path usr = tmp.resolve("usr");
        Path lib = usr.resolve("lib/x86_64-linux-gnu");
        Path scratch = tmp.resolve("scratch-include");
        RealCudnn.layOut(9, lib, scratch);
        Path multi = Files.createDirectories(usr.resolve("include/x86_64-linux-gnu"));
        Path alternatives = Files.createDirectories(tmp.resolve("etc/alternatives"));
        for (String h : CudnnComponents.headers(9)) {
            Path v9 = multi.resolve(h.replace(".h", "_v9.h"));
            Files.move(scratch.resolve(h), v9);
            Path alt = alternatives.resolve("libcudnn_" + h.replace(".h", "_h"));
            Files.createSymbolicLink(alt, v9);
            Files.createSymbolicLink(usr.resolve("include").resolve(h), alt);
        }
        Map<String, String> env = Map.of("LD_LIBRARY_PATH", lib.toString());
        JsonNode doc = RealVerify.verify(RealVerify.host(env), "--prefix", usr.toString());
        assertTrue(RealVerify.findings(doc, "cudnn.incomplete").isEmpty(), doc.get("findings").toString());
        assertEquals("9.5.1", doc.get("cudnn").get("headerVersion").asText(), doc.toString());
        assertEquals(0, doc.get("exitCode").asInt(), doc.get("findings").toString());

        Path alt = alternatives.resolve("libcudnn_cudnn_version_h");
        Files.delete(alt);
        Files.createSymbolicLink(alt, multi.resolve("cudnn_version_v8.h"));
        JsonNode broken = RealVerify.verify(RealVerify.host(env), "--prefix", usr.toString());
        JsonNode f = RealVerify.finding(broken, "cudnn.dangling-link");
        assertTrue(f.get("message").asText().contains(usr.resolve("include/cudnn_version.h") + " is a link to a file that does not exist")
                && f.get("message").asText().contains("the alternative libcudnn_cudnn_version_h still points at a cuDNN that was removed"), f.toString());
        assertTrue(f.get("fix").asText().contains("update-alternatives --config libcudnn_cudnn_version_h"), f.toString());
        assertTrue(RealVerify.findings(broken, "cudnn.incomplete").isEmpty(), broken.get("findings").toString());
    }
}
