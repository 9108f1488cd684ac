package dev.cudnntool.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.verify.ProbeCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * #33 item 1 on Windows: the child lists the process's modules (EnumProcessModules, GetModuleFileNameExW), bounded
 * and checked, and puts the main library's folder on its own PATH only when it is not there. The events below are
 * those of a real run under Wine (scripts/windows-under-wine.sh, verify-stale-system32: NVIDIA's 8.9.7 DLLs in
 * C:\cudnn\bin, a copy of cudnn_ops_infer64_8.dll with bytes appended in System32).
 */
class ProbeWindowsModulesTest {
    private static final String BIN = "C:\\cudnn\\bin\\";
    private static final String STALE = "C:\\windows\\system32\\cudnn_ops_infer64_8.dll";

    @Test
    void onWindowsTheSearchPathStepComesAfterTheLoadByNameAndBeforeTheMainLibrary() {
        List<String> names = new ProbeMain(null, BIN + "cudnn64_8.dll", "cudnn64_8.dll", List.of()).windowsSteps().stream()
                .map(ProbeMain.Step::name).toList();
        assertEquals(List.of("byName", "searchPath", "loadMain", "version", "cudartVersion", "properties",
                "maxDeviceVersion", "versionChecks", "mapped", "handle", "subLibraries"), names);
    }

    @Test
    void moduleNamesAreCheckedAndEachIsKeptOnceInTheLoadersOrder() {
        List<String> raw = List.of(BIN + "cudnn64_8.dll", STALE, "c:\\CUDNN\\bin\\cudnn64_8.dll", "\\\\?\\" + BIN + "cudnn_cnn_infer64_8.dll",
                "\\\\?\\UNC\\server\\share\\cudnn_adv_infer64_8.dll", "cudnn_ops_train64_8.dll", "C:relative.dll", "",
                "C:\\bad\u0007name.dll", "\\\\?\\", "C:\\" + "x".repeat(NativeLoader.Windows.PATH_LIMIT));
        assertEquals(List.of(BIN + "cudnn64_8.dll", STALE, BIN + "cudnn_cnn_infer64_8.dll",
                "\\\\server\\share\\cudnn_adv_infer64_8.dll"), MappedFiles.windowsModules(raw));
        assertNull(MappedFiles.windowsPath(null));
    }

    @Test
    void atMostTheLimitOfModulesIsListed() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < NativeLoader.Windows.MODULES_LIMIT + 10; i++) {
            many.add("C:\\m\\lib" + i + ".dll");
        }
        List<String> listed = MappedFiles.windowsModules(many);
        assertEquals(NativeLoader.Windows.MODULES_LIMIT, listed.size());
        assertEquals("C:\\m\\lib0.dll", listed.get(0));
    }

    @Test
    void cudnnDllsAreTold() {
        assertTrue(MappedFiles.isCudnn(STALE));
        assertTrue(MappedFiles.isCudnn("C:\\x\\CUDNN_OPS64_9.DLL"));
        assertTrue(MappedFiles.isCudnn("C:\\x\\cudnn_engines_precompiled64_9.dll"));
        assertFalse(MappedFiles.isCudnn("C:\\cudnn\\bin\\zlibwapi.dll"));
        assertFalse(MappedFiles.isCudnn("C:\\cudnn\\cudnn64_8.dll.bak"));
    }

    @Test
    void aFolderAlreadyOnPathIsFoundThere() {
        String path = "C:\\Windows\\system32;;\"C:\\Program Files\\cuDNN\\bin\\\";C:\\cudnn\\bin\\";
        assertTrue(MappedFiles.onWindowsPath(path, "c:\\CUDNN\\bin"));
        assertTrue(MappedFiles.onWindowsPath(path, "C:\\Program Files\\cuDNN\\bin"));
        assertFalse(MappedFiles.onWindowsPath(path, "C:\\cudnn"));
        assertFalse(MappedFiles.onWindowsPath("", "C:\\cudnn\\bin"));
        assertFalse(MappedFiles.onWindowsPath(null, "C:\\cudnn\\bin"));
        assertFalse(MappedFiles.onWindowsPath(path, ""));
    }

    private static String events(String opsInfer) {
        List<String> lines = new ArrayList<>(List.of(
                "{\"event\":\"mainLoaded\",\"path\":\"C:\\\\cudnn\\\\bin\\\\cudnn64_8.dll\",\"loadedPath\":\"C:\\\\cudnn\\\\bin\\\\cudnn64_8.dll\"}",
                "{\"event\":\"version\",\"value\":8907}",
                "{\"event\":\"versionCheck\",\"function\":\"cudnnOpsInferVersionCheck\",\"status\":0,\"statusName\":\"CUDNN_STATUS_SUCCESS\"}",
                "{\"event\":\"mapped\",\"path\":\"C:\\\\cudnn\\\\bin\\\\cudnn64_8.dll\"}",
                "{\"event\":\"mapped\",\"path\":\"" + opsInfer.replace("\\", "\\\\") + "\",\"version\":\"8.9.7\"}",
                "{\"event\":\"mapped\",\"path\":\"C:\\\\cudnn\\\\bin\\\\cudnn_cnn_infer64_8.dll\",\"version\":\"8.9.7\"}"));
        lines.add("{\"event\":\"done\"}");
        return String.join("\n", lines) + "\n";
    }

    private static List<Finding> findings(String opsInfer) {
        Host host = TestHosts.windows(TestHosts.windowsFs(), Map.of("PATH", "C:\\cudnn\\bin"), new FakeRunner());
        ProbeResult p = ProbeRunner.parse(BIN + "cudnn64_8.dll", new ProcessResult(0, events(opsInfer), "", false, null));
        return ProbeCheck.findings(host, p, null, null, DriverInfo.NONE);
    }

    @Test
    void aSubLibraryFromSystem32IsNamedWithWindowsWords() {
        List<Finding> f = findings(STALE);
        Finding away = f.stream().filter(x -> x.is(FindingId.CUDNN_SUBLIBRARY_ELSEWHERE)).findFirst()
                .orElseThrow(() -> new AssertionError(f.toString()));
        assertEquals(Severity.WARN, away.severity());
        assertTrue(away.message().contains(STALE + " (cuDNN 8.9.7) from another folder than C:\\cudnn\\bin"), away.message());
        assertTrue(away.message().contains("System32, the Windows folder and the current folder before PATH"), away.message());
        assertFalse(away.message().contains("LD_LIBRARY_PATH") || away.remedy().text().contains("LD_LIBRARY_PATH"), away::toString);
        assertTrue(away.remedy().text().contains("delete or rename the stray cuDNN files"), away.remedy()::toString);
        // the same release: no mismatch is claimed
        assertTrue(f.stream().noneMatch(x -> x.is(FindingId.CUDNN_MIXED_VERSIONS)), f::toString);
    }

    @Test
    void everyModuleFromTheMainLibrarysFolderNamesNothing() {
        List<Finding> f = findings(BIN + "cudnn_ops_infer64_8.dll");
        assertTrue(f.stream().noneMatch(x -> x.is(FindingId.CUDNN_SUBLIBRARY_ELSEWHERE)), f::toString);
    }
}
