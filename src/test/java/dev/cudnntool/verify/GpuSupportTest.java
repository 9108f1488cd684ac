package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.GpuSupport;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 item 18: the installed release's support matrix against the GPU's compute capability, with fake nvidia-smi output. */
class GpuSupportTest {
    private VerifyReport verifyWith(String gpuAnswer) throws Exception {
        LinuxDiagnosisTest machine = new LinuxDiagnosisTest(); // a fresh machine each time
        machine.install(9, "9.5.1");
        Files.createDirectories(machine.fs.getPath("/usr/bin"));
        Files.writeString(machine.fs.getPath("/usr/bin/nvidia-smi"), "");
        machine.runner.on("nvidia-smi", NvidiaSmiOutputs.R575);
        if (gpuAnswer != null) {
            machine.runner.on(NvidiaSmiOutputs.QUERY_CC, gpuAnswer);
        }
        machine.runner.on("--query-gpu=name,driver_version --format=csv,noheader", "NVIDIA GeForce RTX 5090, 575.51.03\n");
        machine.probeSays(9, LinuxDiagnosisTest.loaded(LinuxDiagnosisTest.LIB + "/libcudnn.so.9", 90501, 12060), 0, "");
        return machine.verify(machine.host(Map.of("CUDA_PATH", LinuxDiagnosisTest.TK, "LD_LIBRARY_PATH", LinuxDiagnosisTest.LIB)), null);
    }

    @Test
    void aBlackwellGpuOn951IsAnErrorNamingTheNewestReleaseThatSupportsIt() throws Exception {
        VerifyReport r = verifyWith(NvidiaSmiOutputs.gpuWithCc("NVIDIA GeForce RTX 5090", "575.51.03", "12.0"));
        Finding f = LinuxDiagnosisTest.find(r, "cudnn.gpu-unsupported");
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.message().contains("cuDNN 9.5.1 for CUDA 12") && f.message().contains("RTX 5090")
                && f.message().contains("compute capability 12.0") && f.message().contains("5.0–9.0"), f.message());
        assertTrue(f.message().contains("https://docs.nvidia.com/deeplearning/cudnn/backend/v9.5.1/"), f.message());
        assertTrue(f.fix().contains("install cuDNN 9.17.0") && f.fix().contains("cudnn-linux-x86_64-9.17.0.29_cuda12-archive.tar.xz"),
                f.fix());
        assertFalse(r.ok());
    }

    @Test
    void aMaxwellGpuOn951IsFineAndAnOldNvidiaSmiChecksNothing() throws Exception {
        VerifyReport maxwell = verifyWith(NvidiaSmiOutputs.gpuWithCc("NVIDIA GeForce GTX 980", "575.51.03", "5.2"));
        LinuxDiagnosisTest.none(maxwell, "cudnn.gpu-unsupported");
        assertEquals("5.2", maxwell.driver().gpus().get(0).computeCapability());
        VerifyReport old = verifyWith(null); // compute_cap unknown to this nvidia-smi: the plain query answers
        LinuxDiagnosisTest.none(old, "cudnn.gpu-unsupported");
        assertEquals(1, old.driver().gpus().size(), old.driver().toString());
    }

    @Test
    void aReleaseTheMatrixDoesNotHoldIsNotChecked() {
        var driver = new DriverInfo("/usr/bin/nvidia-smi", "580.65.06", "13.0",
                List.of(new NvidiaSmi.Gpu("Tesla K80", "580.65.06", "3.7")));
        var host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        assertEquals(Severity.WARN, GpuSupport.findings(host, driver, "9.27.0", 13).get(0).severity(),
                "Kepler was dropped long before 9.17.0, the newest release the matrix holds");
        var future = new DriverInfo("/usr/bin/nvidia-smi", "580.65.06", "13.0",
                List.of(new NvidiaSmi.Gpu("a GPU newer than the matrix knows", "580.65.06", "13.0")));
        assertTrue(GpuSupport.findings(host, future, "9.27.0", 13).isEmpty(), "not held, not refused: not checked");
        Finding kepler = GpuSupport.findings(host, driver, "9.17.0", 13).get(0);
        assertTrue(kepler.fix().contains("install cuDNN 8.5.0") && kepler.fix().contains("8.5.0.96_cuda11-archive.tar.xz"),
                "8.5.0's page says SM 3.5 and later, and no newer page the matrix holds lists Kepler: " + kepler.fix());
        var fermi = new DriverInfo("/usr/bin/nvidia-smi", "390.157", "9.1",
                List.of(new NvidiaSmi.Gpu("GeForce GTX 580", "390.157", "2.0")));
        Finding none = GpuSupport.findings(host, fermi, "9.17.0", 13).get(0);
        assertTrue(none.fix().contains("cudnn releases --gpu 2.0"), "no catalogued release supports Fermi: " + none.fix());
        assertTrue(GpuSupport.findings(host, driver, null, 13).isEmpty());
    }

    @Test
    void theDriverMinimumOfTheInstalledReleaseIsItsMatrixRowForThisGpu() throws Exception {
        for (String cc : new String[] {"12.0", "8.6"}) {
            LinuxDiagnosisTest machine = new LinuxDiagnosisTest();
            machine.install(9, "9.10.2");
            Files.createDirectories(machine.fs.getPath("/usr/bin"));
            Files.writeString(machine.fs.getPath("/usr/bin/nvidia-smi"), "");
            machine.runner.on("nvidia-smi", NvidiaSmiOutputs.R535.replace("535.104.05", "565.57.01").replace("12.2", "12.7"));
            machine.runner.on(NvidiaSmiOutputs.QUERY_CC, NvidiaSmiOutputs.gpuWithCc("NVIDIA GeForce RTX 5090", "565.57.01", cc));
            machine.probeSays(9, LinuxDiagnosisTest.loaded(LinuxDiagnosisTest.LIB + "/libcudnn.so.9", 91002, 12080), 0, "");
            VerifyReport r = machine.verify(machine.host(Map.of("CUDA_PATH", LinuxDiagnosisTest.TK,
                    "LD_LIBRARY_PATH", LinuxDiagnosisTest.LIB)), null);
            if (cc.equals("12.0")) {
                Finding f = LinuxDiagnosisTest.find(r, "driver.too-old");
                assertTrue(f.fix().contains("570.26 or newer (the minimum for cuDNN 9.10.2 on this GPU"), f.fix());
            } else {
                LinuxDiagnosisTest.none(r, "driver.too-old"); // 565 meets 525.60.13, the row up to Hopper
            }
        }
    }

    @Test
    void aNewerReleaseThanTheMatrixHoldsOnAGpuItAlreadyDroppedIsAWarning() throws Exception {
        LinuxDiagnosisTest machine = new LinuxDiagnosisTest();
        machine.install(9, "9.27.0");
        Files.createDirectories(machine.fs.getPath("/usr/bin"));
        Files.writeString(machine.fs.getPath("/usr/bin/nvidia-smi"), "");
        machine.runner.on("nvidia-smi", NvidiaSmiOutputs.R575);
        machine.runner.on(NvidiaSmiOutputs.QUERY_CC, NvidiaSmiOutputs.gpuWithCc("Tesla V100-SXM2-16GB", "575.51.03", "7.0"));
        machine.probeSays(9, LinuxDiagnosisTest.loaded(LinuxDiagnosisTest.LIB + "/libcudnn.so.9", 92700, 12080), 0, "");
        VerifyReport r = machine.verify(machine.host(Map.of("CUDA_PATH", LinuxDiagnosisTest.TK, "LD_LIBRARY_PATH", LinuxDiagnosisTest.LIB)), null);
        Finding f = LinuxDiagnosisTest.find(r, "cudnn.gpu-unsupported");
        assertEquals(Severity.WARN, f.severity(), "inferred, not read from a matrix of 9.27.0");
        assertTrue(f.message().contains("probably") && f.message().contains("9.17.0"), f.message());
        assertTrue(f.fix().contains("install cuDNN 9.10.2"), "the newest release whose matrix lists Volta: " + f.fix());
    }
}
