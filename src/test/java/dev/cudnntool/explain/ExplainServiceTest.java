package dev.cudnntool.explain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.verify.VerifyService;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ExplainService} on machines built to match each error family (jimfs, Linux and Windows): the cause present
 * (an error with the fix), ruled out (what was checked), and not checkable here. The library is never loaded here
 * (verify without the probe); {@code ExplainCommandTest} runs the command line and {@code RealExplainTest} real libraries.
 */
class ExplainServiceTest {
    static final String VENV = "/home/u/whisper/.venv";
    static final String SITE = VENV + "/lib/python3.11/site-packages";

    static Explanation explain(Machine m, String text) {
        VerifyService files = new VerifyService(m.host(), null);
        return new ExplainService(m.host(), files, files).explain(Recognizer.recognize(text));
    }

    static Finding one(Explanation e, FindingId id) {
        List<Finding> f = e.findings().stream().filter(x -> x.is(id)).toList();
        assertEquals(1, f.size(), () -> id.id() + " once in " + e.findings());
        return f.get(0);
    }

    /** A pip cuDNN 9 (torch's) in the venv, as nvidia-cudnn-cu12 9.1.0.70 lays it out. */
    static Machine.Builder torchsCuDnn9(Machine.Builder b) {
        String lib = SITE + "/nvidia/cudnn/lib/";
        for (String s : List.of("", "_ops", "_cnn", "_adv", "_graph", "_engines_precompiled", "_engines_runtime_compiled", "_heuristic")) {
            b.file(lib + "libcudnn" + s + ".so.9", "elf");
        }
        return b.env("VIRTUAL_ENV", VENV);
    }

    @Test
    void fasterWhisperBesideTorchNeedsCuDnn8AndIsToldHow() throws Exception {
        try (Machine m = torchsCuDnn9(Machine.linux()).build()) {
            Explanation e = explain(m, "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open"
                    + " shared object file: No such file or directory");
            assertEquals(Explanation.Outcome.PROBLEM, e.outcome());
            Finding f = one(e, FindingId.EXPLAIN_NOT_FOUND);
            assertEquals(Severity.ERROR, f.severity());
            assertTrue(f.message().contains("libcudnn_ops_infer.so.8 is not found by name here: there is no cuDNN 8 on this machine"),
                    f.message());
            assertTrue(f.message().contains(SITE + "/nvidia/cudnn/lib/libcudnn.so.9") && f.message().contains("needs cuDNN 8 beside it"),
                    f.message());
            assertTrue(f.fix().contains("pip install nvidia-cudnn-cu12==8.9.7.29"), f.fix());
            assertTrue(f.fix().contains("cudnn install --release 8.9.7 --prefix /opt/cudnn8"), f.fix());
            assertTrue(f.fix().contains("export LD_LIBRARY_PATH=/opt/cudnn8/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"), f.fix());
        }
    }

    @Test
    void aCuDnn8CopyTheLoaderDoesNotSearchIsNamedWithTheSearchPathLine() throws Exception {
        String lib = SITE + "/nvidia/cudnn/lib";
        try (Machine m = Machine.linux().env("VIRTUAL_ENV", VENV).file(lib + "/libcudnn.so.8", "elf")
                .file(lib + "/libcudnn_ops_infer.so.8", "elf").build()) {
            Explanation e = explain(m, "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open");
            Finding f = one(e, FindingId.EXPLAIN_NOT_FOUND);
            assertTrue(f.message().contains("but it is in " + lib + ", a folder the loader does not search"), f.message());
            assertTrue(f.fix().contains("export LD_LIBRARY_PATH=" + lib), f.fix());
        }
    }

    @Test
    void aCopyOnLdLibraryPathRulesTheLoadFailureOut() throws Exception {
        try (Machine m = Machine.linux().env("LD_LIBRARY_PATH", "/opt/cudnn8/lib").file("/opt/cudnn8/lib/libcudnn.so.8", "elf")
                .file("/opt/cudnn8/lib/libcudnn_ops_infer.so.8", "elf").build()) {
            Explanation e = explain(m, "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open");
            assertEquals(Explanation.Outcome.NOT_PRESENT, e.outcome());
            Finding f = one(e, FindingId.EXPLAIN_RULED_OUT);
            assertTrue(f.message().contains("libcudnn_ops_infer.so.8 is found by name here: /opt/cudnn8/lib/libcudnn_ops_infer.so.8"
                    + " (through LD_LIBRARY_PATH)"), f.message());
        }
    }

    @Test
    void cuDnn9sGraphSubLibraryMissingFromAnIncompleteCopyIsAnError() throws Exception {
        try (Machine m = Machine.linux().env("LD_LIBRARY_PATH", "/opt/cudnn9/lib").file("/opt/cudnn9/lib/libcudnn.so.9", "elf")
                .build()) {
            Explanation e = explain(m, "Unable to load any of {libcudnn_graph.so.9.1.0, libcudnn_graph.so.9.1, libcudnn_graph.so.9,"
                    + " libcudnn_graph.so}");
            Finding f = one(e, FindingId.EXPLAIN_NOT_FOUND);
            assertTrue(f.message().contains("libcudnn_graph.so.9 is not found by name here: the cuDNN 9 here (cuDNN 9 at"
                    + " /opt/cudnn9/lib/libcudnn.so.9) lacks it"), f.message());
            assertTrue(f.fix().startsWith("reinstall it complete"), f.fix());
        }
    }

    @Test
    void aMissingCublasIsFixedWithItsWheelNotACuDnnReinstall() throws Exception {
        try (Machine m = Machine.linux().build()) {
            Finding f = one(explain(m, "Could not load library libcudnn_ops_infer.so.8. Error: libcublas.so.11: cannot open shared"
                    + " object file: No such file or directory"), FindingId.EXPLAIN_NOT_FOUND);
            assertTrue(f.message().contains("libcublas.so.11 is not found by name here (libcudnn_ops_infer.so.8 needs it)"), f.message());
            assertTrue(f.fix().contains("pip install nvidia-cublas-cu11"), f.fix());
        }
    }

    @Test
    void pytorchsMismatchNamesTheLdLibraryPathFolderHoldingTheRuntimeVersion() throws Exception {
        try (Machine m = Machine.linux().env("LD_LIBRARY_PATH", "/public/apps/cudnn/v8.0.3/lib64:/usr/local/cuda/lib64")
                .file("/public/apps/cudnn/v8.0.3/lib64/libcudnn.so.8.0.3", "elf")
                .link("/public/apps/cudnn/v8.0.3/lib64/libcudnn.so.8", "libcudnn.so.8.0.3").build()) {
            Explanation e = explain(m, "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) but"
                    + " linked against (8, 0, 3)");
            assertEquals(Explanation.Outcome.PROBLEM, e.outcome());
            Finding f = one(e, FindingId.EXPLAIN_FOUND_FIRST);
            assertTrue(f.message().contains("/public/apps/cudnn/v8.0.3/lib64/libcudnn.so.8 (through LD_LIBRARY_PATH), cuDNN 8.0.3,"
                    + " not the cuDNN 8.3.2 PyTorch brings"), f.message());
            assertTrue(f.fix().startsWith("remove /public/apps/cudnn/v8.0.3/lib64 from LD_LIBRARY_PATH"), f.fix());
        }
    }

    @Test
    void pytorchsMismatchWithNoOtherCuDnnHereIsRuledOut() throws Exception {
        try (Machine m = Machine.linux().build()) {
            Explanation e = explain(m, "cuDNN version incompatibility: PyTorch was compiled  against (8, 5, 0) but found runtime"
                    + " version (8, 3, 3).");
            assertEquals(Explanation.Outcome.NOT_PRESENT, e.outcome());
            assertTrue(one(e, FindingId.EXPLAIN_RULED_OUT).message().contains("no libcudnn.so.8 is found by name here"));
        }
    }

    @Test
    void tensorflowNeedsTheSameMajorAndAtLeastTheMinor() throws Exception {
        String line = "Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.3.0.  CuDNN library needs to have"
                + " matching major version and equal or higher minor version.";
        try (Machine old = Machine.linux().env("LD_LIBRARY_PATH", "/opt/cudnn/lib").file("/opt/cudnn/lib/libcudnn.so.9.1.0", "elf")
                .link("/opt/cudnn/lib/libcudnn.so.9", "libcudnn.so.9.1.0").build()) {
            Finding f = one(explain(old, line), FindingId.EXPLAIN_FOUND_FIRST);
            assertTrue(f.message().contains("cuDNN 9.1.0, older than the 9.3.0 TensorFlow was built with (it needs cuDNN 9.3 or a"
                    + " newer 9.x)"), f.message());
            assertTrue(f.fix().contains("pip install 'nvidia-cudnn-cu12>=9.3'") && f.fix().contains("remove /opt/cudnn/lib"), f.fix());
        }
        try (Machine newer = Machine.linux().env("LD_LIBRARY_PATH", "/opt/cudnn/lib").file("/opt/cudnn/lib/libcudnn.so.9.5.1", "elf")
                .link("/opt/cudnn/lib/libcudnn.so.9", "libcudnn.so.9.5.1").build()) {
            Explanation e = explain(newer, line);
            assertEquals(Explanation.Outcome.NOT_PRESENT, e.outcome());
            assertTrue(one(e, FindingId.EXPLAIN_RULED_OUT).message().contains("cuDNN 9.5.1, which fits a TensorFlow built with 9.3.0"));
        }
    }

    @Test
    void windows126IsTheMissingZlibwapiWhenTheDllIsFound() throws Exception {
        String line = "Could not load library cudnn_cnn_infer64_8.dll. Error code 126";
        byte[] dll = PeImages.dll(PeImages.X64, "8.9.7.29");
        try (Machine m = Machine.windows().onPath("C:\\cudnn\\bin").file("C:\\cudnn\\bin\\cudnn_cnn_infer64_8.dll", dll).build()) {
            Explanation e = explain(m, line);
            Finding f = one(e, FindingId.EXPLAIN_DEPENDENCY);
            assertTrue(f.message().contains("zlibwapi.dll") && f.message().contains("8.9.7.29"), f.message());
            assertTrue(f.fix().contains("C:\\cudnn\\bin"), f.fix());
        }
        try (Machine ok = Machine.windows().onPath("C:\\cudnn\\bin").file("C:\\cudnn\\bin\\cudnn_cnn_infer64_8.dll", dll)
                .file("C:\\cudnn\\bin\\zlibwapi.dll", PeImages.dll(PeImages.X64, "1.2.3.0")).build()) {
            Explanation e = explain(ok, line);
            assertEquals(Explanation.Outcome.NOT_PRESENT, e.outcome());
            assertTrue(one(e, FindingId.EXPLAIN_RULED_OUT).message().contains("with zlibwapi.dll; error 126 may then be another DLL"));
        }
    }

    @Test
    void windows193IsA32BitDllFoundFirst() throws Exception {
        try (Machine m = Machine.windows().onPath("C:\\old\\bin")
                .file("C:\\old\\bin\\cudnn_ops_infer64_8.dll", PeImages.dll(PeImages.I386, "8.9.7.29")).build()) {
            Finding f = one(explain(m, "Could not load library cudnn_ops_infer64_8.dll. Error code 193"), FindingId.EXPLAIN_DEPENDENCY);
            assertTrue(f.message().contains("is x86 (32-bit), not x64"), f.message());
        }
    }

    @Test
    void windowsDllNotFoundAnywhereGetsTheInstallFixWithAPathLine() throws Exception {
        try (Machine m = Machine.windows().build()) {
            Finding f = one(explain(m, "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!"),
                    FindingId.EXPLAIN_NOT_FOUND);
            assertTrue(f.message().contains("there is no cuDNN 8 on this machine"), f.message());
            assertTrue(f.fix().contains("cudnn install --release 8.9.7 --prefix C:\\cudnn8") && f.fix().contains("set \"PATH=C:\\cudnn8\\bin;"),
                    f.fix());
        }
    }

    @Test
    void onnxRuntimes126WithNoCuDnnOnPathIsNotFound() throws Exception {
        try (Machine m = Machine.windows().build()) {
            Explanation e = explain(m, "LoadLibrary failed with error 126 \"\" when trying to load"
                    + " \"C:\\app\\onnxruntime_providers_cuda.dll\"");
            assertEquals(Explanation.Outcome.PROBLEM, e.outcome());
            assertTrue(one(e, FindingId.EXPLAIN_NOT_FOUND).message().contains("cudnn64_9.dll is not found by name here"));
        }
        try (Machine m = Machine.windows().onPath("C:\\cudnn9\\bin")
                .file("C:\\cudnn9\\bin\\cudnn64_9.dll", PeImages.dll(PeImages.X64, "9.5.1.17")).build()) {
            Explanation e = explain(m, "LoadLibrary failed with error 126 \"\" when trying to load \"C:\\a\\onnxruntime_providers_cuda.dll\"");
            assertEquals(Explanation.Outcome.NOT_PRESENT, e.outcome(), e.findings().toString());
        }
    }

    @Test
    void anotherOperatingSystemsLineCannotBeCheckedHere() throws Exception {
        try (Machine linux = Machine.linux().build()) {
            Explanation e = explain(linux, "Could not load library cudnn_cnn_infer64_8.dll. Error code 126");
            assertEquals(Explanation.Outcome.NOT_CHECKED, e.outcome());
            assertTrue(one(e, FindingId.EXPLAIN_NOT_CHECKED).message().contains("the line is Windows's and this machine is Linux"));
        }
        try (Machine windows = Machine.windows().build()) {
            assertEquals(Explanation.Outcome.NOT_CHECKED, explain(windows, "libcudnn.so.9: cannot open shared object file").outcome());
        }
    }

    @Test
    void statusCodes() throws Exception {
        try (Machine bare = Machine.linux().build()) {
            assertEquals(Explanation.Outcome.NOT_CHECKED, explain(bare, "cuDNN error: CUDNN_STATUS_NOT_INITIALIZED").outcome(),
                    "no cuDNN here to load");
            Explanation program = explain(bare, "cuDNN error: CUDNN_STATUS_BAD_PARAM");
            assertEquals(Explanation.Outcome.NOT_PRESENT, program.outcome());
            assertTrue(one(program, FindingId.EXPLAIN_RULED_OUT).message().contains("calling program's own use of cuDNN"));
        }
        try (Machine m = Machine.linux().toolkit("12.2.20230823").installed(ArchiveFixture.linux("9.5.1.17", "12"))
                .build()) {
            Explanation broken = explain(m, "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED (1008)");
            assertEquals(Explanation.Outcome.PROBLEM, broken.outcome(), broken.findings().toString());
            assertTrue(broken.findings().stream().anyMatch(f -> f.id().equals("cudnn.damaged-file") && f.isError()),
                    "verify's own findings for the copy programs load are carried: " + broken.findings());
            assertTrue(broken.findings().stream().noneMatch(f -> f.severity() == Severity.INFO), "only errors and warnings");
            List<Finding> missing = broken.findings().stream().filter(x -> x.is(FindingId.CUDNN_DEPENDENCY_MISSING)).toList();
            List<Finding> causes = broken.findings().stream().filter(x -> x.is(FindingId.EXPLAIN_DEPENDENCY)).toList();
            assertEquals(missing.size(), causes.size(), "each missing library is a cause of 1008: " + broken.findings());
            assertTrue(causes.stream().anyMatch(x -> x.isError() && x.message().contains("libcublasLt.so.12")), causes.toString());
            Explanation noDriver = explain(m, "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED");
            Finding f = one(noDriver, FindingId.EXPLAIN_NO_GPU);
            assertTrue(f.message().startsWith("line 1: CUDNN_STATUS_NOT_INITIALIZED is what cuDNN answers here: nvidia-smi was not"
                    + " found") && f.message().endsWith("(driver.missing)"), f.message());
            assertTrue(f.fix().startsWith("install the NVIDIA driver"), f.fix());
        }
    }
}
