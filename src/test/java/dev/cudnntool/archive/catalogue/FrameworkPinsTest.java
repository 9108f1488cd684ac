package dev.cudnntool.archive.catalogue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class FrameworkPinsTest {
    private static final FrameworkPins P = FrameworkPins.bundled();

    @Test
    void pinsAreFoundByReleaseOrSeriesAndOs() {
        FrameworkPins.Pin torch = P.find("torch", "2.14.1", "linux").orElseThrow();
        assertEquals("9.24.0.43", torch.cudnn(), "the real wheel's METADATA pins nvidia-cudnn-cu13==9.24.0.43");
        assertEquals(13, torch.cuda());
        assertEquals("9.1.0.70", P.find("torch", "2.5.1", "windows").orElseThrow().cudnn());
        assertEquals("9", P.find("onnxruntime-gpu", "1.19.2", "linux").orElseThrow().cudnn(), "1.19 covers 1.19.x");
        assertEquals("8.5.0.96", P.find("onnxruntime-gpu", "1.16.3", "windows").orElseThrow().cudnn());
        assertEquals("8.2.4", P.find("onnxruntime_gpu", "1.16.3", "linux").orElseThrow().cudnn());
        assertEquals("8.9", P.find("tensorflow", "2.16.1", "linux").orElseThrow().cudnn());
        assertEquals("8.9", P.find("jaxlib", "0.4.28", "linux").orElseThrow().cudnn());
        assertTrue(P.find("torch", "2.5", "linux").isEmpty(), "2.5 is not 2.5.1");
        assertTrue(P.find("torch", "2.5.10", "linux").isEmpty());
        assertTrue(P.find("caffe", "1.0", "linux").isEmpty());
        assertTrue(P.known().contains("torch 2.14.1, 2.5.1"), P.known());
        assertTrue(torch.matches("9.24.0.43") && !torch.matches("9.24.0.4") && !torch.matches("9.24.0.430"));
        assertTrue(P.find("tensorflow", "2.16.1", "linux").orElseThrow().matches("8.9.7.29"));
        for (FrameworkPins.Pin p : P.all()) {
            assertTrue(!p.source().isBlank(), "every pin names its source: " + p);
        }
    }

    @Test
    void theReaderRefusesBadRows() {
        String ok = "{\"framework\":\"torch\",\"version\":\"2.5.1\",\"cudnn\":\"9.1.0.70\",\"cuda\":12,\"source\":\"x\"}";
        assertEquals(1, FrameworkPins.parse(("{\"schema\":1,\"rows\":[" + ok + "]}").getBytes(StandardCharsets.UTF_8)).all().size());
        for (String bad : new String[] {ok.replace("9.1.0.70", "latest"), ok.replace("torch", "Torch!"),
            ok.replace("\"cuda\":12", "\"cuda\":\"12\""), ok.replace(",\"source\":\"x\"", "")}) {
            assertThrows(IllegalArgumentException.class,
                    () -> FrameworkPins.parse(("{\"schema\":1,\"rows\":[" + bad + "]}").getBytes(StandardCharsets.UTF_8)), bad);
        }
    }

    @Test
    void everyTorchReleaseFrom21PinsItsCudnnWithTheMetadataLine() {
        Map<String, String> expected = new LinkedHashMap<>();
        for (String v : new String[] {"2.1.0", "2.1.1", "2.1.2", "2.2.0", "2.2.1", "2.2.2", "2.3.0", "2.3.1"}) {
            expected.put(v, "8.9.2.26");
        }
        for (String v : new String[] {"2.4.0", "2.4.1", "2.5.0", "2.5.1", "2.6.0"}) {
            expected.put(v, "9.1.0.70");
        }
        expected.put("2.7.0", "9.5.1.17");
        expected.put("2.7.1", "9.5.1.17");
        for (String v : new String[] {"2.8.0", "2.9.0", "2.9.1"}) {
            expected.put(v, "9.10.2.21");
        }
        expected.forEach((v, cudnn) -> {
            FrameworkPins.Pin p = P.find("torch", v, "linux").orElseThrow(() -> new AssertionError("torch " + v));
            assertEquals(cudnn, p.cudnn(), "torch " + v);
            assertEquals(12, p.cuda(), "torch " + v);
            assertTrue(p.source().contains("Requires-Dist: nvidia-cudnn-cu12==" + cudnn), p.source());
            if (!v.equals("2.5.1")) {
                assertEquals("nvidia-cudnn-cu12==" + cudnn, p.requires(), "torch " + v);
            }
        });
        assertTrue(P.find("torch", "2.0.1", "linux").isEmpty(), "torch 2.0 pinned cuDNN 8 through its own wheels, not in the table");
        assertEquals("9.3", P.find("tensorflow", "2.18.0", "linux").orElseThrow().cudnn());
        assertEquals("8.9", P.find("tensorflow", "2.17.0", "linux").orElseThrow().cudnn());
        assertEquals("9", P.find("onnxruntime-gpu", "1.20.1", "linux").orElseThrow().cudnn());
        // corrected at stop 37: 1.18.x on PyPI is the CUDA 11.8 build with cuDNN 8 (the row had the CUDA 12 build's 9)
        assertEquals("8", P.find("onnxruntime-gpu", "1.18.1", "linux").orElseThrow().cudnn());
        assertEquals("8", P.find("onnxruntime-gpu", "1.18.0", "linux").orElseThrow().cudnn());
        assertEquals("8.5.0.96", P.find("onnxruntime-gpu", "1.17.3", "windows").orElseThrow().cudnn());
    }

    @Test
    void requiresIsOptionalButMustNameTheRowsOwnCudnn() {
        String ok = "{\"framework\":\"torch\",\"version\":\"2.4.0\",\"cudnn\":\"9.1.0.70\",\"cuda\":12,\"source\":\"x\","
                + "\"requires\":\"nvidia-cudnn-cu12==9.1.0.70\"}";
        assertEquals("nvidia-cudnn-cu12==9.1.0.70", FrameworkPins.parse(("{\"schema\":1,\"rows\":[" + ok + "]}")
                .getBytes(StandardCharsets.UTF_8)).all().get(0).requires());
        for (String bad : new String[] {ok.replace("cu12==9.1.0.70", "cu12==9.1.0.71"), ok.replace("nvidia-cudnn-cu12", "torch"),
            ok.replace("==9.1.0.70\"", "==9.1.0.70; rm -rf\"")}) {
            assertThrows(IllegalArgumentException.class,
                    () -> FrameworkPins.parse(("{\"schema\":1,\"rows\":[" + bad + "]}").getBytes(StandardCharsets.UTF_8)), bad);
        }
    }

    /** One hand-checked row: what it pins and the words of the source that say so (#30 item 6). */
    private record Checked(String framework, String version, String os, String cudnn, int cuda, String sourceSays) {
    }

    @Test
    void rowsCheckedByHandAgainstTheirSources() {
        String matrix = "RELEASE.md";
        List<Checked> checked = List.of(
                // pytorch/pytorch RELEASE.md, row 2.10: "CUDA 12.8 (CUDNN 9.10.2.21)"; the PyPI default is the CUDA 12.8 build
                new Checked("torch", "2.10.0", "linux", "9.10.2.21", 12, "colabtools#5801"),
                // row 2.11: "CUDA 13.0 (CUDNN 9.17.1.4)"; from 2.11 on the PyPI default is CUDA 13.0
                new Checked("torch", "2.11.0", "linux", "9.17.1.4", 13, "CUDA 13.0 (CUDNN 9.17.1.4)"),
                new Checked("torch", "2.12.0", "linux", "9.20.0.48", 13, "CUDA 13.0 (CUDNN 9.20.0.48)"),
                new Checked("torch", "2.12.1", "windows", "9.20.0.48", 13, matrix),
                new Checked("torch", "2.13.0", "linux", "9.20.0.48", 13, "colabtools#6053"),
                new Checked("torch", "2.14.0", "linux", "9.24.0.43", 13, "CUDA 13.0 (CUDNN 9.24.0.43)"),
                // the stored pytorch/pytorch RELEASE.md at aa6104e2: "| 2.3 | ... | CUDA 12.1, CUDNN 8.9.2.26 |"
                new Checked("torch", "2.3.1", "linux", "8.9.2.26", 12, "aa6104e2a21e72f83ce217ea93e8e69884e22b04"),
                new Checked("torch", "2.7.1", "linux", "9.5.1.17", 12, "CUDA 12.6 (CUDNN 9.5.1.17)"),
                // tensorflow_cpu-2.21.0 METADATA: Requires-Dist: nvidia-cudnn-cu12<10.0,>=9.3.0.75; extra == "and-cuda"
                new Checked("tensorflow", "2.21.0", "linux", "9.3", 12, "nvidia-cudnn-cu12<10.0,>=9.3.0.75"),
                // tensorflow.org/install/source#gpu: tensorflow-2.11.0 ... 8.1 | 11.2; tensorflow-2.4.0 ... 8.0 | 11.0
                new Checked("tensorflow", "2.11.0", "linux", "8.1", 11, "tensorflow.org/install/source#gpu"),
                new Checked("tensorflow", "2.4.0", "linux", "8.0", 11, "tensorflow.org/install/source#gpu"),
                new Checked("tensorflow", "2.1.0", "linux", "7.6", 10, "tensorflow.org/install/source#gpu"),
                // microsoft/onnxruntime CUDA-ExecutionProvider.md at d0ea319e: "1.15 1.16 | 11.8 | 8.2.4 (Linux) 8.5.0.96 (Windows)"
                new Checked("onnxruntime-gpu", "1.16.3", "windows", "8.5.0.96", 11, "d0ea319e9b71f66abc5abdc8c65ce5456ab06780"),
                new Checked("onnxruntime-gpu", "1.18.1", "linux", "8", 11, "'1.18.x|11.8|8.x|Available in PyPI'"));
        for (Checked c : checked) {
            FrameworkPins.Pin p = P.find(c.framework(), c.version(), c.os()).orElseThrow(() -> new AssertionError(c.toString()));
            assertEquals(c.cudnn(), p.cudnn(), c.toString());
            assertEquals(c.cuda(), p.cuda(), c.toString());
            assertTrue(p.source().contains(c.sourceSays()), c + " -> " + p.source());
        }
        assertTrue(P.find("tensorflow", "2.20.0", "linux").isEmpty(), "no source for TensorFlow 2.20 was found: it stays absent");
        assertTrue(P.find("tensorflow", "2.19.0", "linux").orElseThrow().note().contains("not re-read"),
                "a row not re-read says so");
        assertTrue(P.known().contains("2.10.0, 2.11.0, 2.12.0, 2.12.1, 2.13.0, 2.14.0"), P.known());
    }

    @Test
    void everyRowNamesAPageOrAFileAndEveryTorchRowItsWheelsPin() {
        Pattern page = Pattern.compile("https://[a-z0-9.-]+\\.[a-z]{2,}/\\S+");
        for (FrameworkPins.Pin p : P.all()) {
            assertTrue(page.matcher(p.source()).find() || p.source().contains("METADATA"),
                    "the source names a page or the wheel file it was read from: " + p);
            if (p.framework().equals("torch")) {
                assertEquals("nvidia-cudnn-cu" + p.cuda() + "==" + p.cudnn(), p.requires(), "torch " + p.version());
            }
            if (p.source().contains("pytorch/pytorch") || p.source().contains("microsoft/onnxruntime")
                    || p.source().contains("tensorflow/docs")) {
                assertTrue(p.source().matches(".*\\b[0-9a-f]{40}\\b.*") || page.matcher(p.source()).find(),
                        "a repository file is named with its commit, or the page it renders: " + p);
            }
        }
    }
}
