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
        dev.cudnntool.host.loader.LdSoCache cache = dev.cudnntool.host.loader.LdSoCache.of(bare);
        boolean machineHasAnother = java.util.stream.IntStream.of(10, 11, 13, 14).anyMatch(m ->
                dev.cudnntool.host.loader.LoaderPath.find(bare, cache, "libcudart.so." + m, java.util.List.of(), java.util.List.of())
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
}
