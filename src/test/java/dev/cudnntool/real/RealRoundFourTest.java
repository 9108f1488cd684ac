package dev.cudnntool.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.RealWheels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

    /**
     * A6 for an ordinary user: a venv whose nvidia/cudnn/lib (real cuDNN 9.5.1) only root may enter,
     * verified by the whole tool started as nobody. The jimfs twin is RoundFourOpenCasesTest's.
     */
    @Test
    void aRealVenvCudnnFolderOnlyRootMayEnterIsUnreadableForNobody() throws Exception {
        assumeTrue(AsNobody.available(), "only root with setpriv can run the tool as nobody");
        tmp.toFile().setReadable(true, false);
        tmp.toFile().setExecutable(true, false);
        Path open = Files.createDirectories(tmp.resolve("world"));
        Path venv = Files.createDirectories(open.resolve("venv"));
        Files.writeString(venv.resolve("pyvenv.cfg"), "home = /usr/bin\n");
        Path lib = venv.resolve("lib/python3.12/site-packages/nvidia/cudnn/lib");
        RealCudnn.layOut(9, lib, venv.resolve("lib/python3.12/site-packages/nvidia/cudnn/include"));
        Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("rwx------"));
        Path empty = Files.createDirectories(open.resolve("empty"));
        List<String> cmd = new ArrayList<>(AsNobody.java(open));
        cmd.addAll(List.of("dev.cudnntool.cli.Main", "verify", "--json", "--no-probe", "--prefix", empty.toString()));
        Path errFile = open.resolve("stderr.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(errFile.toFile());
        pb.environment().clear();
        pb.environment().putAll(Map.of("PATH", "/usr/bin:/bin", "VIRTUAL_ENV", venv.toString(), "USER", "nobody",
                "HOME", AsNobody.tmpdir(open).toString()));
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "verify as nobody did not end");
        String err = Files.readString(errFile);
        JsonNode doc = new ObjectMapper().readTree(out);
        JsonNode f = RealVerify.finding(doc, "cudnn.unreadable");
        assertEquals("error", f.get("severity").asText(), f.toString());
        assertTrue(f.get("message").asText().startsWith(lib + " cannot be opened by the user nobody"), f + "\n" + err);
        assertEquals("sudo chmod a+rx " + lib + " (or run as the user who owns it)", f.get("fix").asText());
        assertEquals(1, doc.get("exitCode").asInt(), doc.get("findings").toString());
        assertEquals(1, p.exitValue(), err);
    }
}
