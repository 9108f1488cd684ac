package dev.cudnntool.real;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.host.loader.PeFile;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through the command line with real NVIDIA cuDNN 8.9.7 and 9.5.1 libraries: install,
 * verify (the probe loads the library in a child JVM), rollback; then the broken installs people
 * make by hand. No GPU is needed: without a driver cudnnCreate fails with NOT_INITIALIZED.
 */
@Tag("real-cudnn")
class RealCudnnTest {

    @TempDir
    Path tmp;

    /** This machine, with an environment the test controls (no stray CUDA_PATH or LD_LIBRARY_PATH). */
    private static Host host(Map<String, String> extraEnv) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.putAll(extraEnv);
        return new Host(FileSystems.getDefault(), env, OsFamily.LINUX, Arch.X86_64, 64, new SystemProcessRunner(extraEnv));
    }

    private static Cli.Run cli(Host host, String... args) {
        return Cli.run(host, args); // an empty catalogue: fixtures carry NVIDIA names, not NVIDIA bytes
    }

    private Path toolkit(String version) {
        Path tk = TestHosts.toolkit(tmp.resolve("cuda-" + version), version + ".0");
        try {
            Files.createDirectories(tk.resolve("lib64"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return tk;
    }

    private static boolean driverPresent() {
        return StreamSupport.stream(Arrays.spliterator(System.getenv().getOrDefault("PATH", "").split(":")), false)
                .anyMatch(d -> Files.isRegularFile(Path.of(d, "nvidia-smi")));
    }

    private static JsonNode finding(JsonNode doc, String id) {
        for (JsonNode f : doc.get("findings")) {
            if (f.get("id").asText().equals(id)) {
                return f;
            }
        }
        throw new AssertionError("no finding " + id + " in " + doc.get("findings"));
    }

    private void installVerifyRollback(int major, String cuda, long api, String release, long cudart) throws Exception {
        Path tk = toolkit(cuda);
        Map<String, String> before = TreeSnapshot.of(tk);
        Host host = host(Map.of());
        Path archive = RealCudnn.archive(major);

        Cli.Run install = cli(host, "install", "--archive", archive.toString(), "--cuda-path", tk.toString(), "--json");
        assertEquals(0, install.exit(), install.out() + install.err());
        assertTrue(finding(install.json(), "install.probe-ok").get("message").asText().contains(Long.toString(api)));
        assertTrue(Files.isSymbolicLink(tk.resolve("lib64/libcudnn.so." + major)));

        // Programs load cuDNN by name: the toolkit's folder must be on the loader path (issue 11, A1).
        Host onPath = host(Map.of("LD_LIBRARY_PATH", tk.resolve("lib64").toString()));
        Cli.Run verify = cli(onPath, "verify", "--cuda-path", tk.toString(), "--expect", release, "--json");
        assertEquals(0, verify.exit(), verify.out() + verify.err());
        JsonNode probe = verify.json().get("probe");
        assertEquals(api, probe.get("version").asLong());
        assertEquals(release, probe.get("versionString").asText());
        assertEquals(cudart, probe.get("cudartVersion").asLong());
        assertEquals(tk.resolve("lib64/libcudnn.so." + major).toString(), probe.get("loadedPath").asText());
        assertEquals(CudnnSubLibraries.count(major), probe.get("subLibraries").size());
        probe.get("subLibraries").forEach(s -> assertTrue(s.get("loaded").asBoolean(), s.toString()));
        if (driverPresent()) {
            assertEquals(0, probe.get("handleStatus").asInt(), "a GPU machine must create a handle");
        } else {
            assertEquals(major >= 9 ? 1001 : 1, probe.get("handleStatus").asInt());
            finding(verify.json(), "cudnn.no-gpu");
        }
        assertTrue(finding(verify.json(), "cudnn.ok").get("message").asText().contains(release));

        Cli.Run human = cli(onPath, "verify", "--cuda-path", tk.toString());
        assertTrue(human.out().contains("cudnnGetVersion " + api + " = " + release), human.out());

        Cli.Run rollback = cli(host, "rollback", "--cuda-path", tk.toString());
        assertEquals(0, rollback.exit(), rollback.out() + rollback.err());
        assertEquals(before, TreeSnapshot.of(tk), "the toolkit is byte-identical after rollback");
    }

    @Test
    void cudnn8InstallVerifyRollback() throws Exception {
        installVerifyRollback(8, "12.2", 8907, "8.9.7", 12020);
    }

    @Test
    void cudnn9InstallVerifyRollback() throws Exception {
        installVerifyRollback(9, "12.6", 90501, "9.5.1", 12060);
    }

    @Test
    void aRemovedSubLibraryAbortsTheChildButNotTheTool() throws Exception {
        Path tk = toolkit("12.2");
        RealCudnn.layOut(8, tk.resolve("lib64"), tk.resolve("include"));
        Files.delete(tk.resolve("lib64/libcudnn_ops_infer.so.8"));
        Files.delete(tk.resolve("lib64/libcudnn_ops_infer.so.8.9.7"));
        Files.delete(tk.resolve("lib64/libcudnn_ops_infer.so"));
        Cli.Run verify = cli(host(Map.of()), "verify", "--cuda-path", tk.toString(), "--json");
        assertEquals(1, verify.exit(), verify.out());
        assertTrue(finding(verify.json(), "cudnn.incomplete").get("message").asText().contains("libcudnn_ops_infer.so.8"));
        boolean aborted = false;
        for (JsonNode f : verify.json().get("findings")) {
            if (f.get("id").asText().equals("cudnn.load-failed") && f.get("message").asText().contains("exit status 134")) {
                aborted = true;
                assertTrue(f.get("message").asText().contains("libcudnn_ops_infer.so.8"), f.toString());
                assertFalse(f.get("fix").asText().isBlank());
            }
        }
        assertTrue(aborted, "the probe child aborted (SIGABRT) and the tool reported it: " + verify.json().get("findings"));
        assertEquals(134, verify.json().get("probe").get("childExit").asInt());
    }

    @Test
    void aSecondCopyFirstOnLdLibraryPathShadowsTheToolkit() throws Exception {
        Path tk = toolkit("12.6");
        RealCudnn.layOut(9, tk.resolve("lib64"), tk.resolve("include"));
        Path other = tmp.resolve("conda-env/lib");
        RealCudnn.layOut(9, other, tmp.resolve("conda-env/include"));
        Host host = host(Map.of("LD_LIBRARY_PATH", other + ":" + tk.resolve("lib64")));
        Cli.Run verify = cli(host, "verify", "--cuda-path", tk.toString(), "--json");
        assertEquals(1, verify.exit(), verify.out());
        JsonNode shadowed = finding(verify.json(), "cudnn.shadowed");
        assertTrue(shadowed.get("message").asText().contains(other.resolve("libcudnn.so.9").toString()), shadowed.toString());
        assertTrue(shadowed.get("message").asText().contains("9.5.1"), shadowed.toString());
        assertEquals("error", finding(verify.json(), "cudnn.shadow").get("severity").asText());
        assertEquals(other.resolve("libcudnn.so.9").toString(), verify.json().get("probe").get("loadedByNamePath").asText());
    }

    @Test
    void anOlderHeaderOverNewerLibrariesIsAHalfFinishedUpgrade() throws Exception {
        Path tk = toolkit("12.6");
        RealCudnn.layOut(9, tk.resolve("lib64"), tk.resolve("include"));
        Files.writeString(tk.resolve("include/cudnn_version.h"), ArchiveFixture.versionHeader(
                CudnnVersion.of(8, 9, 7)));
        Cli.Run verify = cli(host(Map.of()), "verify", "--cuda-path", tk.toString(), "--json");
        assertEquals(1, verify.exit(), verify.out());
        JsonNode f = finding(verify.json(), "cudnn.header-library-mismatch");
        assertTrue(f.get("message").asText().contains("8.9.7") && f.get("message").asText().contains("9.5.1"), f.toString());
    }

    @Test
    void subLibrariesOfTwoReleasesMixedAreNamed() throws Exception {
        Path tk = toolkit("12.6");
        Path lib = tk.resolve("lib64");
        RealCudnn.layOut(9, lib, tk.resolve("include"));
        // A hand copy left an 8.9.7 library where cuDNN 9 expects its ops sub-library.
        Files.delete(lib.resolve("libcudnn_ops.so.9"));
        Files.copy(RealCudnn.linux(8).resolve("libcudnn_ops_infer.so.8"), lib.resolve("libcudnn_ops.so.8.9.7"));
        Files.createSymbolicLink(lib.resolve("libcudnn_ops.so.9"), Path.of("libcudnn_ops.so.8.9.7"));
        Cli.Run verify = cli(host(Map.of()), "verify", "--cuda-path", tk.toString(), "--json");
        assertEquals(1, verify.exit(), verify.out());
        JsonNode f = finding(verify.json(), "cudnn.mixed-versions");
        assertTrue(f.get("message").asText().contains("8.9.7") && f.get("message").asText().contains("9.5.1"), f.toString());
    }

    @Test
    void theMachineWithoutCudnnSaysSoPlainly() throws Exception {
        Path tk = toolkit("12.6");
        Cli.Run plain = cli(host(Map.of()), "verify", "--cuda-path", tk.toString(), "--json");
        assertEquals(0, plain.exit(), "nothing asserted, nothing wrong: " + plain.out());
        assertEquals("info", finding(plain.json(), "cudnn.missing").get("severity").asText());
        Cli.Run expect = cli(host(Map.of()), "verify", "--cuda-path", tk.toString(), "--expect", "9.5.1", "--json");
        assertEquals(1, expect.exit());
        assertEquals("error", finding(expect.json(), "cudnn.missing").get("severity").asText());
    }

    @Test
    void thePeReaderReadsNvidiasRealDlls() throws Exception {
        PeFile.Info dll = PeFile.read(RealCudnn.windows().resolve("cudnn64_8.dll"));
        assertTrue(dll.x64());
        assertEquals("8.9.7.29", dll.fileVersion());
        PeFile.Info zlib = PeFile.read(RealCudnn.windows().resolve("zlibwapi.dll"));
        assertEquals("x64", zlib.machineName());
    }

    /** How many sub-libraries the probe loads for each major. */
    static final class CudnnSubLibraries {
        static int count(int major) {
            return CudnnComponents.subLibraries(major).size();
        }
    }
}
