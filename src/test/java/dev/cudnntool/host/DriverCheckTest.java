package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DriverCheckTest {
    static final ArchiveName CUDA12 = ArchiveName.parse("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz");
    static final ArchiveName WIN12 = ArchiveName.parse("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip");

    private static DriverCheck.Result linux(FakeRunner runner, ArchiveName archive) throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Files.createDirectories(fs.getPath("/usr/bin"));
        Files.writeString(fs.getPath("/usr/bin/nvidia-smi"), "#!");
        Host host = TestHosts.linux(fs, Map.of("PATH", "/usr/local/bin:/usr/bin"), runner);
        return DriverCheck.check(host, Platform.detect(host), archive);
    }

    private static Finding only(DriverCheck.Result r) {
        assertEquals(1, r.findings().size(), r.findings().toString());
        return r.findings().get(0);
    }

    @Test
    void aWorkingDriverIsReportedWithItsCudaCeilingAndGpus() throws Exception {
        FakeRunner runner = new FakeRunner().on("nvidia-smi", NvidiaSmiOutputs.R535)
                .on("--query-gpu=name,driver_version --format=csv,noheader", "NVIDIA A100-SXM4-80GB, 535.104.05\nNVIDIA A100-SXM4-80GB, 535.104.05\n");
        DriverCheck.Result r = linux(runner, CUDA12);
        Finding f = only(r);
        assertEquals("driver.ok", f.id());
        assertTrue(f.message().contains("535.104.05") && f.message().contains("12.2"), f.message());
        assertTrue(f.message().contains("ceiling, not the installed toolkit"), f.message());
        assertEquals(2, r.driver().gpus().size());
        assertEquals("/usr/bin/nvidia-smi", r.driver().nvidiaSmi());
    }

    @Test
    void noNvidiaSmiIsOnlyAWarning() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of("PATH", "/usr/bin"), new FakeRunner());
        Finding f = only(DriverCheck.check(host, Platform.detect(host), CUDA12));
        assertEquals("driver.missing", f.id());
        assertEquals(Severity.WARN, f.severity());
    }

    @Test
    void aDriverThatCannotBeReachedIsAnErrorQuotingNvidiaSmi() throws Exception {
        Finding f = only(linux(new FakeRunner().on("nvidia-smi", FakeRunner.failed(9, NvidiaSmiOutputs.NO_DRIVER, "")), CUDA12));
        assertEquals("driver.failed", f.id());
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.message().contains("couldn't communicate with the NVIDIA driver"), f.message());
        assertTrue(f.message().contains("exit 9"), f.message());
    }

    /** #19 A13: "No devices were found" (exit 6) is no GPU visible, not a broken driver. */
    @Test
    void noDevicesFoundIsNoGpuNotAFailedDriver() throws Exception {
        Finding f = only(linux(new FakeRunner().on("nvidia-smi", FakeRunner.failed(6, "No devices were found\n", "")), CUDA12));
        assertEquals("driver.no-gpu", f.id());
        assertEquals(Severity.WARN, f.severity());
        assertTrue(f.message().contains("No devices were found") && f.fix().contains("--gpus all"), f.toString());
    }

    @Test
    void aHungNvidiaSmiIsAnErrorNotAWait() throws Exception {
        Finding f = only(linux(new FakeRunner().on("nvidia-smi", FakeRunner.timedOut()), CUDA12));
        assertEquals("driver.failed", f.id());
        assertTrue(f.message().contains("did not answer within 10 s"), f.message());
    }

    @Test
    void emptyOrGarbageOutputIsAFailure() throws Exception {
        assertEquals("driver.failed", only(linux(new FakeRunner().on("nvidia-smi", ""), CUDA12)).id());
        assertEquals("driver.failed", only(linux(new FakeRunner().on("nvidia-smi", "\u0001\u0002 ???"), CUDA12)).id());
    }

    @Test
    void aDriverTooOldForTheArchivesCudaNamesTheMinimum() throws Exception {
        Finding f = only(linux(new FakeRunner().on("nvidia-smi", NvidiaSmiOutputs.R450), CUDA12));
        assertEquals("driver.too-old", f.id());
        assertTrue(f.message().contains("450.80.02") && f.message().contains("525.60.13"), f.message());
        assertTrue(f.fix().contains("525.60.13"), f.fix());
        // The same driver runs CUDA 11 builds.
        ArchiveName cuda11 = ArchiveName.parse("cudnn-linux-x86_64-8.9.5.30_cuda11-archive.tar.xz");
        assertEquals("driver.ok", only(linux(new FakeRunner().on("nvidia-smi", NvidiaSmiOutputs.R450), cuda11)).id());
        // Branch 610's new header spelling is read too.
        assertEquals("driver.ok", only(linux(new FakeRunner().on("nvidia-smi", NvidiaSmiOutputs.R610), CUDA12)).id());
    }

    @Test
    void windowsFindsNvidiaSmiInSystem32AndAppliesWindowsMinimums() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Files.createDirectories(fs.getPath("C:\\Windows\\System32"));
        Files.writeString(fs.getPath("C:\\Windows\\System32\\nvidia-smi.exe"), "MZ");
        Host host = TestHosts.windows(fs, Map.of("SystemRoot", "C:\\Windows", "PATH", "C:\\Tools"),
                new FakeRunner().on("nvidia-smi.exe", NvidiaSmiOutputs.WINDOWS));
        DriverCheck.Result r = DriverCheck.check(host, Platform.detect(host), WIN12);
        assertEquals("driver.ok", only(r).id());
        assertEquals("C:\\Windows\\System32\\nvidia-smi.exe", r.driver().nvidiaSmi());
        Host old = host.withRunner(new FakeRunner().on("nvidia-smi.exe",
                NvidiaSmiOutputs.WINDOWS.replace("536.25", "516.94").replace("12.2", "11.7")));
        Finding f = only(DriverCheck.check(old, Platform.detect(old), WIN12));
        assertEquals("driver.too-old", f.id());
        assertTrue(f.fix().contains("527.41"), f.fix());
    }

    @Test
    void wslUsesTheDriversOwnNvidiaSmi() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.write(fs.getPath("/proc/version"), "Linux version 5.15.133.1-microsoft-standard-WSL2 (root@1c602f52c2e4)");
        TestHosts.write(fs.getPath("/usr/lib/wsl/lib/nvidia-smi"), "#!");
        Host host = TestHosts.linux(fs, Map.of("PATH", "/usr/bin"), new FakeRunner().on("/usr/lib/wsl/lib/nvidia-smi", NvidiaSmiOutputs.R535));
        Platform p = Platform.detect(host);
        assertTrue(p.wsl());
        DriverCheck.Result r = DriverCheck.check(host, p, CUDA12);
        assertEquals("driver.ok", only(r).id());
        assertEquals(List.of("/usr/lib/wsl/lib/nvidia-smi"), List.of(r.driver().nvidiaSmi()));
    }

    @Test
    void theGpusComputeCapabilityIsReadAndAnOldNvidiaSmiStillListsItsGpus() throws Exception {
        FakeRunner withCc = new FakeRunner().on("nvidia-smi", NvidiaSmiOutputs.R535)
                .on(NvidiaSmiOutputs.QUERY_CC, NvidiaSmiOutputs.GPU_CC_RTX3090);
        DriverCheck.Result r = linux(withCc, CUDA12);
        assertEquals(List.of(new NvidiaSmi.Gpu("NVIDIA GeForce RTX 3090", "535.104.05", "8.6")), r.driver().gpus());
        FakeRunner old = new FakeRunner().on("nvidia-smi", NvidiaSmiOutputs.R450)
                .on(NvidiaSmiOutputs.QUERY_CC, FakeRunner.failed(2, NvidiaSmiOutputs.NO_COMPUTE_CAP_FIELD, ""))
                .on("--query-gpu=name,driver_version --format=csv,noheader", "Tesla T4, 450.80.02\n");
        DriverCheck.Result o = linux(old, DriverCheckTest.CUDA12);
        assertEquals(List.of(new NvidiaSmi.Gpu("Tesla T4", "450.80.02", null)), o.driver().gpus());
        assertEquals("driver.too-old", only(o).id(), "nothing else changes for an old nvidia-smi");
    }
}
