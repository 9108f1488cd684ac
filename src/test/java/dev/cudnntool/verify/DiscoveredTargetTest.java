package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * #33 item 2 on jimfs machines: when the toolkit holds no cuDNN, the copy programs get by name and the active
 * environment's copy are judged in plain verify (no --all): a distribution package built for another CUDA major,
 * an incomplete conda environment; JSON target.kind names the owner's kind; ld.so.conf.d folders are copies.
 */
class DiscoveredTargetTest {
    static final String TK13 = "/usr/local/cuda-13.0";
    static final String MULTIARCH = "/usr/lib/x86_64-linux-gnu";

    private static void cudnn9(Path dir, boolean withOps) throws Exception {
        for (String base : CudnnComponents.libraries(9)) {
            if (withOps || !base.equals("cudnn_ops")) {
                CopyFinderTest.lib(dir, "lib" + base + ".so.9.5.1", CudnnComponents.linuxSoname(base, 9));
            }
        }
    }

    private static List<JsonNode> ids(JsonNode doc, String id) {
        List<JsonNode> out = new ArrayList<>();
        doc.get("findings").forEach(f -> {
            if (f.get("id").asText().equals(id)) {
                out.add(f);
            }
        });
        return out;
    }

    /** A CUDA 13 image with NVIDIA's libcudnn9-cuda-12 from apt, no cuBLAS 12: the copy programs get is an error. */
    @Test
    void aDistributionPackageForAnotherCudaMajorIsAnErrorWithoutAll() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath(TK13), "13.0.0");
        Path lib = fs.getPath(MULTIARCH);
        cudnn9(lib, true);
        Files.createDirectories(fs.getPath("/etc"));
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(
                new String[] {"libcudnn.so.9", MULTIARCH + "/libcudnn.so.9"}), LdSoCache.x8664Flags()));
        TestHosts.write(fs.getPath("/var/lib/dpkg/info/libcudnn9-cuda-12:amd64.list"), "/.\n/usr\n" + MULTIARCH + "/libcudnn.so.9.5.1\n");
        TestHosts.write(fs.getPath("/var/lib/dpkg/status"),
                "Package: libcudnn9-cuda-12\nStatus: install ok installed\nVersion: 9.5.1.17-1\n\n");
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", TK13, "PATH", "/usr/bin"), new FakeRunner());

        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        assertEquals(1, doc.get("exitCode").asInt(), doc.get("findings").toString());
        assertEquals("dpkg", doc.get("target").get("kind").asText(), doc.get("target").toString());
        assertEquals(MULTIARCH, doc.get("target").get("path").asText());
        JsonNode f = ids(doc, "cudnn.cudart-mismatch").get(0);
        assertEquals("error", f.get("severity").asText());
        assertTrue(f.get("message").asText().contains("CUDA 12 build") && f.get("message").asText().contains("libcudnn9-cuda-12"),
                f.toString());
        assertEquals("sudo apt-get install libcudnn9-cuda-13", f.get("fix").asText());
        JsonNode copy = doc.get("copies").get(0);
        assertTrue(copy.get("findings").size() > 0, copy.toString());
    }

    /** The same package on a CUDA 12 image is fine: judged, no error, target.kind still dpkg. */
    @Test
    void theSamePackageOnItsOwnCudaMajorPasses() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.6"), "12.6.0");
        Path lib = fs.getPath(MULTIARCH);
        cudnn9(lib, true);
        Files.createDirectories(fs.getPath("/etc"));
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(
                new String[] {"libcudnn.so.9", MULTIARCH + "/libcudnn.so.9"}), LdSoCache.x8664Flags()));
        TestHosts.write(fs.getPath("/var/lib/dpkg/info/libcudnn9-cuda-12:amd64.list"), "/.\n/usr\n" + MULTIARCH + "/libcudnn.so.9.5.1\n");
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", "/usr/local/cuda-12.6", "PATH", "/usr/bin"), new FakeRunner());
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        assertTrue(ids(doc, "cudnn.cudart-mismatch").isEmpty(), doc.get("findings").toString());
        assertEquals("dpkg", doc.get("target").get("kind").asText());
    }

    /** The active conda environment's copy lacks a sub-library: an error in plain verify, target.kind conda. */
    @Test
    void anIncompleteCopyInTheActiveCondaEnvironmentIsAnError() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.6"), "12.6.0");
        Path env = fs.getPath("/home/me/miniconda3/envs/ml");
        Files.createDirectories(env.resolve("conda-meta"));
        cudnn9(env.resolve("lib"), false);
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", "/usr/local/cuda-12.6", "CONDA_PREFIX", env.toString(),
                "HOME", "/home/me", "PATH", "/usr/bin"), new FakeRunner());
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        assertEquals(1, doc.get("exitCode").asInt(), doc.get("findings").toString());
        assertEquals("conda", doc.get("target").get("kind").asText(), doc.get("target").toString());
        JsonNode f = ids(doc, "cudnn.incomplete").get(0);
        assertEquals("error", f.get("severity").asText());
        assertTrue(f.get("message").asText().contains("libcudnn_ops.so.9"), f.toString());

        // not the active environment: listed, not judged (as before)
        Host inactive = TestHosts.linux(fs, Map.of("CUDA_PATH", "/usr/local/cuda-12.6", "HOME", "/home/me", "PATH", "/usr/bin"),
                new FakeRunner());
        JsonNode other = Cli.run(inactive, "verify", "--no-probe", "--json").json();
        assertTrue(ids(other, "cudnn.incomplete").isEmpty(), other.get("findings").toString());
        assertEquals("toolkit", other.get("target").get("kind").asText());
    }

    /** A hand-made folder named only by a file of /etc/ld.so.conf.d is listed as a copy of its own. */
    @Test
    void aFolderReachedOnlyThroughLdSoConfDIsACopy() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.6"), "12.6.0");
        cudnn9(fs.getPath("/opt/handmade/lib"), true);
        TestHosts.write(fs.getPath("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/handmade.conf"), "/opt/handmade/lib\n");
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", "/usr/local/cuda-12.6", "PATH", "/usr/bin"), new FakeRunner());
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        JsonNode copies = doc.get("copies");
        assertEquals(1, copies.size(), copies.toString());
        assertEquals("/opt/handmade/lib/libcudnn.so.9", copies.get(0).get("path").asText());
        assertEquals("ldconfig", copies.get(0).get("origin").asText());
    }
}
