package dev.cudnntool.archive.catalogue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
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
        assertEquals("9", P.find("onnxruntime-gpu", "1.18.1", "linux").orElseThrow().cudnn());
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
}
