package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.DeniedFolders;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * #33 items 3 and 6 on jimfs machines (Unix mode): a stale loader cache over a hand-made folder is fixed by
 * {@code sudo ldconfig}; header alternatives by {@code update-alternatives --config}; a Linux driver inside WSL2 by
 * removing its packages; an unreadable venv cuDNN folder is {@code cudnn.unreadable}; an incomplete active conda copy
 * is fixed by conda; the text names the copies elsewhere.
 */
class RoundFourOpenCasesTest {
    static final String TK = "/usr/local/cuda-12.6";
    static final String MULTIARCH = "/usr/lib/x86_64-linux-gnu";
    static final String HANDMADE = "/opt/handmade/lib";

    static void cudnn9(Path dir, String version, boolean withOps) throws Exception {
        for (String base : CudnnComponents.libraries(9)) {
            if (withOps || !base.equals("cudnn_ops")) {
                CopyFinderTest.lib(dir, "lib" + base + ".so." + version, CudnnComponents.linuxSoname(base, 9));
            }
        }
    }

    static List<JsonNode> ids(JsonNode doc, String id) {
        List<JsonNode> out = new ArrayList<>();
        doc.get("findings").forEach(f -> {
            if (f.get("id").asText().equals(id)) {
                out.add(f);
            }
        });
        return out;
    }

    /** cuDNN 9.5.1 copied by hand into a folder listed in ld.so.conf.d; the cache (older) names the system's 9.1.0 or nothing. */
    static FileSystem staleCache(boolean cacheNamesSystemCopy) throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        cudnn9(fs.getPath(HANDMADE), "9.5.1", true);
        TestHosts.write(fs.getPath("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/handmade.conf"), "/opt/handmade/lib\n");
        List<String[]> entries = new ArrayList<>();
        entries.add(new String[] {"libcudart.so.12", TK + "/targets/x86_64-linux/lib/libcudart.so.12"});
        if (cacheNamesSystemCopy) {
            cudnn9(fs.getPath(MULTIARCH), "9.1.0", true);
            entries.add(new String[] {"libcudnn.so.9", MULTIARCH + "/libcudnn.so.9"});
            // the system copy is a package's: its removal is what the old fix said
            TestHosts.write(fs.getPath("/var/lib/dpkg/info/libcudnn9-cuda-12:amd64.list"), "/.\n/usr\n" + MULTIARCH + "/libcudnn.so.9.1.0\n");
            TestHosts.write(fs.getPath("/var/lib/dpkg/status"), "Package: libcudnn9-cuda-12\nStatus: install ok installed\nVersion: 9.1.0.70-1\n\n");
        }
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(entries, LdSoCache.x8664Flags()));
        return fs;
    }

    @Test
    void aStaleCacheOverAHandMadeFolderIsFixedByLdconfigNeverByRemovingAPackage() throws Exception {
        FileSystem fs = staleCache(true);
        Host host = TestHosts.linux(fs, Map.of("PATH", "/usr/bin"), new FakeRunner());
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--prefix", "/opt/handmade", "--json").json();
        JsonNode shadow = ids(doc, "cudnn.shadow").get(0);
        assertEquals("error", shadow.get("severity").asText(), shadow.toString());
        String fix = shadow.get("fix").asText();
        assertTrue(fix.startsWith("sudo ldconfig (" + HANDMADE + " is listed in /etc/ld.so.conf.d/handmade.conf line 1"), fix);
        assertTrue(fix.contains("still names " + MULTIARCH + "/libcudnn.so.9"), fix);
        assertFalse(fix.contains("apt"), fix);

        // once ldconfig has cached the folder, the same machine is an ordinary order question again (not this fix)
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(
                new String[] {"libcudnn.so.9", MULTIARCH + "/libcudnn.so.9"}, new String[] {"libcudnn.so.9", HANDMADE + "/libcudnn.so.9"}),
                LdSoCache.x8664Flags()));
        JsonNode after = Cli.run(host, "verify", "--no-probe", "--prefix", "/opt/handmade", "--json").json();
        ids(after, "cudnn.shadow").forEach(f -> assertFalse(f.get("fix").asText().startsWith("sudo ldconfig ("), f.toString()));
    }

    @Test
    void aStaleHandMadeCopyElsewhereIsNamedWithLdconfigInPlainVerify() throws Exception {
        for (boolean systemCopy : new boolean[] {true, false}) {
            Host host = TestHosts.linux(staleCache(systemCopy), Map.of("CUDA_PATH", TK, "PATH", "/usr/bin"), new FakeRunner());
            JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
            List<JsonNode> missing = ids(doc, "search-path.missing");
            assertEquals(1, missing.size(), doc.get("findings").toString());
            String message = missing.get(0).get("message").asText();
            assertTrue(message.startsWith("cuDNN 9.5.1 in " + HANDMADE + " is listed in /etc/ld.so.conf.d/handmade.conf line 1"), message);
            assertTrue(message.endsWith(systemCopy ? "gets " + MULTIARCH + "/libcudnn.so.9 (cuDNN 9.1.0) instead" : "gets nothing instead"),
                    message);
            assertTrue(missing.get(0).get("fix").asText().startsWith("sudo ldconfig"), missing.toString());
            assertFalse(missing.get(0).get("fix").asText().contains("apt"), missing.toString());
        }
    }

    @Test
    void aHandMadeFolderTheCacheAlreadyHoldsIsNotStale() throws Exception {
        FileSystem fs = staleCache(false);
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(
                new String[] {"libcudnn.so.9", HANDMADE + "/libcudnn.so.9"}), LdSoCache.x8664Flags()));
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", TK, "PATH", "/usr/bin"), new FakeRunner());
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        assertTrue(ids(doc, "search-path.missing").isEmpty(), doc.get("findings").toString());
    }

    /** NVIDIA's Debian layout of cuDNN 9.5.1 with the header alternatives chosen for {@code header} instead. */
    static FileSystem alternativesTo(CudnnVersion header, boolean runtimeOfThatMajor) throws Exception {
        FileSystem fs = HeaderFilesTest.debian();
        String m = "_v" + header.major() + ".h";
        for (String h : CudnnComponents.headers(header.major())) {
            Path file = fs.getPath(HeaderFilesTest.MULTI, h.replace(".h", m));
            Files.writeString(file, h.equals("cudnn_version.h") ? ArchiveFixture.versionHeader(header) : "/* */");
            Path alt = fs.getPath("/etc/alternatives", "libcudnn_" + h.replace(".h", "_h"));
            Files.deleteIfExists(alt);
            Files.createSymbolicLink(alt, file);
            if (!Files.exists(fs.getPath("/usr/include", h), LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(fs.getPath("/usr/include", h), alt);
            }
        }
        if (runtimeOfThatMajor && header.major() != 9) {
            CopyFinderTest.lib(fs.getPath(MULTIARCH), "libcudnn.so." + header, "libcudnn.so." + header.major());
        }
        return fs;
    }

    @Test
    void headerAlternativesForAnotherMajorAreFixedByUpdateAlternatives() throws Exception {
        VerifyReport r = HeaderFilesTest.verify(alternativesTo(CudnnVersion.of(8, 9, 7), false));
        var f = HeaderFilesTest.id(r, "cudnn.header-alternative");
        assertEquals(1, f.size(), r.findings().toString());
        assertTrue(f.get(0).isError());
        assertTrue(f.get(0).message().contains("/usr/include/cudnn_version.h leads through the alternative libcudnn_cudnn_version_h"
                + " to the headers of cuDNN 8.9.7") && f.get(0).message().contains("is cuDNN 9.5.1"), f.get(0).message());
        assertTrue(f.get(0).fix().startsWith("sudo update-alternatives --config libcudnn_cudnn_version_h and pick "
                + HeaderFilesTest.MULTI + "/cudnn_version_v9.h"), f.get(0).fix());
        assertFalse(r.ok());
        // the runtime's own version is still read from its own _v9 header
        assertEquals(CudnnVersion.of(9, 5, 1), r.cudnn().headerVersion());
    }

    @Test
    void headerAlternativesForAMajorWhoseRuntimeIsThereTooAreAWarning() throws Exception {
        VerifyReport r = HeaderFilesTest.verify(alternativesTo(CudnnVersion.of(8, 9, 7), true));
        var f = HeaderFilesTest.id(r, "cudnn.header-alternative");
        assertEquals(1, f.size(), r.findings().toString());
        assertEquals(dev.cudnntool.Severity.WARN, f.get(0).severity());
        assertTrue(f.get(0).fix().contains("update-alternatives --config libcudnn_cudnn_version_h"), f.get(0).fix());
    }

    @Test
    void headerAlternativesForAnotherReleaseOfTheSameMajorAreAnError() throws Exception {
        FileSystem fs = HeaderFilesTest.debian();
        Path v9 = fs.getPath(HeaderFilesTest.MULTI, "cudnn_version_v9.h");
        Path other = fs.getPath("/opt/cudnn-9.1/include/cudnn_version.h");
        Files.createDirectories(other.getParent());
        Files.writeString(other, ArchiveFixture.versionHeader(CudnnVersion.of(9, 1, 0)));
        Path alt = fs.getPath("/etc/alternatives/libcudnn_cudnn_version_h");
        Files.delete(alt);
        Files.createSymbolicLink(alt, other);
        VerifyReport r = HeaderFilesTest.verify(fs);
        var f = HeaderFilesTest.id(r, "cudnn.header-alternative");
        assertEquals(1, f.size(), r.findings().toString());
        assertTrue(f.get(0).isError() && f.get(0).message().contains("cuDNN 9.1.0"), f.get(0).message());
        assertTrue(f.get(0).fix().contains("pick " + v9), f.get(0).fix());
        // the healthy layout says nothing
        assertTrue(HeaderFilesTest.id(HeaderFilesTest.verify(HeaderFilesTest.debian()), "cudnn.header-alternative").isEmpty());
    }

    /** WSL2 (WSL_DISTRO_NAME) with Windows' driver in /usr/lib/wsl/lib and, optionally, a Linux driver package inside. */
    static Host wsl(boolean linuxDriver, boolean smiFromWsl) throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        TestHosts.write(fs.getPath("/usr/lib/wsl/lib/libcuda.so"), "\u007fELF");
        TestHosts.write(fs.getPath("/usr/lib/wsl/lib/nvidia-smi"), "\u007fELF");
        if (smiFromWsl) {
            Files.createDirectories(fs.getPath("/usr/bin"));
            Files.createSymbolicLink(fs.getPath("/usr/bin/nvidia-smi"), fs.getPath("/usr/lib/wsl/lib/nvidia-smi"));
        }
        if (linuxDriver) {
            TestHosts.write(fs.getPath(MULTIARCH, "libcuda.so.550.54.14"), "\u007fELF");
            Files.createSymbolicLink(fs.getPath(MULTIARCH, "libcuda.so.1"), fs.getPath("libcuda.so.550.54.14"));
            TestHosts.write(fs.getPath("/var/lib/dpkg/info/libnvidia-compute-550:amd64.list"),
                    "/.\n/usr\n" + MULTIARCH + "/libcuda.so.550.54.14\n" + MULTIARCH + "/libcuda.so.1\n");
            TestHosts.write(fs.getPath("/var/lib/dpkg/info/nvidia-utils-550.list"), "/.\n/usr/bin\n/usr/bin/nvidia-smi\n");
            if (!smiFromWsl) {
                TestHosts.write(fs.getPath("/usr/bin/nvidia-smi"), "\u007fELF");
            }
        }
        FakeRunner runner = new FakeRunner();
        runner.on("nvidia-smi", NvidiaSmiOutputs.R535.replace("535.104.05", "560.94").replace("CUDA Version: 12.2", "CUDA Version: 12.6"));
        runner.on(NvidiaSmiOutputs.QUERY_CC, NvidiaSmiOutputs.gpuWithCc("NVIDIA GeForce RTX 4090", "560.94", "8.9"));
        return TestHosts.linux(fs, Map.of("CUDA_PATH", TK, "PATH", "/usr/bin", "WSL_DISTRO_NAME", "Ubuntu"), runner);
    }

    @Test
    void aLinuxDriverInsideWslIsAnErrorFixedByRemovingItsPackages() throws Exception {
        JsonNode doc = Cli.run(wsl(true, false), "verify", "--no-probe", "--json").json();
        List<JsonNode> f = ids(doc, "driver.wsl-linux-driver");
        assertEquals(1, f.size(), doc.get("findings").toString());
        assertEquals("error", f.get(0).get("severity").asText());
        String message = f.get(0).get("message").asText();
        assertTrue(message.contains(MULTIARCH + "/libcuda.so.1 and /usr/bin/nvidia-smi (from libnvidia-compute-550, nvidia-utils-550)"),
                message);
        assertEquals("remove the Linux driver packages (sudo apt remove --purge libnvidia-compute-550 nvidia-utils-550); WSL's driver"
                + " comes from Windows: keep the NVIDIA driver up to date there, and install no Linux driver inside WSL",
                f.get(0).get("fix").asText());
        assertEquals(1, doc.get("exitCode").asInt());
    }

    @Test
    void wslsOwnDriverAndAMachineOutsideWslSayNothing() throws Exception {
        JsonNode healthy = Cli.run(wsl(false, true), "verify", "--no-probe", "--json").json();
        assertTrue(ids(healthy, "driver.wsl-linux-driver").isEmpty(), healthy.get("findings").toString());
        // a libcuda.so.1 that is WSL's own link is no Linux driver either
        Host host = wsl(false, true);
        Files.createDirectories(host.path(MULTIARCH));
        Files.createSymbolicLink(host.path(MULTIARCH, "libcuda.so.1"), host.path("/usr/lib/wsl/lib/libcuda.so"));
        assertTrue(ids(Cli.run(host, "verify", "--no-probe", "--json").json(), "driver.wsl-linux-driver").isEmpty());
        // the same files on a Linux machine that is not WSL: an ordinary driver
        Host plain = wsl(true, false);
        Host notWsl = TestHosts.linux(plain.fs(), Map.of("CUDA_PATH", TK, "PATH", "/usr/bin"), new FakeRunner());
        assertTrue(ids(Cli.run(notWsl, "verify", "--no-probe", "--json").json(), "driver.wsl-linux-driver").isEmpty());
    }

    /** An install into WSL with a Linux driver inside stops before anything changes (exit 4); --force lets it go on, warned. */
    @Test
    void installChecksForALinuxDriverInsideWslBeforeAnythingChanges() throws Exception {
        Host host = wsl(true, false);
        Path downloads = Files.createDirectories(host.path("/home/me/Downloads"));
        Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads);
        Cli.Run stopped = Cli.run(host, "install", "--archive", archive.toString(), "--dry-run", "--no-probe", "--json");
        assertEquals(4, stopped.exit(), stopped.out() + stopped.err());
        List<JsonNode> f = ids(stopped.json(), "driver.wsl-linux-driver");
        assertEquals(1, f.size(), stopped.out());
        assertEquals("error", f.get(0).get("severity").asText());
        assertTrue(f.get(0).get("fix").asText().startsWith("remove the Linux driver packages (sudo apt remove --purge libnvidia-compute-550"),
                f.toString());
        Cli.Run forced = Cli.run(host, "install", "--archive", archive.toString(), "--dry-run", "--no-probe", "--force", "--json");
        assertEquals(0, forced.exit(), forced.out() + forced.err());
        assertEquals("warn", ids(forced.json(), "driver.wsl-linux-driver").get(0).get("severity").asText());
        Host wslOnly = wsl(false, true);
        Path again = ArchiveFixture.linux("9.5.1.17", "12").writeTo(Files.createDirectories(wslOnly.path("/home/me/Downloads")));
        Cli.Run healthy = Cli.run(wslOnly, "install", "--archive", again.toString(), "--dry-run", "--no-probe", "--json");
        assertEquals(0, healthy.exit(), healthy.out() + healthy.err());
        assertTrue(ids(healthy.json(), "driver.wsl-linux-driver").isEmpty(), healthy.out());
    }

    static final String SITE = "/venv/lib/python3.12/site-packages";

    /** A toolkit without cuDNN and an active venv with cuDNN 9.5.1 whose {@code denied} path the user cannot open. */
    private static Host venvDenying(String denied) throws Exception {
        FileSystem raw = TestHosts.unixFs();
        TestHosts.linuxToolkit(raw.getPath(TK), "12.6.0");
        TestHosts.write(raw.getPath("/venv/pyvenv.cfg"), "home = /usr/bin\n");
        cudnn9(raw.getPath(SITE + "/nvidia/cudnn/lib"), "9.5.1", true);
        return TestHosts.linux(DeniedFolders.wrap(raw, denied),
                Map.of("CUDA_PATH", TK, "VIRTUAL_ENV", "/venv", "PATH", "/usr/bin", "USER", "me"), new FakeRunner());
    }

    @Test
    void anUnreadableVenvCudnnFolderIsCudnnUnreadableNotNoneFound() throws Exception {
        Host host = venvDenying(SITE + "/nvidia/cudnn/lib");
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        List<JsonNode> f = ids(doc, "cudnn.unreadable");
        assertEquals(1, f.size(), doc.get("findings").toString());
        assertEquals("error", f.get(0).get("severity").asText());
        assertTrue(f.get(0).get("message").asText().startsWith(SITE + "/nvidia/cudnn/lib cannot be opened by the user me"), f.toString());
        assertEquals("sudo chmod a+rx " + SITE + "/nvidia/cudnn/lib (or run as the user who owns it)", f.get(0).get("fix").asText());
        assertEquals(1, doc.get("exitCode").asInt());
        String text = Cli.run(host, "verify", "--no-probe").out();
        assertTrue(text.contains("verify: 1 problem(s) found (exit 1)"), text);
        assertFalse(text.contains("nothing is broken"), text);
    }

    @Test
    void anUnreadableLibraryBehindAReadableSonameLinkIsCudnnUnreadable() throws Exception {
        Host host = venvDenying(SITE + "/nvidia/cudnn/lib/libcudnn.so.9.5.1");
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        List<JsonNode> f = ids(doc, "cudnn.unreadable");
        assertEquals(1, f.size(), doc.get("findings").toString());
        assertEquals("sudo chmod a+r " + SITE + "/nvidia/cudnn/lib/libcudnn.so.9.5.1", f.get(0).get("fix").asText());
        assertEquals(1, doc.get("exitCode").asInt());
    }

    @Test
    void anIncompleteCondaCopyInTheActiveEnvIsFixedByCondaForThatEnv() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        Path env = fs.getPath("/opt/conda/envs/ml");
        cudnn9(env.resolve("lib"), "9.5.1", false);
        TestHosts.write(env.resolve("conda-meta/cudnn-9.5.1.17-h2b7d5a3_0.json"), "{\"name\":\"cudnn\",\"version\":\"9.5.1.17\","
                + "\"files\":[\"lib/libcudnn.so.9\",\"lib/libcudnn.so.9.5.1\",\"lib/libcudnn_ops.so.9\",\"lib/libcudnn_ops.so.9.5.1\"]}");
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", TK, "CONDA_PREFIX", env.toString(), "PATH", "/usr/bin"), new FakeRunner());
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        assertEquals(1, doc.get("exitCode").asInt(), doc.get("findings").toString());
        JsonNode f = ids(doc, "cudnn.incomplete").get(0);
        assertEquals("error", f.get("severity").asText());
        assertTrue(f.get("fix").asText().endsWith("conda install --force-reinstall -p /opt/conda/envs/ml cudnn=9.5.1.17"), f.toString());
        assertFalse(f.get("fix").asText().contains("cudnn install --"), f.toString());
        String text = Cli.run(host, "verify", "--no-probe").out();
        // the judged copy's error is counted once, not again as "in other cuDNN copies"
        assertTrue(text.contains("verify: 1 problem(s) found (exit 1)"), text);
    }

    @Test
    void theCudnnLineNamesWhereTheCopiesElsewhereAre() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.4"), "12.4.0");
        cudnn9(fs.getPath("/usr/local/cuda-12.4/targets/x86_64-linux/lib"), "9.1.0", true);
        Files.createDirectories(fs.getPath("/opt/conda/conda-meta"));
        cudnn9(fs.getPath("/opt/conda/lib"), "9.5.1", true);
        TestHosts.write(fs.getPath("/venv/pyvenv.cfg"), "home = /usr/bin\n");
        cudnn9(fs.getPath(SITE + "/nvidia/cudnn/lib"), "9.5.1", true);
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", TK, "CONDA_PREFIX", "/opt/conda", "VIRTUAL_ENV", "/venv", "PATH", "/usr/bin"),
                new FakeRunner());
        String text = Cli.run(host, "verify", "--no-probe").out();
        String line = text.lines().filter(l -> l.startsWith("cuDNN     ")).findFirst().orElseThrow();
        assertTrue(line.startsWith("cuDNN     none in the target; 3 copies elsewhere (listed below): "), line);
        assertTrue(line.contains("/usr/local/cuda-12.4 (9.1.0)") && line.contains("conda env /opt/conda (9.5.1)")
                && line.contains("pip env /venv (9.5.1)"), line);
        // nothing anywhere: still "none found"
        Host empty = TestHosts.linux(TestHosts.unixFs(), Map.of("PATH", "/usr/bin"), new FakeRunner());
        TestHosts.linuxToolkit(empty.path(TK), "12.6.0");
        assertTrue(Cli.run(empty, "verify", "--no-probe").out().contains("cuDNN     none found"));
    }
}
