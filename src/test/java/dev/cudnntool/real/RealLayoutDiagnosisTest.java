package dev.cudnntool.real;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 (diagnosis, round three) with real NVIDIA cuDNN 9.5.1: layouts people really have,
 * built in a temp folder from the real libraries and diagnosed end to end through the command line.
 */
@Tag("real-cudnn")
class RealLayoutDiagnosisTest {

    @TempDir
    Path tmp;

    /** A1: only the full-version files, every soname link gone: a copy, with ldconfig -n as the fix. */
    @Test
    void realFullVersionFilesWithoutSonameLinksAreNoSonameLink() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path lib = tk.resolve("lib64");
        for (String base : CudnnComponents.libraries(9)) {
            Files.delete(lib.resolve(CudnnComponents.linuxSoname(base, 9)));
            Files.delete(lib.resolve("lib" + base + ".so"));
        }
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", lib.toString())), "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.no-soname-link");
        assertEquals("error", f.get("severity").asText());
        assertTrue(f.get("message").asText().contains("libcudnn.so.9.5.1"), f.toString());
        assertTrue(f.get("fix").asText().contains("ldconfig -n " + lib), f.toString());
        assertTrue(RealVerify.findings(doc, "cudnn.missing").isEmpty(), doc.get("findings").toString());
        assertEquals(1, doc.get("exitCode").asInt());
    }

    /** A1: the soname link deleted after ldconfig: the exact ln -s. */
    @Test
    void realSonameLinkDeletedIsTheExactLn() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path lib = tk.resolve("lib64");
        Files.delete(lib.resolve("libcudnn.so.9"));
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", lib.toString())), "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.no-soname-link");
        assertTrue(f.get("fix").asText().contains("ln -s libcudnn.so.9.5.1 " + lib.resolve("libcudnn.so.9")), f.toString());
        assertEquals(1, doc.get("exitCode").asInt());
    }

    /**
     * A2: the real library folder closed (0700 of another user is, for an ordinary user, a folder
     * it cannot list: chmod 000 here). Root is never denied, so this runs for ordinary users only;
     * LinuxLayoutDiagnosisTest covers it everywhere with an injected denial.
     */
    @Test
    void aRealLibraryFolderTheUserCannotEnterIsUnreadable() throws Exception {
        Assumptions.assumeFalse("root".equals(System.getProperty("user.name")), "root is never denied");
        Path tk = RealVerify.toolkit(tmp);
        Path lib = tk.resolve("lib64");
        Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("---------"));
        try {
            JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", lib.toString())), "--cuda-path", tk.toString());
            JsonNode f = RealVerify.finding(doc, "cudnn.unreadable");
            assertTrue(f.get("message").asText().startsWith(lib + " cannot be opened"), f.toString());
            assertTrue(f.get("fix").asText().startsWith("sudo chmod a+rx " + lib), f.toString());
            assertTrue(RealVerify.findings(doc, "cudnn.missing").isEmpty(), doc.get("findings").toString());
            assertEquals(1, doc.get("exitCode").asInt());
        } finally {
            Files.setPosixFilePermissions(lib, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /** A3: NVIDIA's real x86_64 build seen from a 64-bit ARM server: wrong-arch, the sbsa archive named, nothing loaded. */
    @Test
    void realX8664LibrariesOnAnArmMachineAreWrongArch() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path lib = tk.resolve("lib64");
        Map<String, String> env = Map.of("PATH", "/usr/bin:/bin", "LD_LIBRARY_PATH", lib.toString());
        Host arm = new Host(FileSystems.getDefault(), env, OsFamily.LINUX, Arch.AARCH64, 64, new SystemProcessRunner(env));
        JsonNode doc = RealVerify.verify(arm, "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.wrong-arch");
        assertTrue(f.get("message").asText().contains("libcudnn.so.9.5.1") && f.get("message").asText().contains("built for x86_64")
                && f.get("message").asText().contains("this machine is aarch64"), f.toString());
        assertTrue(f.get("fix").asText().contains("cudnn-linux-sbsa-9.5.1.17_cuda12-archive.tar.xz"), f.toString());
        assertTrue(doc.get("probe") == null || doc.get("probe").isNull(), "nothing was loaded: " + doc.get("probe"));
        assertEquals(1, doc.get("exitCode").asInt());
    }

    /** A3: a real library whose e_machine says aarch64, on this x86_64 machine; the untouched real build raises nothing. */
    @Test
    void aRealLibraryOfAnotherCpuIsWrongArchAndTheRealBuildIsNot() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path lib = tk.resolve("lib64");
        JsonNode healthy = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", lib.toString())), "--cuda-path", tk.toString());
        assertTrue(RealVerify.findings(healthy, "cudnn.wrong-arch").isEmpty(), healthy.get("findings").toString());
        Path main = lib.resolve("libcudnn.so.9.5.1");
        byte[] bytes = Files.readAllBytes(main);
        Files.delete(main); // a hard link to the shared original: change a copy, never the original
        bytes[18] = (byte) 183; // EM_AARCH64
        bytes[19] = 0;
        Files.write(main, bytes);
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", lib.toString())), "--cuda-path", tk.toString());
        JsonNode f = RealVerify.finding(doc, "cudnn.wrong-arch");
        assertTrue(f.get("message").asText().contains(main.toString()) && f.get("message").asText().contains("aarch64"), f.toString());
        assertTrue(f.get("fix").asText().contains("cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz"), f.toString());
        assertTrue(RealVerify.findings(doc, "cudnn.load-failed").isEmpty(), doc.get("findings").toString());
    }

    /** A6: the only cuDNN is NVIDIA's real library in a conda env: text and JSON both name it; nothing says "none found". */
    @Test
    void aRealCondaCopyAloneIsSaidAlikeInTextAndJson() throws Exception {
        Path tk = TestHosts.toolkit(tmp.resolve("cuda-12.6"), "12.6.0");
        Files.createDirectories(tk.resolve("lib64"));
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path env = home.resolve("miniconda3");
        RealCudnn.layOut(9, env.resolve("lib"), env.resolve("include"));
        Host host = RealVerify.host(Map.of("HOME", home.toString()));
        JsonNode doc = RealVerify.verify(host, "--cuda-path", tk.toString());
        String path = env.resolve("lib/libcudnn.so.9").toString();
        assertEquals(1, doc.get("copies").size(), doc.get("copies").toString());
        assertEquals(path, doc.get("copies").get(0).get("path").asText());
        JsonNode said = RealVerify.finding(doc, "cudnn.copies");
        assertTrue(said.get("message").asText().contains(path) && said.get("message").asText().contains("conda"), said.toString());
        String text = Cli.run(host, "verify", "--cuda-path", tk.toString()).out();
        assertTrue(text.contains("copy      " + path + " (conda, cuDNN 9.5.1"), text);
        assertTrue(text.contains("cudnn.copies: " + said.get("message").asText()), text);
        assertTrue(!text.contains("cuDNN     none found") && !text.contains("nothing is broken"), text);
    }

    /** A7: lib64 a folder of its own, the real cuDNN in targets/x86_64-linux/lib: seen, loaded, healthy. */
    @Test
    void realCudnnInTargetsLibBesideASeparateLib64IsSeen() throws Exception {
        Path tk = TestHosts.toolkit(tmp.resolve("cuda-12.6"), "12.6.0");
        Files.createDirectories(tk.resolve("lib64"));
        Path lib = tk.resolve("targets/x86_64-linux/lib");
        RealCudnn.layOut(9, lib, tk.resolve("include"));
        JsonNode doc = RealVerify.verify(RealVerify.host(Map.of("LD_LIBRARY_PATH", lib.toString())), "--cuda-path", tk.toString());
        assertEquals(lib.toString(), doc.get("cudnn").get("runtimeDir").asText(), doc.toString());
        assertTrue(RealVerify.findings(doc, "cudnn.missing").isEmpty(), doc.get("findings").toString());
        assertEquals("9.5.1", doc.get("probe").get("versionString").asText(), doc.get("probe").toString());
    }

    /** A14: a healthy real target and an incomplete real copy in a conda env: with --all the count and the exit code agree. */
    @Test
    void realCopyErrorsAreCountedInTheAllSummary() throws Exception {
        Path tk = RealVerify.toolkit(tmp);
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path env = Files.createDirectories(home.resolve("miniconda3/lib"));
        Files.copy(RealCudnn.linux(9).resolve("libcudnn.so.9"), env.resolve("libcudnn.so.9")); // the sub-libraries missing
        Host host = RealVerify.host(Map.of("HOME", home.toString(), "LD_LIBRARY_PATH", tk.resolve("lib64").toString()));
        Cli.Run plain = Cli.run(host, "verify", "--no-probe", "--cuda-path", tk.toString());
        Assumptions.assumeTrue(plain.exit() == 0, "the target is not healthy on this machine: " + plain.out());
        Cli.Run all = Cli.run(host, "verify", "--no-probe", "--all", "--cuda-path", tk.toString());
        assertEquals(1, all.exit(), all.out());
        long errors = 0; // other copies on this machine (a system cuDNN) count too: every ERROR outside the target's block
        boolean inTarget = false;
        for (String l : all.out().lines().toList()) {
            if (l.startsWith("copy ")) {
                inTarget = l.contains("(target");
            } else if (l.trim().startsWith("ERROR ") && !inTarget) {
                errors++;
            }
        }
        assertTrue(errors >= 1 && all.out().contains("verify: " + errors + " problem(s) found (" + errors + " in other cuDNN copies"),
                all.out());
    }
}
