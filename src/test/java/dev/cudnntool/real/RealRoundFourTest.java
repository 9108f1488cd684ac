package dev.cudnntool.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.RealWheels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * #33 part A items 3 to 6 with real libraries: Bytedeco's cuDNN 9.5.1 and 8.9.7 and libcudart.so.12, and the
 * real torch 2.14.1 wheel set (nvidia-cudnn-cu13 9.24, the CUDA 13 runtime in nvidia/cu13/lib).
 */
@Tag("real-cudnn")
class RealRoundFourTest {
    @TempDir
    Path tmp;

    @Test
    void realCudnn8EarlierOnLdLibraryPathIsNoShadowOfTheToolkitsCudnn9() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path eight = Files.createDirectories(tmp.resolve("whisper/lib"));
        RealCudnn.layOut(8, eight, tmp.resolve("whisper/include"));
        Host host = RealVerify.host(Map.of("LD_LIBRARY_PATH", eight + ":" + tk.resolve("lib64")));
        JsonNode doc = RealVerify.verify(host, "--cuda-path", tk.toString());
        assertEquals(0, RealVerify.findings(doc, "cudnn.shadow").size(), doc.get("findings").toString());
        assertEquals(0, RealVerify.findings(doc, "cudnn.shadowed").size(), doc.get("findings").toString());
        boolean listed = false;
        for (JsonNode c : doc.get("copies")) {
            listed |= c.get("path").asText().equals(eight.resolve("libcudnn.so.8").toString());
        }
        assertTrue(listed, "the cuDNN 8 copy is still listed: " + doc.get("copies"));
        assertEquals("9.5.1", doc.get("probe").get("versionString").asText(), doc.get("probe").toString());
    }

    @Test
    void theRealTorchCuda13WheelsWithTheRealCuda12RuntimeOnLdLibraryPathAreTwoCudarts() throws Exception {
        Path venv = tmp.resolve("venv");
        Path site = RealWheels.linkVenv(venv);
        Path cuda12 = Files.createDirectories(tmp.resolve("cuda-12/lib64"));
        Files.createLink(cuda12.resolve("libcudart.so.12"), RealCudnn.linux(9).resolve("libcudart.so.12"));
        Host host = RealVerify.host(Map.of("VIRTUAL_ENV", venv.toString(), "LD_LIBRARY_PATH", cuda12.toString()));
        JsonNode doc = RealVerify.verify(host, "--no-probe", "--prefix", Files.createDirectories(tmp.resolve("empty")).toString());
        JsonNode f = null;
        for (JsonNode x : RealVerify.findings(doc, "cudnn.two-cudarts")) {
            if (x.get("message").asText().startsWith("torch in ")) {
                f = x;
            }
        }
        assertTrue(f != null, doc.get("findings").toString());
        assertTrue(f.get("message").asText().contains(site.resolve("nvidia/cu13/lib/libcudart.so.13").toString())
                && f.get("message").asText().contains(cuda12.resolve("libcudart.so.12").toString()), f.toString());
        Host clean = RealVerify.host(Map.of("VIRTUAL_ENV", venv.toString()));
        JsonNode quiet = RealVerify.verify(clean, "--no-probe", "--prefix", tmp.resolve("empty").toString());
        assertTrue(RealVerify.findings(quiet, "cudnn.two-cudarts").stream().noneMatch(x -> x.get("message").asText().startsWith("torch in ")),
                quiet.get("findings").toString());
    }

    @Test
    void aSonameLinkLoopOverRealCudnnIsADanglingLinkAndNotAlsoNotFoundByName() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path lib = tk.resolve("lib64");
        Files.delete(lib.resolve("libcudnn.so.9"));
        Files.createSymbolicLink(lib.resolve("libcudnn.so.9"), lib.getFileSystem().getPath("libcudnn.so")); // .so -> .so.9 -> .so
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", lib.toString())), "--cuda-path", tk.toString());
        boolean loop = false;
        for (JsonNode f : RealVerify.findings(doc, "cudnn.dangling-link")) {
            loop |= f.get("message").asText().contains("loop");
        }
        assertTrue(loop, doc.get("findings").toString());
        assertEquals(0, RealVerify.findings(doc, "cudnn.not-found-by-name").size(), doc.get("findings").toString());
    }

    @Test
    void aDanglingDevLinkToCudnn8BesideRealCudnn9IsADevLinkMismatch() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path lib = tk.resolve("lib64");
        Files.delete(lib.resolve("libcudnn.so"));
        Files.createSymbolicLink(lib.resolve("libcudnn.so"), lib.getFileSystem().getPath("libcudnn.so.8")); // cuDNN 8 was removed
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", lib.toString())), "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.dev-link-mismatch");
        assertTrue(f.get("message").asText().contains("libcudnn.so -> libcudnn.so.8 (cuDNN 8, no longer there"), f.toString());
        assertTrue(f.get("fix").asText().contains("ln -sfn libcudnn.so.9 " + lib.resolve("libcudnn.so")), f.toString());
    }
}
