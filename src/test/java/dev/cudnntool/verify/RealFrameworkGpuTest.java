package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Arch;
import dev.cudnntool.Finding;
import dev.cudnntool.OsFamily;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.RealWheels;
import dev.cudnntool.verify.machine.DriverFit;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * #33 item 4 with the real torch 2.14.1 wheel set (nvidia-cudnn-cu13 9.24): its report says CUDA 13 from pip's real
 * RECORD, and a Pascal GPU (nvidia-smi's answer given, no GPU here) makes it an error; a Turing GPU does not.
 */
@Tag("real-cudnn")
class RealFrameworkGpuTest {
    @TempDir
    Path tmp;

    @Test
    void theRealCuda13TorchOnAPascalGpuIsCudnnGpuUnsupported() {
        Path site = RealWheels.linkVenv(tmp.resolve("venv"));
        Host host = new Host(FileSystems.getDefault(), Map.of("PATH", "/usr/bin:/bin", "VIRTUAL_ENV", tmp.resolve("venv").toString()),
                OsFamily.LINUX, Arch.X86_64, 64, new SystemProcessRunner());
        var pascal = FrameworkGpuTest.driver("Tesla P100-PCIE-16GB", "6.0");
        List<FrameworkReport> reports = Frameworks.analyse(host, List.of(site), Frameworks.TORCH, List.of(), pascal, c -> List.of());
        assertEquals(1, reports.size(), reports.toString());
        assertEquals(13, reports.get(0).loads().cudaMajor(), reports.toString());
        List<Finding> f = Frameworks.gpuFindings(reports, pascal);
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).isError() && f.get(0).message().contains("torch " + RealWheels.TORCH)
                && f.get(0).message().contains("CUDA 13 build") && f.get(0).message().contains(site.toString()), f.get(0).message());
        assertTrue(f.get(0).fix().contains("cu126"), f.get(0).fix());
        assertEquals(List.of(), Frameworks.gpuFindings(reports, FrameworkGpuTest.driver("Tesla T4", "7.5")));
    }

    @Test
    void theRealTorchWithoutItsCublasLtIsToldToInstallNvidiaCublasNotToReinstallCudnn() throws Exception {
        Path site = RealWheels.linkVenv(tmp.resolve("venv"));
        Files.delete(site.resolve("nvidia/cu13/lib/libcublasLt.so.13"));
        Host host = new Host(FileSystems.getDefault(), Map.of("PATH", "/usr/bin:/bin"), OsFamily.LINUX, Arch.X86_64, 64,
                new SystemProcessRunner());
        List<FrameworkReport> reports = Frameworks.analyse(host, List.of(site), Frameworks.TORCH, List.of(), DriverInfo.NONE,
                c -> List.of());
        List<Finding> f = Frameworks.findings(reports).stream().filter(x -> x.id().equals("framework.mismatch")).toList();
        assertEquals(1, f.size(), reports.toString());
        assertTrue(f.get(0).message().contains("libcublasLt.so.13"), f.get(0).message());
        assertTrue(f.get(0).fix().startsWith("cuBLASLt is missing, not cuDNN: in that environment, pip install nvidia-cublas==13.*"),
                f.get(0).fix());
        assertTrue(!f.get(0).fix().contains("nvidia-cudnn"), f.get(0).fix());
    }

    @Test
    void realCudnn951ForCuda12OnAK80WithDriver470NamesWhatItCanStillUseNotDriver525() {
        Path lib = RealCudnn.linux(9);
        ProbeResult p = new ProbeRunner(new SystemProcessRunner(),
                ProbeRunner.currentJava()).probe(lib.resolve("libcudnn.so.9"), null, List.of());
        CudaVersion built = CudaVersion.parse(p.cudartVersionString()).orElseThrow();
        assertEquals(12, built.major(), p.toString());
        Host host = new Host(FileSystems.getDefault(), Map.of("PATH", "/usr/bin:/bin"), OsFamily.LINUX, Arch.X86_64, 64,
                new SystemProcessRunner());
        var k80 = new DriverInfo("/usr/bin/nvidia-smi", "470.256.02", "11.4",
                List.of(new NvidiaSmi.Gpu("Tesla K80", "470.256.02", "3.7")));
        List<Finding> f = DriverFit.findings(host, k80, built);
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("no driver newer than the 470 branch"), f.get(0).message());
        assertTrue(!f.get(0).fix().contains("525") && f.get(0).fix().contains("CUDA 11"), f.get(0).fix());
    }
}
