package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Fix;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Verify's findings on made-up installs: Windows images on jimfs, probe answers replayed. */
class VerifyServiceTest {
    static final String TK = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2";

    static Finding find(VerifyReport r, String id) {
        return r.findings().stream().filter(f -> f.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError(id + " not in " + r.findings()));
    }

    /** A Windows toolkit with a hand-copied cuDNN 8.9.5: DLLs with real-format version resources. */
    static Host windowsInstall(FileSystem fs, String dllVersion, FakeRunner runner) throws Exception {
        Path tk = TestHosts.toolkit(fs.getPath(TK), "12.2.20230823");
        Path bin = tk.resolve("bin");
        for (String base : CudnnComponents.libraries(8)) {
            Files.write(bin.resolve(CudnnComponents.windowsDll(base, 8)), PeImages.dll(PeImages.X64, dllVersion));
        }
        Files.write(bin.resolve("zlibwapi.dll"), PeImages.dll(PeImages.X64, "1.2.3.0"));
        for (String h : CudnnComponents.headers(8)) {
            Files.writeString(tk.resolve("include").resolve(h), h.equals("cudnn_version.h")
                    ? ArchiveFixture.versionHeader(CudnnVersion.of(8, 9, 5)) : "/* */");
        }
        Path lib = tk.resolve("lib").resolve("x64");
        Files.createDirectories(lib);
        for (String base : CudnnComponents.libraries(8)) {
            Files.writeString(lib.resolve(base + ".lib"), "lib");
        }
        Files.createDirectories(fs.getPath("C:\\Windows\\System32"));
        return TestHosts.windows(fs, Map.of("CUDA_PATH", TK, "PATH", TK + "\\bin", "SystemRoot", "C:\\Windows"), runner);
    }

    @Test
    void aCompleteWindowsInstallIsOkAndItsFileVersionAgrees() throws Exception {
        Host host = windowsInstall(TestHosts.windowsFs(), "8.9.5.30", new FakeRunner());
        VerifyReport r = new VerifyService(host, null).verify(null, null, CudnnVersion.of(8, 9, 5));
        assertTrue(r.ok(), r.findings().toString());
        assertEquals(Severity.INFO, find(r, "cudnn.file-version").severity());
        assertTrue(find(r, "cudnn.ok").message().contains("8.9.5"));
    }

    @Test
    void theThreeFilesOnlyCopyIsIncomplete() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Host host = windowsInstall(fs, "8.9.5.30", new FakeRunner());
        Files.delete(fs.getPath(TK, "bin", "cudnn_cnn_infer64_8.dll"));
        Files.delete(fs.getPath(TK, "lib", "x64", "cudnn_adv_train.lib"));
        Finding f = find(new VerifyService(host, null).verify(null, null, null), "cudnn.incomplete");
        assertTrue(f.message().contains("cudnn_cnn_infer64_8.dll") && f.message().contains("lib/x64/cudnn_adv_train.lib"), f.message());
    }

    @Test
    void dllsFromTwoReleasesAndA32BitDllAndAFileVersionDisagreeingWithTheHeader() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Host host = windowsInstall(fs, "8.9.7.29", new FakeRunner());
        Files.write(fs.getPath(TK, "bin", "cudnn_ops_infer64_8.dll"), PeImages.dll(PeImages.X64, "8.9.5.30"));
        Files.write(fs.getPath(TK, "bin", "zlibwapi.dll"), PeImages.dll(PeImages.I386, "1.2.3.0"));
        VerifyReport r = new VerifyService(host, null).verify(null, null, null);
        assertFalse(r.ok());
        assertTrue(find(r, "cudnn.mixed-versions").message().contains("8.9.5.30"));
        assertTrue(find(r, "cudnn.dll-arch").message().contains("zlibwapi.dll"));
        Finding fv = find(r, "cudnn.file-version");
        assertEquals(Severity.ERROR, fv.severity());
        assertTrue(fv.message().contains("8.9.7.29") && fv.message().contains("8.9.5"), fv.message());
    }

    @Test
    void anUnfinishedInstallIsReported() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Host host = windowsInstall(fs, "8.9.5.30", new FakeRunner());
        TestHosts.write(fs.getPath(TK, ".cudnn-tool", "journal.json"),
                "{\"id\":\"20261130T030000Z-0001\",\"kind\":\"install\",\"state\":\"committing\",\"startedAt\":\"2026-11-30T03:00:00Z\","
                        + "\"target\":\"x\",\"ops\":[],\"recordId\":\"20261130T030000Z-0001\",\"stateDirCreated\":true}");
        Finding f = find(new VerifyService(host, null).verify(null, null, null), "install.unfinished");
        assertTrue(f.isError());
        assertTrue(f.fix().contains("cudnn rollback"));
    }

    @Test
    void expectMismatchAndNothingInstalled() throws Exception {
        Host host = windowsInstall(TestHosts.windowsFs(), "8.9.5.30", new FakeRunner());
        Finding f = find(new VerifyService(host, null).verify(null, null, CudnnVersion.of(8, 9, 7)), "cudnn.expect-mismatch");
        assertTrue(f.message().contains("8.9.7") && f.message().contains("8.9.5"), f.message());

        FileSystem fs = TestHosts.windowsFs();
        TestHosts.toolkit(fs.getPath(TK), "12.2.0");
        Host empty = TestHosts.windows(fs, Map.of("CUDA_PATH", TK), new FakeRunner());
        assertEquals(Severity.INFO, find(new VerifyService(empty, null).verify(null, null, null), "cudnn.missing").severity());
        assertEquals(Severity.ERROR, find(new VerifyService(empty, null).verify(null, null, CudnnVersion.of(8, 9, 5)), "cudnn.missing").severity());
    }

    /** #31 item 7: with --expect X and nothing installed, the fix is to install release X (by kind: this tool's command). */
    @Test
    void expectWithNothingInstalledSuggestsThatRelease() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        TestHosts.toolkit(fs.getPath(TK), "12.2.0");
        Host empty = TestHosts.windows(fs, Map.of("CUDA_PATH", TK), new FakeRunner());
        for (CudnnVersion v : List.of(CudnnVersion.of(8, 9, 5), CudnnVersion.of(9, 5, 1))) {
            Finding f = find(new VerifyService(empty, null).verify(null, null, v), "cudnn.missing");
            assertTrue(f.fix().contains("cudnn install --release " + v.releaseString()), f.fix());
            assertTrue(f.remedy().is(Fix.Kind.TOOL), f.fix());
        }
        Finding plain = find(new VerifyService(empty, null).verify(null, null, null), "cudnn.missing");
        assertTrue(plain.fix().contains("cudnn install --archive"), plain.fix());
        assertFalse(plain.fix().contains("--release"), plain.fix());
    }

    /** The probe's answers replayed: what a GPU machine with a broken driver would say. */
    @Test
    void probeAnswersBecomeFindings() throws Exception {
        String lib = TK + "\\bin\\cudnn64_8.dll";
        String ok = "{\"event\":\"mainLoaded\",\"path\":\"" + lib.replace("\\", "\\\\") + "\",\"loadedPath\":\"" + lib.replace("\\", "\\\\") + "\"}\n"
                + "{\"event\":\"version\",\"value\":8905}\n{\"event\":\"cudartVersion\",\"value\":11080}\n"
                + "{\"event\":\"handle\",\"status\":4000,\"statusName\":\"CUDNN_STATUS_INTERNAL_ERROR\"}\n{\"event\":\"done\"}\n";
        FileSystem fs = TestHosts.windowsFs();
        Files.createDirectories(fs.getPath("C:\\Windows\\System32"));
        Files.writeString(fs.getPath("C:\\Windows\\System32\\nvidia-smi.exe"), "MZ");
        FakeRunner runner = new FakeRunner().on("nvidia-smi.exe", NvidiaSmiOutputs.WINDOWS)
                .on("--query-gpu=name,driver_version --format=csv,noheader", "NVIDIA GeForce RTX 4090, 536.25\n")
                .on("--name cudnn64_8.dll", new ProcessResult(0, ok, "", false, null));
        for (String base : CudnnComponents.subLibraries(8)) {
            runner.on("--sub " + TK + "\\bin\\" + CudnnComponents.windowsDll(base, 8), new ProcessResult(0, ok, "", false, null));
        }
        Host host = windowsInstall(fs, "8.9.5.30", runner);
        VerifyReport r = new VerifyService(host, new ProbeRunner(runner, List.of("java"))).verify(null, null, null);
        assertEquals(8905, r.probe().version());
        Finding cudart = find(r, "cudnn.cudart-mismatch");
        assertTrue(cudart.message().contains("CUDA 11.8") && cudart.message().contains("12.2"), cudart.message());
        Finding handle = find(r, "cudnn.handle-failed");
        assertTrue(handle.message().contains("CUDNN_STATUS_INTERNAL_ERROR"), handle.message());
    }
}
