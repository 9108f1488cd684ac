package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.verify.machine.DriverFit;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 A13: driver library missing, no GPU visible, driver too old: three causes, three texts; R580 is never blamed for CUDA 13. */
class DriverCausesTest {
    static final DriverInfo R580 = new DriverInfo("/usr/bin/nvidia-smi", "580.65.06", "13.0", List.of(new NvidiaSmi.Gpu("NVIDIA H100", "580.65.06")));
    static final DriverInfo R575 = new DriverInfo("/usr/bin/nvidia-smi", "575.51.03", "12.9", List.of(new NvidiaSmi.Gpu("NVIDIA H100", "575.51.03")));

    /** cuDNN 9.14 for CUDA 13.0 loaded, cudnnCreate failed with CUDNN_STATUS_INTERNAL_ERROR. */
    static ProbeResult failedHandle() {
        FakeRunner runner = new FakeRunner().on("--library /t/libcudnn.so.9", FakeRunner.ok("{\"event\":\"mainLoaded\",\"path\":\"/t/libcudnn.so.9\",\"loadedPath\":"
                + "\"/t/libcudnn.so.9\"}\n{\"event\":\"version\",\"value\":91400}\n{\"event\":\"cudartVersion\",\"value\":13000}\n"
                + "{\"event\":\"handle\",\"status\":4000,\"statusName\":\"CUDNN_STATUS_INTERNAL_ERROR\"}\n{\"event\":\"done\"}\n"));
        return new ProbeRunner(runner, List.of("java")).probe(Path.of("/t/libcudnn.so.9"), null, List.of());
    }

    static Host host(boolean libcuda, Map<String, String> env) throws Exception {
        FileSystem fs = TestHosts.unixFs();
        if (libcuda) {
            Files.createDirectories(fs.getPath("/usr/lib/x86_64-linux-gnu"));
            Files.write(fs.getPath("/usr/lib/x86_64-linux-gnu/libcuda.so.1"), ElfImages.so("libcuda.so.1", List.of(), null, List.of("cuInit")));
        }
        return TestHosts.linux(fs, env, new FakeRunner());
    }

    static Finding handle(Host host, DriverInfo d) {
        return ProbeCheck.findings(host, failedHandle(), null, null, d).stream().filter(f -> f.id().equals("cudnn.handle-failed"))
                .findFirst().orElseThrow();
    }

    @Test
    void withR580ACudnnCreateFailureIsNotBlamedOnTheDriverVersion() throws Exception {
        Finding f = handle(host(true, Map.of()), R580);
        assertTrue(f.message().contains("although driver 580.65.06 supports CUDA up to 13.0, enough for this CUDA 13.0 build, so its"
                + " version is not the cause"), f.message());
        assertFalse(f.fix().contains("update"), f.fix());
        assertEquals(List.of(), DriverFit.driverLibrary(host(true, Map.of()), R580));
        assertEquals(List.of(), DriverFit.findings(host(true, Map.of()), R580, CudaVersion.parse("13.0").orElseThrow()));
    }

    @Test
    void libcudaMissingIsItsOwnFindingAndTheHandleSaysSo() throws Exception {
        Host host = host(false, Map.of());
        List<Finding> lib = DriverFit.driverLibrary(host, R580);
        assertEquals(1, lib.size());
        assertEquals("driver.libcuda-missing", lib.get(0).id());
        assertEquals(Severity.ERROR, lib.get(0).severity());
        assertTrue(lib.get(0).message().contains("libcuda.so.1") && lib.get(0).message().contains("driver 580.65.06"), lib.get(0).message());
        assertTrue(lib.get(0).fix().contains("libnvidia-compute-580") && lib.get(0).fix().contains("--gpus all"), lib.get(0).fix());
        assertFalse(lib.get(0).fix().contains("update the NVIDIA driver"), lib.get(0).fix());
        Finding f = handle(host, R580);
        assertTrue(f.message().contains("libcuda.so.1") && f.message().contains("driver.libcuda-missing"), f.message());
        // a damaged libcuda.so.1 is not loadable either
        Host damaged = host(true, Map.of());
        Files.write(damaged.path("/usr/lib/x86_64-linux-gnu/libcuda.so.1"), new byte[] {0x7f, 'E', 'L', 'F'});
        assertTrue(DriverFit.driverLibrary(damaged, R580).get(0).message().contains("cannot be loaded"),
                DriverFit.driverLibrary(damaged, R580).toString());
        assertEquals(List.of(), DriverFit.driverLibrary(host, DriverInfo.NONE), "no nvidia-smi: said by driver.missing");
    }

    @Test
    void noGpuVisibleAndDriverTooOldAreTheOtherTwo() throws Exception {
        Host hidden = host(true, Map.of("CUDA_VISIBLE_DEVICES", "-1"));
        List<Finding> v = DriverFit.visibility(hidden, R580);
        assertEquals("driver.no-gpu", v.get(0).id());
        assertEquals(Severity.WARN, v.get(0).severity());
        assertTrue(handle(hidden, R580).message().contains("CUDA_VISIBLE_DEVICES=-1 hides every GPU"));
        assertEquals(List.of(), DriverFit.visibility(host(true, Map.of("CUDA_VISIBLE_DEVICES", "0,1")), R580));
        assertTrue(DriverFit.hidesAll("") && DriverFit.hidesAll("NoDevFiles") && !DriverFit.hidesAll("GPU-5f1b"));
        Finding old = handle(host(true, Map.of()), R575);
        assertTrue(old.message().contains("supports CUDA only up to 12.9") && old.message().contains("driver.too-old"), old.message());
    }
}
