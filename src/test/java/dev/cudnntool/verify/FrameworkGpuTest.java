package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.NvidiaSmi;
import java.util.List;
import org.junit.jupiter.api.Test;

/** #33 item 4: the GPU against a framework's own CUDA build, not only the target's. */
class FrameworkGpuTest {
    static DriverInfo driver(String name, String cc) {
        return new DriverInfo("/usr/bin/nvidia-smi", "580.65.06", "13.0", List.of(new NvidiaSmi.Gpu(name, "580.65.06", cc)));
    }

    private static FrameworkReport torch(Integer cuda) {
        return new FrameworkReport("torch", "2.14.1", "/venv/lib/python3.12/site-packages", "nvidia-cudnn-cu13==9.24.0.43",
                new FrameworkReport.Loads("/venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9", "9.24.0", cuda,
                        "its DT_RUNPATH", "pip"), true, List.of());
    }

    @Test
    void aCuda13TorchOnAPascalGpuIsAnErrorWithTheCuda12Build() {
        List<Finding> f = Frameworks.gpuFindings(List.of(torch(13)), driver("Tesla P100-PCIE-16GB", "6.0"));
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).is(FindingId.CUDNN_GPU_UNSUPPORTED));
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.get(0).message().contains("torch 2.14.1 in /venv/lib/python3.12/site-packages is a CUDA 13 build")
                && f.get(0).message().contains("Tesla P100") && f.get(0).message().contains("compute capability 6.0"), f.get(0).message());
        assertTrue(f.get(0).fix().contains("CUDA 12 build of torch") && f.get(0).fix().contains("download.pytorch.org/whl/cu126"),
                f.get(0).fix());
    }

    @Test
    void turingOrACuda12BuildOrNoDriverIsSilent() {
        assertEquals(List.of(), Frameworks.gpuFindings(List.of(torch(13)), driver("Tesla T4", "7.5")));
        assertEquals(List.of(), Frameworks.gpuFindings(List.of(torch(12)), driver("Tesla P100-PCIE-16GB", "6.0")));
        assertEquals(List.of(), Frameworks.gpuFindings(List.of(torch(null)), driver("Tesla P100-PCIE-16GB", "6.0")));
        assertEquals(List.of(), Frameworks.gpuFindings(List.of(torch(13)), DriverInfo.NONE));
    }
}
