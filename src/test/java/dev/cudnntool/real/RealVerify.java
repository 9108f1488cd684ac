package dev.cudnntool.real;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What the real-library diagnosis tests share: this machine as a Host, verify --json, its findings, a toolkit of real cuDNN 9. */
final class RealVerify {
    private RealVerify() {
    }

    static Host host(Map<String, String> extraEnv) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.putAll(extraEnv);
        return new Host(FileSystems.getDefault(), env, OsFamily.LINUX, Arch.X86_64, 64, new SystemProcessRunner(extraEnv));
    }

    static JsonNode verify(Host host, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("verify", "--json"));
        all.addAll(List.of(args));
        return Cli.run(host, all.toArray(String[]::new)).json();
    }

    static List<JsonNode> findings(JsonNode doc, String id) {
        List<JsonNode> out = new ArrayList<>();
        doc.get("findings").forEach(f -> {
            if (f.get("id").asText().equals(id)) {
                out.add(f);
            }
        });
        return out;
    }

    static JsonNode finding(JsonNode doc, String id) {
        List<JsonNode> f = findings(doc, id);
        if (f.isEmpty()) {
            throw new AssertionError("no finding " + id + " in " + doc.get("findings"));
        }
        return f.get(0);
    }

    /** A CUDA 12.6 toolkit in {@code tmp} with real cuDNN 9 in its lib64 and include. */
    static Path toolkit(Path tmp) throws Exception {
        Path tk = TestHosts.toolkit(tmp.resolve("cuda-12.6"), "12.6.0");
        Files.createDirectories(tk.resolve("lib64"));
        RealCudnn.layOut(9, tk.resolve("lib64"), tk.resolve("include"));
        return tk;
    }
}
