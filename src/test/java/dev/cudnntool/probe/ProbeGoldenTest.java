package dev.cudnntool.probe;

import dev.cudnntool.diagnosis.ProbeResult;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.host.ProcessResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parent reads what a real child printed (src/test/resources/probe, README there): real cuDNN 9.5.1,
 * a library that is not cuDNN, a file that is no library. Every line of them names an event of
 * {@link ProbeEvent}, so the two sides of the protocol agree on real output, not only on made-up lines.
 */
class ProbeGoldenTest {
    static final String LIB = "/tmp/real-cudnn-9.5.1/lib/";

    static String golden(String name) throws IOException {
        try (InputStream in = ProbeGoldenTest.class.getResourceAsStream("/probe/" + name)) {
            assertNotNull(in, name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static ProbeResult parse(String library, String name) throws IOException {
        return ProbeRunner.parse(library, new ProcessResult(0, golden(name), "", false, null));
    }

    @Test
    void realCudnnWithoutAGpuAnswersItsVersionAndNoHandle() throws IOException {
        ProbeResult p = parse(LIB + "libcudnn.so.9", "real-9.5.1-no-gpu.jsonl");
        assertEquals(LIB + "libcudnn.so.9", p.loadedPath());
        assertEquals(90501L, p.version());
        assertEquals("9.5.1", p.versionString());
        assertEquals(12060L, p.cudartVersion());
        assertEquals("12.6", p.cudartVersionString());
        assertEquals(List.of(9, 5, 1), p.properties());
        assertEquals(900L, p.maxDeviceVersion());
        assertEquals(1001, p.handleStatus());
        assertEquals("CUDNN_STATUS_NOT_INITIALIZED", p.handleStatusName());
        assertNull(p.loadedByNamePath());
        assertTrue(p.byNameError().contains("cannot open shared object file"), p.byNameError());
        assertEquals(7, p.subLibraries().size());
        assertTrue(p.subLibraries().stream().allMatch(ProbeResult.SubLibrary::loaded), p.subLibraries()::toString);
        assertTrue(p.subLibraries().stream().anyMatch(s -> s.path().equals(LIB + "libcudnn_graph.so.9")));
        assertFalse(p.incomplete());
        assertNull(p.lastCall()); // it got to "done"
        assertEquals(0, p.childExit());
    }

    @Test
    void realCudnnOnTheSearchPathIsFoundByName() throws IOException {
        ProbeResult p = parse(LIB + "libcudnn.so.9", "real-9.5.1-by-name.jsonl");
        assertEquals(LIB + "libcudnn.so.9", p.loadedByNamePath());
        assertNull(p.byNameError());
        assertEquals("9.5.1", p.versionString());
    }

    @Test
    void aLibraryThatIsNotCudnnSaysSo() throws IOException {
        ProbeResult p = parse("/lib/x86_64-linux-gnu/libz.so.1", "real-not-cudnn.jsonl");
        assertEquals("the library has no cudnnGetVersion", p.loadError());
        assertNull(p.version());
        assertNull(p.handleStatus());
        assertFalse(p.incomplete());
    }

    @Test
    void aFileThatIsNoLibraryIsALoadError() throws IOException {
        ProbeResult p = parse("/tmp/zero.so.9", "real-load-failed.jsonl");
        assertEquals("/tmp/zero.so.9: invalid ELF header", p.loadError());
        assertNull(p.loadedPath());
        assertNull(p.version());
    }

    @Test
    void everyLineOfARealRunIsAnEventOfTheProtocol() throws IOException {
        ObjectMapper json = new ObjectMapper();
        int lines = 0;
        for (String name : List.of("real-9.5.1-no-gpu.jsonl", "real-9.5.1-by-name.jsonl", "real-not-cudnn.jsonl",
                "real-load-failed.jsonl")) {
            String text = golden(name);
            assertTrue(text.strip().endsWith("{\"event\":\"done\"}"), name);
            for (String line : text.strip().split("\\R")) {
                String event = json.readTree(line).path("event").asText(null);
                assertNotNull(ProbeEvent.fromWire(event), name + ": " + line);
                lines++;
            }
        }
        assertEquals(59, lines);
    }

    @Test
    void eachEventHasOneWireNameAndReadsBack() {
        for (ProbeEvent e : ProbeEvent.values()) {
            assertEquals(e, ProbeEvent.fromWire(e.wire()));
        }
        assertNull(ProbeEvent.fromWire("Loading"));
        assertNull(ProbeEvent.fromWire(null));
    }
}
