package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 B16 on jimfs: which environments are looked at, Windows' own DLL folders, CPU builds, pins. (Real wheels: RealWheelDiagnosisTest.) */
class FrameworksTest {
    @Test
    void windowsTorchGetsTheDllsInItsOwnFolderFirst() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        String site = "C:\\Users\\me\\venv\\Lib\\site-packages";
        for (String base : CudnnComponents.libraries(9)) {
            Path dll = fs.getPath(site, "torch\\lib", CudnnComponents.windowsDll(base, 9));
            Files.createDirectories(dll.getParent());
            Files.write(dll, PeImages.dll(PeImages.X64, "9.1.0.70"));
        }
        TestHosts.write(fs.getPath(site, "torch-2.5.1.dist-info\\METADATA"), "Name: torch\nVersion: 2.5.1+cu124\n\nbody\n");
        TestHosts.write(fs.getPath("C:\\other\\cudnn64_9.dll"), "MZ");
        Host host = TestHosts.windows(fs, Map.of("VIRTUAL_ENV", "C:\\Users\\me\\venv", "PATH", "C:\\other"), new FakeRunner());
        JsonNode f = Cli.run(host, "verify", "--no-probe", "--json").json().get("frameworks").get(0);
        assertEquals("torch", f.get("name").asText());
        assertEquals("2.5.1+cu124", f.get("version").asText());
        assertEquals(site + "\\torch\\lib\\cudnn64_9.dll", f.get("loads").get("path").asText(), f.toString());
        assertTrue(f.get("ok").asBoolean(), f.toString());
        assertEquals("9.1.0.70", f.get("loads").get("version").asText());
        assertTrue(!f.has("wants"), "no pin: Windows torch wheels bundle cuDNN");
    }

    @Test
    void onlyTheActiveEnvironmentWithoutAllAndEveryOneWithIt() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        for (String env : List.of("/home/me/venv", "/home/me/miniconda3/envs/old")) {
            String site = env + "/lib/python3.11/site-packages";
            TestHosts.write(fs.getPath(site, "torch-2.3.0.dist-info/METADATA"), "Name: torch\nVersion: 2.3.0\n"
                    + "Requires-Dist: nvidia-cudnn-cu12 ==8.9.2.26 ; platform_system == \"Linux\"\n");
        }
        TestHosts.write(fs.getPath("/home/me/venv/lib/python3.11/site-packages/onnxruntime_gpu-1.20.0.dist-info/METADATA"),
                "Name: onnxruntime-gpu\nVersion: 1.20.0\n"); // no pin and no CUDA library: a CPU-only install, not reported
        Host host = TestHosts.linux(fs, Map.of("VIRTUAL_ENV", "/home/me/venv", "HOME", "/home/me", "PATH", "/usr/bin"),
                new FakeRunner());
        JsonNode plain = Cli.run(host, "verify", "--no-probe", "--json").json();
        assertEquals(1, plain.get("frameworks").size(), plain.get("frameworks").toString());
        JsonNode t = plain.get("frameworks").get(0);
        assertEquals("nvidia-cudnn-cu12==8.9.2.26", t.get("wants").asText());
        assertTrue(!t.get("ok").asBoolean() && t.get("problems").get(0).asText().contains("finds no libcudnn.so.8"), t.toString());
        assertEquals(2, Cli.run(host, "verify", "--no-probe", "--all", "--json").json().get("frameworks").size());
        String text = Cli.run(host, "verify", "--no-probe").out();
        assertTrue(text.contains("framework torch 2.3.0 in /home/me/venv/lib/python3.11/site-packages: pins nvidia-cudnn-cu12==8.9.2.26,"
                + " gets no cuDNN, NOT OK"), text);
    }

    /**
     * A conda environment's python carries DT_RPATH $ORIGIN/../lib (conda-build forces it): a framework library without
     * a DT_RUNPATH then gets the environment's old libcudnn.so.9 before the wheel's on LD_LIBRARY_PATH.
     */
    @Test
    void condasPythonRpathShadowsLdLibraryPathForALibraryWithoutRunpath() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        String env = "/home/me/miniconda3/envs/ml";
        String site = env + "/lib/python3.11/site-packages";
        Path python = fs.getPath(env, "bin/python3.11");
        Files.createDirectories(python.getParent());
        Files.write(python, ElfImages.so("python3.11", List.of("libc.so.6"),
                ElfImages.RPATH, "$ORIGIN/../lib", List.of("main")));
        Files.createDirectories(fs.getPath(env, "lib"));
        Files.write(fs.getPath(env, "lib/libcudnn.so.9"), ElfImages.cudnn("libcudnn.so.9"));
        TestHosts.write(fs.getPath(site, "onnxruntime_gpu-1.20.0.dist-info/METADATA"), "Name: onnxruntime-gpu\nVersion: 1.20.0\n"
                + "Requires-Dist: nvidia-cudnn-cu12==9.5.1.17\n");
        Path provider = fs.getPath(site, "onnxruntime/capi/libonnxruntime_providers_cuda.so");
        Files.createDirectories(provider.getParent());
        Files.write(provider, ElfImages.so("libonnxruntime_providers_cuda.so",
                List.of("libcudnn.so.9"), ElfImages.RPATH, null, List.of("run")));
        Path wheel = fs.getPath(site, "nvidia/cudnn/lib");
        Files.createDirectories(wheel);
        Files.write(wheel.resolve("libcudnn.so.9"), ElfImages.cudnn("libcudnn.so.9"));
        Map<String, String> vars = Map.of("VIRTUAL_ENV", env, "HOME", "/home/me", "PATH", "/usr/bin", "LD_LIBRARY_PATH", wheel.toString());
        Host host = TestHosts.linux(fs, vars, new FakeRunner());
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        JsonNode f = doc.get("frameworks").get(0);
        assertEquals("onnxruntime-gpu", f.get("name").asText(), f.toString());
        assertEquals(env + "/lib/libcudnn.so.9", f.get("loads").get("path").asText(), f.toString());
        assertEquals("the DT_RPATH of the executable " + env + "/bin/python3.11", f.get("loads").get("via").asText());
        JsonNode mismatch = null;
        for (JsonNode x : doc.get("findings")) {
            if (x.get("id").asText().equals("framework.mismatch")) {
                mismatch = x;
            }
        }
        assertTrue(mismatch != null && mismatch.get("fix").asText().startsWith("the executable " + env + "/bin/python3.11 searches")
                && mismatch.get("fix").asText().contains("conda remove cudnn"), String.valueOf(mismatch));

        // the same library under a python without DT_RPATH (a plain venv of the system's python): LD_LIBRARY_PATH's copy
        Files.write(python, ElfImages.so("python3.11", List.of("libc.so.6"),
                ElfImages.RPATH, null, List.of("main")));
        JsonNode g = Cli.run(host, "verify", "--no-probe", "--json").json().get("frameworks").get(0);
        assertEquals(wheel.resolve("libcudnn.so.9").toString(), g.get("loads").get("path").asText(), g.toString());
        assertEquals("LD_LIBRARY_PATH", g.get("loads").get("via").asText());
    }

    @Test
    void pinsAreReadFromTheHeaderOnly() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.write(fs.getPath("/d/torch-1.dist-info/METADATA"), "Name: torch\n\nRequires-Dist: nvidia-cudnn-cu12==9.1.0.70\n");
        assertTrue(Frameworks.pin(fs.getPath("/d/torch-1.dist-info")).isEmpty(), "a line of the description is not a pin");
        TestHosts.write(fs.getPath("/d/tf-1.dist-info/METADATA"), "Name: tensorflow\nRequires-Dist: nvidia-cudnn-cu12 (==9.3.0.75);"
                + " extra == \"and-cuda\"\n");
        Frameworks.Pin p = Frameworks.pin(fs.getPath("/d/tf-1.dist-info")).orElseThrow();
        assertEquals("nvidia-cudnn-cu12==9.3.0.75", p.text());
        assertEquals(12, p.cudaMajor());
        assertTrue(Frameworks.sameRelease("9.3.0", "9.3.0.75") && !Frameworks.sameRelease("9.3.0.75", "9.3.0.76")
                && !Frameworks.sameRelease("9.3", "9.3.1"));
    }
}
