package dev.cudnntool.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.testing.RealCudnn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 19 A8, A9, A11 with the real cuDNN 8.9.7 and 9.5.1 libraries: links and headers as people's machines have them. */
@Tag("real-cudnn")
class RealLinksAndHeadersTest {
    @TempDir
    Path tmp;

    /** A11: libcudnn.so left pointing at a real cuDNN 8 next to a real cuDNN 9: -lcudnn would link 8. */
    @Test
    void devLinkToRealCudnn8IsDevLinkMismatch() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path lib = tk.resolve("lib64");
        Map<String, String> env = Map.of("LD_LIBRARY_PATH", lib.toString());
        JsonNode healthy = RealVerify.verify(RealVerify.host(env), "--cuda-path", tk.toString());
        assertTrue(RealVerify.findings(healthy, "cudnn.dev-link-mismatch").isEmpty(), healthy.get("findings").toString());
        Files.createLink(lib.resolve("libcudnn.so.8.9.7"), RealCudnn.linux(8).resolve("libcudnn.so.8"));
        Files.createSymbolicLink(lib.resolve("libcudnn.so.8"), Path.of("libcudnn.so.8.9.7"));
        Files.delete(lib.resolve("libcudnn.so"));
        Files.createSymbolicLink(lib.resolve("libcudnn.so"), Path.of("libcudnn.so.8"));
        JsonNode doc = RealVerify.verify(RealVerify.host(env), "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.dev-link-mismatch");
        assertEquals("error", f.get("severity").asText());
        assertTrue(f.get("message").asText().contains("libcudnn.so -> libcudnn.so.8 (cuDNN 8)"), f.toString());
        assertTrue(f.get("fix").asText().contains("ln -sfn libcudnn.so.9 " + lib.resolve("libcudnn.so")), f.toString());
        assertEquals(1, doc.get("exitCode").asInt());
    }
}
