package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line as a user and a script see it: exit codes, one-line errors, JSON shapes. */
class CliTest {
    static final String TK = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2";

    @TempDir
    Path dir;

    static Host windowsMachine() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Path tk = TestHosts.toolkit(fs.getPath(TK), "12.2.20230823");
        Files.write(tk.resolve("bin").resolve("zlibwapi.dll"), PeImages.dll(PeImages.X64, "1.2.3.0"));
        Files.createDirectories(fs.getPath("C:\\Windows\\System32"));
        Files.writeString(fs.getPath("C:\\Windows\\System32\\nvidia-smi.exe"), "MZ");
        Files.write(fs.getPath("C:\\Windows\\System32\\nvcuda.dll"), PeImages.dll(PeImages.X64, "32.0.15.6094")); // the driver's CUDA library
        FakeRunner smi = new FakeRunner().on("nvidia-smi.exe", NvidiaSmiOutputs.WINDOWS)
                .on("--query-gpu=name,driver_version --format=csv,noheader", "NVIDIA GeForce RTX 4090, 536.25\n");
        return TestHosts.windows(fs, Map.of("CUDA_PATH", TK, "PATH", TK + "\\bin;C:\\Windows\\System32",
                "SystemRoot", "C:\\Windows"), smi);
    }

    /** The user's download folder on the host's own file system. */
    static Path downloads(Host host) throws Exception {
        Path d = host.windows() ? host.path("C:\\Users\\me\\Downloads") : host.path("/home/me/Downloads");
        Files.createDirectories(d);
        return d;
    }

    @Test
    void helpAndVersionOnEveryCommand() {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        for (String cmd : List.of("install", "verify", "rollback", "inspect")) {
            Cli.Run help = Cli.run(host, cmd, "--help");
            assertEquals(0, help.exit(), cmd);
            assertTrue(help.out().contains("Usage: cudnn " + cmd), help.out());
            assertTrue(help.out().contains("--json"), cmd + " documents --json");
            Cli.Run version = Cli.run(host, cmd, "--version");
            assertEquals(0, version.exit());
            assertTrue(version.out().startsWith("cudnn-tool "), version.out());
        }
        Cli.Run root = Cli.run(host, "--help");
        assertTrue(root.out().contains("Exit codes: 0 ok"), root.out());
    }

    /** Issue 20 item 6: a missing file is exit 2 whatever its name; a wheel or an installer is told apart (exit 3). */
    @Test
    void aMissingFileIsExit2AndCudnnInAnotherFormIsNamed() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Cli.Run missing = Cli.run(host, "install", "--archive", "/nowhere/TensorRT-10.0.1.6.Linux.x86_64-gnu.cuda-12.4.tar.gz", "--json");
        assertEquals(2, missing.exit(), missing.out());
        assertEquals(2, missing.json().get("exitCode").asInt());
        assertTrue(missing.json().get("error").get("message").asText().endsWith("does not exist"), missing.out());
        Path wheel = downloads(host).resolve("torch-2.5.1-cp311-cp311-manylinux1_x86_64.whl");
        Files.write(wheel, new byte[] {'P', 'K'});
        Cli.Run w = Cli.run(host, "inspect", wheel.toString(), "--json");
        assertEquals(3, w.exit(), w.out());
        assertTrue(w.json().get("error").get("fix").asText().contains("install it with pip"), w.out());
        // item 7: NVIDIA's own cuDNN wheel is a source now; two bytes are not a zip: damaged, exit 3
        Path cudnnWheel = downloads(host).resolve("nvidia_cudnn_cu12-9.5.1.17-py3-none-manylinux2014_x86_64.whl");
        Files.write(cudnnWheel, new byte[] {'P', 'K'});
        Cli.Run cw = Cli.run(host, "inspect", cudnnWheel.toString(), "--json");
        assertEquals(3, cw.exit(), cw.out());
        assertTrue(cw.json().get("error").get("message").asText().contains("is damaged"), cw.out());
        Cli.Run folder = Cli.run(host, "install", "--archive", downloads(host).toString());
        assertEquals(2, folder.exit(), folder.err());
        assertTrue(folder.err().contains("is a folder, not an archive"), folder.err());
    }

    @Test
    void badUsageIsOneLineWithExit2AndNoStackTrace() {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Cli.Run r = Cli.run(host, "install", "--archive");
        assertEquals(2, r.exit());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("error:") && r.err().contains("fix: see 'cudnn install --help'"), r.err());
        assertEquals(2, Cli.run(host, "verify", "--bogus").exit());
        Cli.Run both = Cli.run(host, "install", "--archive", "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz", "--cuda-path", "/a", "--prefix", "/b");
        assertEquals(2, both.exit(), both.err());
        assertTrue(both.err().contains("--cuda-path and --prefix"), both.err());
        assertEquals(2, Cli.run(host, "verify", "--expect", "nine").exit());
    }

    @Test
    void aBadArchiveNameIsExit3WithPatternAndExampleAndATraceOnlyWhenVerbose() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Files.write(host.path("cudnn.zip").toAbsolutePath(), new byte[] {'P', 'K'}); // it exists: its name is what is wrong
        Cli.Run r = Cli.run(host, "inspect", "cudnn.zip");
        assertEquals(3, r.exit());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace without --verbose");
        Cli.Run verbose = Cli.run(host, "inspect", "cudnn.zip", "--verbose");
        assertTrue(verbose.err().contains("\tat dev.cudnntool"), verbose.err());
        Cli.Run json = Cli.run(host, "install", "--archive", "cudnn.zip", "--json");
        assertEquals(3, json.exit());
        assertEquals(3, json.json().get("exitCode").asInt());
        assertFalse(json.json().get("ok").asBoolean());
        assertTrue(json.json().get("error").get("message").asText().contains("not a cuDNN archive name"));
    }

    @Test
    void inspectJsonHasTheDocumentedShape() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Path a = ArchiveFixture.windows("8.9.5.30", "12").writeTo(downloads(host));
        Cli.Run r = Cli.run(host, "inspect", a.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode j = r.json();
        assertEquals("inspect", j.get("command").asText());
        assertEquals(1, j.get("schemaVersion").asInt());
        JsonNode archive = j.get("archive");
        assertEquals("8.9.5.30", archive.get("version").asText());
        assertEquals(8, archive.get("major").asInt());
        assertEquals("windows", archive.get("os").asText());
        assertEquals("x86_64", archive.get("arch").asText());
        assertEquals("12", archive.get("cudaVariant").asText());
        assertEquals("zip", archive.get("format").asText());
        assertEquals("modern", archive.get("scheme").asText());
        assertEquals(64, archive.get("sha256").asText().length());
        assertEquals("8.9.5", j.get("evidence").get("headerVersion").asText());
        assertEquals(7, j.get("evidence").get("libraries").size());
        JsonNode f = j.get("findings").get(0);
        assertTrue(f.has("id") && f.has("severity") && f.has("message") && f.has("fix"), f.toString());
        assertEquals(31, j.get("entries").size());
        Cli.Run human = Cli.run(host, "inspect", a.toString());
        assertTrue(human.out().contains("7 runtime libraries, 9 headers, 14 import libraries"), human.out());
        assertTrue(human.out().contains("archive is complete and consistent"), human.out());
    }

    @Test
    void inspectRejectsWithExit3AndNamesWhatIsMissing() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Path a = ArchiveFixture.windows("8.9.5.30", "12").remove("cudnn_ops_train64_8.dll").writeTo(downloads(host));
        Cli.Run r = Cli.run(host, "inspect", a.toString());
        assertEquals(3, r.exit());
        assertTrue(r.out().contains("ERROR archive.incomplete") && r.out().contains("cudnn_ops_train64_8.dll"), r.out());
        Cli.Run bad = Cli.run(host, "inspect", a.toString(), "--sha256", "0".repeat(64), "--json");
        assertEquals(3, bad.exit());
    }

    @Test
    void dryRunJsonShowsThePlanAndChangesNothing() throws Exception {
        Host host = windowsMachine();
        Map<String, String> before = TreeSnapshot.of(host.path(TK));
        Path a = ArchiveFixture.windows("8.9.5.30", "12").writeTo(downloads(host));
        Cli.Run r = Cli.run(host, "install", "--archive", a.toString(), "--dry-run", "--cuda-path", TK, "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode j = r.json();
        assertTrue(j.get("dryRun").asBoolean());
        JsonNode plan = j.get("plan");
        assertEquals(30, plan.size());
        JsonNode step = plan.get(0);
        assertTrue(step.has("source") && step.has("destination") && step.has("action"), step.toString());
        boolean dll = false;
        for (JsonNode s : plan) {
            if (s.get("source").asText().equals("bin/cudnn64_8.dll")) {
                assertEquals(TK + "\\bin\\cudnn64_8.dll", s.get("destination").asText());
                assertEquals("add", s.get("action").asText());
                dll = true;
            }
        }
        assertTrue(dll);
        assertEquals("536.25", j.get("driver").get("driverVersion").asText());
        assertEquals("12.2", j.get("toolkit").get("version").asText());
        assertEquals(before, TreeSnapshot.of(host.path(TK)));
        Cli.Run human = Cli.run(host, "install", "--archive", a.toString(), "--dry-run");
        assertTrue(human.out().contains("plan      30 to add"), human.out());
        assertTrue(human.out().contains("nothing was changed"), human.out());
    }

    @Test
    void installThenRollbackThroughTheCommandLine() throws Exception {
        Host host = windowsMachine();
        Map<String, String> before = TreeSnapshot.of(host.path(TK));
        Path a = ArchiveFixture.windows("9.1.0.70", "12").writeTo(downloads(host));
        Cli.Run install = Cli.run(host, "install", "--archive", a.toString(), "--no-probe");
        assertEquals(0, install.exit(), install.out() + install.err());
        assertTrue(install.out().contains("installed cuDNN 9.1.0.70 into " + TK), install.out());
        Cli.Run list = Cli.run(host, "rollback", "--list", "--json");
        assertEquals(1, list.json().get("installs").size());
        assertEquals("9.1.0.70", list.json().get("installs").get(0).get("version").asText());
        Cli.Run verify = Cli.run(host, "verify", "--no-probe", "--expect", "9.1.0", "--json");
        assertEquals(0, verify.exit(), verify.out());
        assertEquals("9.1.0", verify.json().get("cudnn").get("headerVersion").asText());
        Cli.Run rb = Cli.run(host, "rollback", "--json");
        assertEquals(0, rb.exit(), rb.out() + rb.err());
        assertEquals(before, TreeSnapshot.of(host.path(TK)));
        Cli.Run again = Cli.run(host, "rollback");
        assertEquals(8, again.exit());
        assertTrue(again.err().contains("nothing to roll back"), again.err());
    }

    @Test
    void aTerminalGetsAProgressBarOnStandardErrorAndJsonNever() throws Exception {
        Host host = windowsMachine();
        Path a = ArchiveFixture.windows("9.1.0.70", "12").writeTo(downloads(host));
        Cli.Run r = Cli.on(host).onTerminal().run("install", "--archive", a.toString(), "--no-probe", "--dry-run");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("reading [") && r.err().contains("files"), r.err());
        Cli.Run json = Cli.on(host).onTerminal().run("install", "--archive", a.toString(), "--no-probe", "--dry-run", "--json");
        assertEquals("", json.err(), "no progress bar with --json");
    }

    @Test
    void verifyOnABareMachineSaysSoPlainlyAndExits0() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of("PATH", "/usr/bin"), new FakeRunner());
        Cli.Run r = Cli.run(host, "verify");
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("driver    none found"), r.out());
        assertTrue(r.out().contains("toolkit   none found"), r.out());
        assertTrue(r.out().contains("driver.missing"), r.out());
        assertTrue(r.out().contains("verify: no CUDA toolkit and no cuDNN on this machine"), r.out());
        Cli.Run expect = Cli.run(host, "verify", "--expect", "9.5.1", "--json");
        assertEquals(1, expect.exit());
        assertEquals("toolkit.missing", expect.json().get("findings").get(1).get("id").asText());
    }
}
