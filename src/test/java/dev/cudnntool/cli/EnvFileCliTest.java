package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.host.Host;
import dev.cudnntool.install.EnvFile;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #31 item 3: install --env-file FILE appends KEY=VALUE lines after a successful install, and only then. */
class EnvFileCliTest {

    @Test
    void linuxPrefixInstallAppendsTheLinesAfterWhatTheFileHeld() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of("LD_LIBRARY_PATH", "/usr/lib/wsl/lib"), new FakeRunner());
        Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(CliTest.downloads(host));
        Path env = host.path("/home/me/github_env");
        Files.writeString(env, "EARLIER=1\n");
        Cli.Run r = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "/opt/cudnn", "--no-probe",
                "--env-file", env.toString(), "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals("install", r.json().get("command").asText(), "the JSON document is the only thing on stdout");
        List<String> lines = Files.readAllLines(env);
        assertEquals(List.of("EARLIER=1",
                "CUDNN_PATH=/opt/cudnn",
                "CUDNN_ROOT_DIR=/opt/cudnn",
                "CUDNN_RUNTIME_DIR=/opt/cudnn/lib",
                "CUDNN_INCLUDE_DIR=/opt/cudnn/include",
                "CUDNN_LIBRARY=/opt/cudnn/lib/libcudnn.so",
                "LD_LIBRARY_PATH=/opt/cudnn/lib:/usr/lib/wsl/lib"), lines);
        assertTrue(Files.exists(host.path("/opt/cudnn/lib/libcudnn.so")), "CUDNN_LIBRARY names a file that is there");

        // a second run changes nothing, and still writes the lines (the Action's cache hit needs them)
        Cli.Run again = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "/opt/cudnn", "--no-probe",
                "--env-file", env.toString());
        assertEquals(0, again.exit(), again.out() + again.err());
        assertTrue(again.out().contains("env file: 6 lines appended to /home/me/github_env (CUDNN_PATH, CUDNN_ROOT_DIR,"), again.out());
        assertEquals(13, Files.readAllLines(env).size());
    }

    @Test
    void windowsPrefixPutsTheBinFolderFirstOnPath() throws Exception {
        Host host = CliTest.windowsMachine();
        Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(CliTest.downloads(host));
        Path env = host.path("C:\\a\\env.txt");
        Files.createDirectories(env.getParent());
        Cli.Run r = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "C:\\cudnn", "--no-probe",
                "--env-file", env.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        List<String> lines = Files.readAllLines(env);
        assertTrue(lines.contains("CUDNN_PATH=C:\\cudnn"), lines.toString());
        assertTrue(lines.contains("CUDNN_INCLUDE_DIR=C:\\cudnn\\include"), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.matches("CUDNN_LIBRARY=C:\\\\cudnn\\\\lib\\\\(x64\\\\)?cudnn\\.lib")), lines.toString());
        String path = lines.stream().filter(l -> l.startsWith("PATH=")).findFirst().orElseThrow();
        assertTrue(path.startsWith("PATH=C:\\cudnn\\bin"), path);
        assertTrue(path.endsWith(";" + CliTest.TK + "\\bin;C:\\Windows\\System32"), path);
        assertFalse(lines.stream().anyMatch(l -> l.startsWith("LD_LIBRARY_PATH=")), lines.toString());
    }

    @Test
    void aDryRunOrAFailedInstallWritesNothing() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(CliTest.downloads(host));
        Path env = host.path("/home/me/env");
        Files.createDirectories(env.getParent());
        Cli.Run dry = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "/opt/cudnn", "--dry-run",
                "--env-file", env.toString());
        assertEquals(0, dry.exit(), dry.out() + dry.err());
        assertFalse(Files.exists(env), "a dry run writes no env file");
        Files.write(archive, new byte[] {'n', 'o'}); // damaged: exit 3
        Cli.Run bad = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "/opt/cudnn", "--no-probe",
                "--env-file", env.toString());
        assertEquals(3, bad.exit(), bad.out() + bad.err());
        assertFalse(Files.exists(env), "a failed install writes no env file");
    }

    @Test
    void aFolderAMissingFolderOrALineBreakIsAUsageErrorBeforeAnythingChanges() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of("LD_LIBRARY_PATH", "/a\nINJECTED=1"), new FakeRunner());
        Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(CliTest.downloads(host));
        Cli.Run folder = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "/opt/cudnn",
                "--env-file", CliTest.downloads(host).toString());
        assertEquals(2, folder.exit(), folder.err());
        assertTrue(folder.err().contains("is a folder"), folder.err());
        Cli.Run nowhere = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "/opt/cudnn",
                "--env-file", "/no/such/folder/env");
        assertEquals(2, nowhere.exit(), nowhere.err());
        assertTrue(nowhere.err().contains("its folder does not exist"), nowhere.err());
        Path env = host.path("/home/me/env");
        Files.createDirectories(env.getParent());
        Cli.Run injected = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "/opt/cudnn",
                "--env-file", env.toString());
        assertEquals(2, injected.exit(), injected.err());
        assertEquals(1, injected.err().strip().lines().count(), injected.err());
        assertTrue(injected.err().contains("LD_LIBRARY_PATH would hold a control character"), injected.err());
        assertFalse(Files.exists(host.path("/opt/cudnn")), "nothing was installed");
        assertFalse(Files.exists(env));
    }

    @Test
    void aFifoOrDeviceIsRefusedNeverOpened() throws Exception {
        Path dir = Files.createTempDirectory("envfile");
        try {
            Path fifo = dir.resolve("env");
            Process p = new ProcessBuilder("/usr/bin/mkfifo", fifo.toString()).redirectErrorStream(true).start();
            assumeTrue(p.waitFor() == 0 && Files.exists(fifo), "mkfifo");
            Host real = TestHosts.linux(FileSystems.getDefault(), Map.of(), new FakeRunner());
            for (Path named : List.of(fifo, Path.of("/dev/null"))) {
                ToolException e = assertThrows(ToolException.class, () -> EnvFile.check(real, named)); // returns: never opened
                assertEquals(ExitCode.USAGE, e.exitCode());
                assertTrue(e.getMessage().contains("is not a regular file"), e.getMessage());
            }
        } finally {
            try (var s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }
}
