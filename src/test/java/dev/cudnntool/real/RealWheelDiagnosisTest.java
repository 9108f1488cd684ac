package dev.cudnntool.real;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.RealWheels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * #19 against REAL wheels from the configured pip index (nvidia-cudnn-cu13 9.24.0.43, the CUDA 13 runtime,
 * torch 2.14.1): owners read from pip's real RECORD (item 19), two CUDA runtimes (item 17: the wheel's real
 * libcudart.so.13 and Bytedeco's real libcudart.so.12).
 */
@Tag("real-cudnn")
class RealWheelDiagnosisTest {
    @TempDir
    Path tmp;

    @Test
    void theWheelsCopyIsOwnedByItsPipPackageAsItsRealRecordSays() throws Exception {
        Path venv = tmp.resolve("venv");
        Path site = RealWheels.linkVenv(venv);
        Host host = RealVerify.host(Map.of("VIRTUAL_ENV", venv.toString()));
        JsonNode doc = RealVerify.verify(host, "--no-probe", "--prefix", tmp.resolve("empty").toString());
        JsonNode wheel = null;
        for (JsonNode c : doc.get("copies")) {
            if (c.get("path").asText().equals(site.resolve("nvidia/cudnn/lib/libcudnn.so.9").toString())) {
                wheel = c;
            }
        }
        assertTrue(wheel != null, doc.get("copies").toString());
        assertEquals("pip", wheel.get("owner").get("kind").asText(), wheel.toString());
        assertEquals("nvidia-cudnn-cu13", wheel.get("owner").get("name").asText());
        assertEquals(RealWheels.CUDNN, wheel.get("owner").get("version").asText());
        assertEquals("9.24.0", wheel.get("version").asText().substring(0, 6), wheel.toString());
    }

    @Test
    void realRuntimesOfCuda12And13OnTheSearchPathAreTwoCudarts() throws Exception {
        Path cuda12 = Files.createDirectories(tmp.resolve("cuda12"));
        Files.createLink(cuda12.resolve("libcudart.so.12"), RealCudnn.linux(9).resolve("libcudart.so.12"));
        Path cuda13 = RealWheels.sitePackages().resolve("nvidia/cu13/lib");
        Path lib = Files.createDirectories(tmp.resolve("prefix/lib"));
        RealCudnn.layOut(9, lib, tmp.resolve("prefix/include"));
        Host host = RealVerify.host(Map.of("LD_LIBRARY_PATH", lib + ":" + cuda12 + ":" + cuda13));
        JsonNode doc = RealVerify.verify(host, "--no-probe", "--prefix", tmp.resolve("prefix").toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.two-cudarts");
        assertEquals("warn", f.get("severity").asText());
        assertTrue(f.get("message").asText().contains("libcudart.so.12 (" + cuda12 + ", LD_LIBRARY_PATH) and libcudart.so.13 ("
                + cuda13 + ", LD_LIBRARY_PATH)"), f.toString());

        // With only the CUDA 12 runtime on LD_LIBRARY_PATH: silent, unless this machine's own loader already reaches
        // a runtime of another major (a build machine with /usr/local/cuda-13.0 in ld.so.cache does); then that one is
        // named with what put it there.
        Host bare = RealVerify.host(Map.of());
        LdSoCache cache = LdSoCache.of(bare);
        boolean machineHasAnother = IntStream.of(10, 11, 13, 14).anyMatch(m ->
                LoaderPath.find(bare, cache, "libcudart.so." + m, List.of(), List.of())
                        .isPresent());
        Host one = RealVerify.host(Map.of("LD_LIBRARY_PATH", lib + ":" + cuda12));
        var said = RealVerify.findings(RealVerify.verify(one, "--no-probe", "--prefix", tmp.resolve("prefix").toString()),
                "cudnn.two-cudarts");
        if (machineHasAnother) {
            String m = said.get(0).get("message").asText();
            assertTrue(m.contains("libcudart.so.12 (" + cuda12 + ", LD_LIBRARY_PATH)")
                    && (m.contains("/etc/ld.so.cache)") || m.contains("a default folder)")), m);
        } else {
            assertEquals(0, said.size(), "one CUDA major: nothing to say " + said);
        }
    }

    /** The real torch 2.14.1 venv, and a toolkit of real cuDNN 9.5.1 as the verified target. */
    private JsonNode verifyTorch(Path venv, Map<String, String> extra, String... args) throws Exception {
        Map<String, String> env = new HashMap<>(extra);
        env.put("VIRTUAL_ENV", venv.toString());
        Path tk = tmp.resolve("tk").resolve("cuda-12.6");
        if (!Files.isDirectory(tk)) {
            RealVerify.toolkit(tmp.resolve("tk"));
        }
        List<String> all = new ArrayList<>(List.of("--no-probe", "--cuda-path", tk.toString()));
        all.addAll(List.of(args));
        return RealVerify.verify(RealVerify.host(env), all.toArray(String[]::new));
    }

    private static JsonNode torch(JsonNode doc) {
        for (JsonNode f : doc.get("frameworks")) {
            if (f.get("name").asText().equals("torch")) {
                return f;
            }
        }
        throw new AssertionError("no torch in " + doc.get("frameworks"));
    }

    /** #19 B16: the real torch wheel pins the real cuDNN wheel and gets it, complete, with cuBLASLt of CUDA 13. */
    @Test
    void realTorchGetsTheCudnnItPins() throws Exception {
        Path venv = tmp.resolve("venv");
        Path site = RealWheels.linkVenv(venv);
        JsonNode doc = verifyTorch(venv, Map.of());
        JsonNode t = torch(doc);
        assertEquals(RealWheels.TORCH, t.get("version").asText());
        assertEquals("nvidia-cudnn-cu13==" + RealWheels.CUDNN, t.get("wants").asText());
        assertEquals(site.resolve("nvidia/cudnn/lib/libcudnn.so.9").toString(), t.get("loads").get("path").asText(), t.toString());
        assertTrue(t.get("loads").get("version").asText().startsWith("9.24.0"), t.toString());
        assertEquals(13, t.get("loads").get("cudaMajor").asInt());
        assertTrue(t.get("loads").get("via").asText().contains("DT_RPATH"), t.toString());
        assertTrue(t.get("ok").asBoolean(), t.toString());
        assertTrue(RealVerify.finding(doc, "framework.ok").get("message").asText().contains("as it pins"), doc.get("findings").toString());

        String md = Cli.run(RealVerify.host(Map.of("VIRTUAL_ENV", venv.toString())), "verify", "--no-probe",
                "--report").out();
        assertTrue(md.contains("| `torch " + RealWheels.TORCH + "` | `" + site + "` | `nvidia-cudnn-cu13==" + RealWheels.CUDNN + "` | `"
                + site.resolve("nvidia/cudnn/lib/libcudnn.so.9") + "` `9.24.0"), md);
        // --for torch reports torch alone; --for a framework not installed is an error; an unknown name is exit 2.
        assertEquals(1, verifyTorch(venv, Map.of(), "--for", "torch").get("frameworks").size());
        JsonNode tf = verifyTorch(venv, Map.of(), "--for", "tensorflow");
        assertEquals(0, tf.get("frameworks").size());
        assertEquals("error", RealVerify.finding(tf, "framework.not-found").get("severity").asText());
        assertEquals(1, tf.get("exitCode").asInt());
        assertEquals(2, Cli.run(RealVerify.host(Map.of()), "verify", "--no-probe", "--for", "caffe").exit());
    }

    /** A cuDNN 9.5.1 on LD_LIBRARY_PATH does not win over torch's DT_RPATH: torch still gets its own, and is ok. */
    @Test
    void aCopyOnLdLibraryPathDoesNotBeatTorchsRpath() throws Exception {
        Path venv = tmp.resolve("venv");
        Path site = RealWheels.linkVenv(venv);
        Path other = Files.createDirectories(tmp.resolve("other/lib"));
        RealCudnn.layOut(9, other, tmp.resolve("other/include"));
        JsonNode t = torch(verifyTorch(venv, Map.of("LD_LIBRARY_PATH", other.toString())));
        assertEquals(site.resolve("nvidia/cudnn/lib/libcudnn.so.9").toString(), t.get("loads").get("path").asText());
        assertTrue(t.get("ok").asBoolean(), t.toString());
    }

    /** pytorch/pytorch #188892: a sub-library missing from the wheel, another copy on LD_LIBRARY_PATH fills in: mixed copies. */
    @Test
    void aMissingSubLibraryFilledInByAnotherCopyIsMixedCopies() throws Exception {
        Path venv = tmp.resolve("venv");
        Path site = RealWheels.linkVenv(venv);
        Files.delete(site.resolve("nvidia/cudnn/lib/libcudnn_graph.so.9"));
        Path other = Files.createDirectories(tmp.resolve("other/lib"));
        RealCudnn.layOut(9, other, tmp.resolve("other/include"));
        JsonNode doc = verifyTorch(venv, Map.of("LD_LIBRARY_PATH", other.toString()));
        JsonNode t = torch(doc);
        assertTrue(!t.get("ok").asBoolean(), t.toString());
        JsonNode mixed = RealVerify.finding(doc, "cudnn.mixed-copies");
        assertEquals("error", mixed.get("severity").asText());
        assertTrue(mixed.get("message").asText().contains("libcudnn_graph.so.9 comes from " + other), mixed.toString());
        assertTrue(mixed.get("message").asText().contains("(through LD_LIBRARY_PATH)"), mixed.toString());
        assertTrue(mixed.get("fix").asText().contains("pip install --force-reinstall --no-deps nvidia-cudnn-cu13==" + RealWheels.CUDNN),
                mixed.toString());
        assertEquals(1, doc.get("exitCode").asInt());
    }

    /** cuBLASLt of CUDA 13 gone from the venv, and a pin the copy does not match: framework.mismatch names both. */
    @Test
    void aMissingCublasLtAndAnotherPinAreFrameworkMismatch() throws Exception {
        Path venv = tmp.resolve("venv");
        Path site = RealWheels.linkVenv(venv);
        Files.delete(site.resolve("nvidia/cu13/lib/libcublasLt.so.13"));
        Path meta = site.resolve("torch-" + RealWheels.TORCH + ".dist-info/METADATA");
        String text = Files.readString(meta).replace("nvidia-cudnn-cu13==" + RealWheels.CUDNN, "nvidia-cudnn-cu13==9.25.0.1");
        Files.delete(meta); // a hard link into the real site-packages: replaced, never written through
        Files.writeString(meta, text);
        JsonNode doc = verifyTorch(venv, Map.of());
        String m = RealVerify.finding(doc, "framework.mismatch").get("message").asText();
        assertTrue(m.contains("pins nvidia-cudnn-cu13==9.25.0.1") && m.contains("it pins cuDNN 9.25.0.1 but gets cuDNN 9.24.0"), m);
        assertTrue(m.contains("libcublasLt.so.13 (cuBLASLt of CUDA 13) is not found where cuDNN opens it"), m);
        assertTrue(Files.exists(RealWheels.sitePackages().resolve("nvidia/cu13/lib/libcublasLt.so.13")), "the real wheel is untouched");
    }

    /** #19 A5: the wheel's cuDNN finds cuBLASLt and NVRTC of CUDA 13 through its own DT_RUNPATH ($ORIGIN/../../cu13/lib). */
    @Test
    void theWheelsDependenciesAreFoundThroughItsOwnRunpath() throws Exception {
        Path venv = tmp.resolve("venv");
        Path site = RealWheels.linkVenv(venv);
        String copyPath = site.resolve("nvidia/cudnn/lib/libcudnn.so.9").toString();
        JsonNode wheel = copy(verifyTorch(venv, Map.of(), "--all"), copyPath);
        for (JsonNode f : wheel.get("findings")) {
            assertTrue(!f.get("id").asText().equals("cudnn.dependency-missing"), f.toString());
        }
        Files.delete(site.resolve("nvidia/cu13/lib/libnvrtc.so.13"));
        JsonNode broken = copy(verifyTorch(venv, Map.of(), "--all"), copyPath);
        String said = broken.get("findings").toString();
        assertTrue(said.contains("libnvrtc.so.13 is needed by cuDNN 9") && said.contains("nvidia-cuda-nvrtc==13.*"), said);
    }

    private static JsonNode copy(JsonNode doc, String path) {
        for (JsonNode c : doc.get("copies")) {
            if (c.get("path").asText().equals(path)) {
                return c;
            }
        }
        throw new AssertionError(path + " not in " + doc.get("copies"));
    }
}
