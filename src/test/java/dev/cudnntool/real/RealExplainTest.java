package dev.cudnntool.real;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.RealCudnn;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 33 B with NVIDIA's real libraries (Bytedeco's jars, facts §7) on the real file system and glibc's cache:
 * the faster-whisper line beside a real cuDNN 9.5.1 in a venv, the same with a real cuDNN 8.9.7 put on LD_LIBRARY_PATH,
 * and PyTorch's mismatch line answered by the real 8.9.7 found first. Versions come from the real files' names.
 */
@Tag("real-cudnn")
class RealExplainTest {
    static final String OPS_INFER = "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared"
            + " object file: No such file or directory";

    @TempDir
    Path tmp;

    Path venvLib() {
        return tmp.resolve("venv/lib/python3.12/site-packages/nvidia/cudnn/lib");
    }

    Host host(Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.put("VIRTUAL_ENV", tmp.resolve("venv").toString());
        all.put("HOME", tmp.resolve("home").toString());
        return RealVerify.host(all);
    }

    @Test
    void fasterWhisperBesideARealCuDnn9NeedsCuDnn8AndThenItsFolderOnThePath() throws Exception {
        RealCudnn.layOut(9, venvLib(), venvLib().resolveSibling("include"));
        Cli.Run r = Cli.run(host(Map.of()), "explain", OPS_INFER, "--json");
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode f = RealVerify.finding(r.json(), "explain.not-found");
        assertTrue(f.get("message").asText().contains("there is no cuDNN 8 on this machine"), f.toString());
        assertTrue(f.get("message").asText().contains("cuDNN 9.5.1 at " + venvLib().resolve("libcudnn.so.9")), f.toString());
        assertTrue(f.get("fix").asText().contains("cudnn install --release 8.9.7 --prefix"), f.toString());

        // PyTorch cu118 ships cuDNN 8 in torch/lib, where CTranslate2 does not look (Chenyme-AAVT#1 shows exactly this)
        Path cudnn8 = venvLib().resolve("../../../torch/lib").normalize();
        RealCudnn.layOut(8, cudnn8, tmp.resolve("include8"));
        Cli.Run off = Cli.run(host(Map.of()), "explain", OPS_INFER, "--json");
        assertEquals(1, off.exit(), off.out());
        JsonNode notSearched = RealVerify.finding(off.json(), "explain.not-found");
        assertTrue(notSearched.get("message").asText().contains("but it is in " + cudnn8 + ", a folder the loader does not search"),
                notSearched.toString());
        assertTrue(notSearched.get("fix").asText().contains("export LD_LIBRARY_PATH=" + cudnn8), notSearched.toString());

        Cli.Run on = Cli.run(host(Map.of("LD_LIBRARY_PATH", cudnn8.toString())), "explain", OPS_INFER, "--json");
        assertEquals(0, on.exit(), on.out());
        assertTrue(RealVerify.finding(on.json(), "explain.ruled-out").get("message").asText()
                .contains(cudnn8.resolve("libcudnn_ops_infer.so.8") + " (through LD_LIBRARY_PATH)"), on.out());
    }

    @Test
    void pytorchsMismatchIsTheRealCuDnn8FoundFirstOnLdLibraryPath() throws Exception {
        Path cudnn8 = tmp.resolve("public/apps/cudnn/lib64");
        RealCudnn.layOut(8, cudnn8, cudnn8.resolveSibling("include"));
        Cli.Run r = Cli.run(host(Map.of("LD_LIBRARY_PATH", cudnn8.toString())), "explain",
                "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 9, 2) but found runtime version (8, 9, 7).",
                "--json");
        assertEquals(1, r.exit(), r.out() + r.err());
        JsonNode f = RealVerify.finding(r.json(), "explain.found-first");
        assertTrue(f.get("message").asText().contains(cudnn8.resolve("libcudnn.so.8") + " (through LD_LIBRARY_PATH), cuDNN 8.9.7"),
                f.toString());
        assertTrue(f.get("fix").asText().startsWith("remove " + cudnn8 + " from LD_LIBRARY_PATH"), f.toString());
    }
}
