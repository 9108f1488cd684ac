package dev.cudnntool.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.RealWheels;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 item 7 against NVIDIA's real wheel nvidia-cudnn-cu13 9.24.0.43 (553 MB): every one of its
 * files is checked against RECORD, it installs into a CUDA 13 toolkit with the development links
 * added, the probe loads the installed library in a child process, and rollback restores the
 * toolkit byte for byte. The wheel is read where it lies and never written.
 */
@Tag("real-cudnn")
class RealWheelInstallTest {
    @TempDir
    Path tmp;

    private static Host host(Map<String, String> extraEnv) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.putAll(extraEnv);
        return new Host(FileSystems.getDefault(), env, OsFamily.LINUX, Arch.X86_64, 64, new SystemProcessRunner(extraEnv));
    }

    private static JsonNode finding(JsonNode doc, String id) {
        for (JsonNode f : doc.get("findings")) {
            if (f.get("id").asText().equals(id)) {
                return f;
            }
        }
        throw new AssertionError("no finding " + id + " in " + doc.get("findings"));
    }

    @Test
    void theRealCudnnWheelInstallsVerifiesAndRollsBack() throws Exception {
        Path wheel = RealWheels.wheel(RealWheels.CUDNN_WHEEL);
        Path tk = TestHosts.toolkit(tmp.resolve("cuda-13.0"), "13.0.0");
        Files.createDirectories(tk.resolve("lib64"));
        Map<String, String> before = TreeSnapshot.of(tk);
        Host host = host(Map.of());

        long t0 = System.nanoTime();
        Cli.Run dry = Cli.run(host, "install", "--archive", wheel.toString(), "--cuda-path", tk.toString(), "--dry-run", "--json");
        long dryMs = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(0, dry.exit(), dry.out() + dry.err());
        assertEquals(before, TreeSnapshot.of(tk), "a dry run changes nothing");

        t0 = System.nanoTime();
        Cli.Run install = Cli.run(host, "install", "--archive", wheel.toString(), "--cuda-path", tk.toString(), "--json");
        long installMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("real wheel %s (%d bytes): dry run %d ms, install %d ms on %d cores%n", RealWheels.CUDNN_WHEEL,
                Files.size(wheel), dryMs, installMs, Runtime.getRuntime().availableProcessors());
        assertEquals(0, install.exit(), install.out() + install.err());
        JsonNode doc = install.json();
        assertTrue(finding(doc, "wheel.record-ok").get("message").asText().contains("every one of the wheel's 30 files"),
                finding(doc, "wheel.record-ok").toString());
        assertTrue(finding(doc, "install.probe-ok").get("message").asText().contains("92400"), doc.get("findings").toString());
        assertEquals("9.24.0.43", doc.get("archive").get("version").asText());
        assertEquals("whl", doc.get("archive").get("format").asText());

        Path lib = tk.resolve("lib64");
        for (String base : new String[] {"cudnn", "cudnn_graph", "cudnn_ops", "cudnn_engines_tensor_ir", "cudnn_ext"}) {
            assertTrue(Files.isRegularFile(lib.resolve("lib" + base + ".so.9"), LinkOption.NOFOLLOW_LINKS), base);
            assertEquals("lib" + base + ".so.9", Files.readSymbolicLink(lib.resolve("lib" + base + ".so")).toString());
        }
        assertTrue(Files.readString(tk.resolve("include/cudnn_version.h")).contains("#define CUDNN_MINOR 24"));
        assertFalse(Files.exists(tk.resolve("include/__init__.py")));
        try (var s = Files.list(tk)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".dist-info")), "no wheel metadata installed");
        }

        Host onPath = host(Map.of("LD_LIBRARY_PATH", lib.toString()));
        Cli.Run verify = Cli.run(onPath, "verify", "--cuda-path", tk.toString(), "--expect", "9.24.0", "--json");
        assertEquals(0, verify.exit(), verify.out() + verify.err());
        JsonNode probe = verify.json().get("probe");
        assertEquals(92400, probe.get("version").asLong(), verify.out());
        assertEquals(lib.resolve("libcudnn.so.9").toString(), probe.get("loadedPath").asText());

        Cli.Run rollback = Cli.run(host, "rollback", "--cuda-path", tk.toString());
        assertEquals(0, rollback.exit(), rollback.out() + rollback.err());
        assertEquals(before, TreeSnapshot.of(tk), "the toolkit is byte-identical after rollback");
    }
}
