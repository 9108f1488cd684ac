package dev.cudnntool.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.RealWheels;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * #33 item 2 with the real libraries: the toolkit holds no cuDNN, so plain verify (no --all) judges the active
 * environment's copy: the real nvidia-cudnn-cu13 9.24 wheel in a virtual environment with a sub-library removed, and
 * the real 9.5.1 in a conda-like environment with one removed. Both are errors; target.kind names the owner's kind.
 */
@Tag("real-cudnn")
class RealDiscoveredTargetTest {
    @TempDir
    Path tmp;

    @Test
    void theActiveVenvsRealWheelWithoutItsOpsLibraryIsAnErrorWithoutAll() throws Exception {
        Path tk = TestHosts.linuxToolkit(tmp.resolve("cuda-13.0"), "13.0.0"); // no cuDNN in it
        Path venv = tmp.resolve("venv");
        Path site = RealWheels.linkVenv(venv);
        Files.delete(site.resolve("nvidia/cudnn/lib/libcudnn_ops.so.9")); // a hard link: the original stays
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("VIRTUAL_ENV", venv.toString())), "--cuda-path", tk.toString());
        assertEquals(1, doc.get("exitCode").asInt(), doc.get("findings").toString());
        assertEquals("pip", doc.get("target").get("kind").asText(), doc.get("target").toString());
        assertEquals(site.resolve("nvidia/cudnn/lib").toString(), doc.get("target").get("path").asText());
        JsonNode f = RealVerify.finding(doc, "cudnn.incomplete");
        assertEquals("error", f.get("severity").asText());
        assertTrue(f.get("message").asText().contains("libcudnn_ops.so.9"), f.toString());
        assertTrue(f.get("fix").asText().contains("pip install --force-reinstall --no-deps nvidia-cudnn-cu13==" + RealWheels.CUDNN), f.toString());

        // the complete wheel passes its file checks: no error from it
        Path venv2 = tmp.resolve("venv2");
        RealWheels.linkVenv(venv2);
        JsonNode ok = RealVerify.verify(RealVerify.host(Map.of("VIRTUAL_ENV", venv2.toString())), "--cuda-path", tk.toString());
        assertTrue(RealVerify.findings(ok, "cudnn.incomplete").isEmpty(), ok.get("findings").toString());
        assertEquals("pip", ok.get("target").get("kind").asText());
    }

    @Test
    void theActiveCondaEnvironmentsIncompleteCopyIsAnErrorWithoutAll() throws Exception {
        Path tk = TestHosts.linuxToolkit(tmp.resolve("cuda-12.6"), "12.6.0");
        Path env = tmp.resolve("miniconda3/envs/ml");
        Files.createDirectories(env.resolve("conda-meta"));
        Path lib = env.resolve("lib");
        RealCudnn.layOut(9, lib, env.resolve("include"));
        for (String name : new String[] {"libcudnn_cnn.so.9.5.1", "libcudnn_cnn.so.9", "libcudnn_cnn.so"}) {
            Files.delete(lib.resolve(name));
        }
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("CONDA_PREFIX", env.toString())), "--cuda-path", tk.toString());
        assertEquals(1, doc.get("exitCode").asInt(), doc.get("findings").toString());
        assertEquals("conda", doc.get("target").get("kind").asText(), doc.get("target").toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.incomplete");
        assertTrue(f.get("message").asText().contains(CudnnComponents.linuxSoname("cudnn_cnn", 9)), f.toString());
    }
}
