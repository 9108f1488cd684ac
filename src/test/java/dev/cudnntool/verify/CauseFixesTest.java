package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.DriverMinimums;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.verify.machine.DriverFit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** #33 item 3: fixes follow from the cause. */
class CauseFixesTest {
    private static DriverInfo driver(String version, String ceiling, String name, String cc) {
        return new DriverInfo("/usr/bin/nvidia-smi", version, ceiling, List.of(new NvidiaSmi.Gpu(name, version, cc)));
    }

    @Test
    void theNewestDriverBranchPerGpuGenerationIsInTheOneTable() {
        assertEquals(Optional.of(470), DriverMinimums.newestDriverBranch("3.7"));
        assertEquals(Optional.of(580), DriverMinimums.newestDriverBranch("6.1"));
        assertEquals(Optional.of(580), DriverMinimums.newestDriverBranch("7.0"));
        assertEquals(Optional.empty(), DriverMinimums.newestDriverBranch("7.5"));
        assertEquals(Optional.empty(), DriverMinimums.newestDriverBranch("x"));
        assertTrue(DriverMinimums.outOfReach("3.7", "525.60.13"));
        assertFalse(DriverMinimums.outOfReach("3.7", "450.80.02"));
        assertFalse(DriverMinimums.outOfReach("8.6", "580.65.06"));
    }

    @Test
    void aK80OnDriver470IsNotToldToInstall525ButWhichCudnnItCanStillUse() {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        List<Finding> f = DriverFit.findings(host, driver("470.256.02", "11.4", "Tesla K80", "3.7"), new CudaVersion(12, 6));
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).is(FindingId.DRIVER_TOO_OLD));
        assertTrue(f.get(0).message().contains("Tesla K80 (compute capability 3.7) gets no driver newer than the 470 branch"),
                f.get(0).message());
        assertFalse(f.get(0).fix().contains("525"), f.get(0).fix());
        assertTrue(f.get(0).fix().contains("for CUDA 11"), f.get(0).fix());
    }

    @Test
    void aTuringGpuOnAnOldDriverIsStillToldToUpdateTheDriverOrTakeTheOlderBuild() {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        List<Finding> f = DriverFit.findings(host, driver("470.256.02", "11.4", "Tesla T4", "7.5"), new CudaVersion(12, 6));
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).fix().startsWith("update the NVIDIA driver to 525.60.13") && f.get(0).fix().contains("cuDNN build for CUDA 11"),
                f.get(0).fix());
    }

    private static FrameworkReport torch(String... problems) {
        return new FrameworkReport("torch", "2.14.1", "/venv/site-packages", "nvidia-cudnn-cu13==9.24.0.43",
                new FrameworkReport.Loads("/venv/site-packages/nvidia/cudnn/lib/libcudnn.so.9", "9.24.0", 13, "its DT_RUNPATH", "pip"),
                false, List.of(problems));
    }

    @Test
    void aFrameworksFixFollowsFromItsCauseNeverTheSameWheelAgain() {
        String cublas = Frameworks.fix(torch("libcublasLt.so.12 (cuBLASLt of CUDA 12) is not found where cuDNN opens it (x)"));
        assertEquals("cuBLASLt is missing, not cuDNN: in that environment, pip install nvidia-cublas-cu12", cublas);
        String driver = Frameworks.fix(torch("its cuDNN is built for CUDA 13, which needs driver 580.65.06 or newer; this driver is 550.54.14"));
        assertTrue(driver.startsWith("update the NVIDIA driver to 580.65.06 or newer (or use the torch build for CUDA 12")
                && driver.contains("whl/cu126"), driver);
        assertFalse(driver.contains("nvidia-cudnn-cu13"), driver);
        // another problem keeps the cuDNN fix, and the cause's fix follows it
        String both = Frameworks.fix(torch("it gets cuDNN 9.1.0, not 9.24.0.43",
                "libcublasLt.so.13 (cuBLASLt of CUDA 13) is not found where cuDNN opens it (x)"));
        assertTrue(both.contains("nvidia-cudnn-cu13==9.24.0.43") && both.endsWith("pip install nvidia-cublas==13.*"), both);
    }
}
