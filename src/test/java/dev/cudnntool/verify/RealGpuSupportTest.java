package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.GpuSupport;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * #19 item 18 with real NVIDIA cuDNN 9.5.1: the release and CUDA build come from the real library (loaded by the probe
 * child), the GPU from a fake nvidia-smi answer: a Maxwell GTX 980 (5.2) is supported, a Blackwell RTX 5090 (12.0) is not.
 */
@Tag("real-cudnn")
class RealGpuSupportTest {
    @TempDir
    Path tmp;

    private static DriverInfo gpu(String name, String cc) {
        return new DriverInfo("/usr/bin/nvidia-smi", "575.51.03", "12.9", List.of(new NvidiaSmi.Gpu(name, "575.51.03", cc)));
    }

    @Test
    void theRealReleaseAgainstAMaxwellAndABlackwellGpu() throws Exception {
        Path lib = Files.createDirectories(tmp.resolve("lib"));
        RealCudnn.layOut(9, lib, Files.createDirectories(tmp.resolve("include")));
        ProbeResult p = new ProbeRunner(new SystemProcessRunner(), ProbeRunner.currentJava())
                .probe(lib.resolve("libcudnn.so.9"), null, List.of(lib.resolve("libcudnn_graph.so.9")));
        assertEquals("9.5.1", p.versionString(), p.toString());
        int cuda = CudaVersion.fromCudartNumber(p.cudartVersion()).major();
        assertEquals(12, cuda);
        var host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        assertTrue(GpuSupport.findings(host, gpu("NVIDIA GeForce GTX 980", "5.2"), p.versionString(), cuda).isEmpty());
        List<Finding> blackwell = GpuSupport.findings(host, gpu("NVIDIA GeForce RTX 5090", "12.0"), p.versionString(), cuda);
        assertEquals("cudnn.gpu-unsupported", blackwell.get(0).id());
        assertTrue(blackwell.get(0).fix().contains("9.17.0"), blackwell.get(0).fix());
    }
}
