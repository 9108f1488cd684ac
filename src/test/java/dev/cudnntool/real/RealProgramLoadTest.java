package dev.cudnntool.real;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.RealWheels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * #33 item 1 with the real libraries: the probe loads only the main library, as a program does, and asks cuDNN's own
 * per-sub-library version checks. First what a MATCHING copy answers here, without a GPU (0 to every check: 9.5.1,
 * the 9.24 wheel, 8.9.7), then 9.24's ops library under 9.5.1's name (1002, CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH),
 * which loaded and passed before; then a sub-library a program picks up from the current folder.
 */
@Tag("real-cudnn")
class RealProgramLoadTest {
    @TempDir
    Path tmp;

    private static ProbeResult probe(Path main, String bareName) throws Exception {
        List<Path> subs;
        try (Stream<Path> s = Files.list(main.getParent())) {
            subs = s.filter(p -> p.getFileName().toString().matches("libcudnn_[a-z_]+\\.so\\.[89]")).sorted().toList();
        }
        return new ProbeRunner(new SystemProcessRunner(), ProbeRunner.currentJava()).probe(main, bareName, subs);
    }

    private static void assertAllChecksPass(ProbeResult p, int checks) {
        assertEquals(checks, p.versionChecks().size(), p.versionChecks()::toString);
        assertTrue(p.versionChecks().stream().allMatch(c -> c.status() == 0 && "CUDNN_STATUS_SUCCESS".equals(c.statusName())),
                p.versionChecks()::toString);
        assertFalse(p.incomplete(), String.valueOf(p.stderrTail()));
    }

    @Test
    void matchingCopiesAnswerZeroToEveryVersionCheckWithoutAGpu() throws Exception {
        ProbeResult v9 = probe(RealCudnn.linux(9).resolve("libcudnn.so.9"), null);
        assertAllChecksPass(v9, 4); // graph, ops, cnn, adv
        assertTrue(v9.mapped().stream().anyMatch(m -> m.path().endsWith("/libcudnn_ops.so.9") && "9.5.1".equals(m.version())),
                v9.mapped()::toString);
        assertEquals(1001, v9.handleStatus()); // no GPU here: NOT_INITIALIZED, yet every version check is 0

        ProbeResult wheel = probe(RealWheels.sitePackages().resolve("nvidia/cudnn/lib/libcudnn.so.9"), null);
        assertAllChecksPass(wheel, 5); // 9.24 adds cudnnSubquadraticOpsVersionCheck
        assertTrue(wheel.mapped().stream().anyMatch(m -> m.path().endsWith("/libcudnn_ops.so.9") && "9.24.0".equals(m.version())),
                wheel.mapped()::toString);

        ProbeResult v8 = probe(RealCudnn.linux(8).resolve("libcudnn.so.8"), null);
        assertAllChecksPass(v8, 6); // ops, cnn, adv: infer and train
        assertTrue(v8.mapped().stream().anyMatch(m -> m.path().endsWith("/libcudnn_ops_infer.so.8") && "8.9.7".equals(m.version())),
                v8.mapped()::toString);
    }

    @Test
    void anotherReleasesOpsLibraryUnderThisReleasesNameIsASubLibraryVersionMismatch() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path ops = tk.resolve("lib64/libcudnn_ops.so.9.5.1");
        Files.delete(ops); // a hard link to the shared original: replace the link, never the original
        Files.copy(RealWheels.sitePackages().resolve("nvidia/cudnn/lib/libcudnn_ops.so.9"), ops);

        ProbeResult p = probe(tk.resolve("lib64/libcudnn.so.9"), null);
        ProbeResult.VersionCheck opsCheck = p.versionChecks().stream()
                .filter(c -> c.function().equals("cudnnOpsVersionCheck")).findFirst().orElseThrow();
        assertEquals(1002, opsCheck.status());
        assertEquals("CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", opsCheck.statusName());
        String opsReal = ops.toRealPath().toString();
        assertTrue(p.mapped().stream().anyMatch(m -> m.path().equals(opsReal) && "9.24.0".equals(m.version())),
                p.mapped()::toString);

        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", tk.resolve("lib64").toString())),
                "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.mixed-versions");
        assertEquals("error", f.get("severity").asText());
        assertTrue(f.get("message").asText().contains("cudnnOpsVersionCheck answered 1002"), f.toString());
        assertTrue(f.get("message").asText().contains("is cuDNN 9.24.0"), f.toString());
        assertEquals(1, doc.get("exitCode").asInt());
        assertTrue(RealVerify.findings(doc, "cudnn.ok").isEmpty(), doc.get("findings").toString());
        assertEquals(1002, doc.get("probe").get("versionChecks").get(1).get("status").asInt(), doc.get("probe").toString());
    }

    @Test
    void aSubLibraryFromTheCurrentFolderThroughAnEmptySearchPathEntryIsWhatTheProgramGets() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path cwd = Files.createDirectories(tmp.resolve("work"));
        // the dispatcher tries the full-version name first (libcudnn_ops.so.9.5.1), LD_LIBRARY_PATH before $ORIGIN
        Files.copy(RealCudnn.linux(9).resolve("libcudnn_ops.so.9"), cwd.resolve("libcudnn_ops.so.9.5.1"));
        List<String> cmd = new ArrayList<>(ProbeRunner.currentJava());
        cmd.addAll(List.of("dev.cudnntool.probe.ProbeMain", "--library", tk.resolve("lib64/libcudnn.so.9").toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(false);
        pb.environment().put("LD_LIBRARY_PATH", ":");
        Process proc = pb.start();
        String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, proc.waitFor(), out);
        assertTrue(out.contains("{\"event\":\"mapped\",\"path\":\"" + cwd.toRealPath().resolve("libcudnn_ops.so.9.5.1")
                + "\",\"version\":\"9.5.1\"}"), out);
        assertTrue(out.contains("\"function\":\"cudnnOpsVersionCheck\",\"status\":0"), out);
    }
}
