package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** install --add-to-path as a user types it: the option's forms, the dry run's line, a bad value. */
class AddToPathCliTest {

    static JsonNode finding(JsonNode doc, String id) {
        for (JsonNode f : doc.get("findings")) {
            if (f.get("id").asText().equals(id)) {
                return f;
            }
        }
        throw new AssertionError(id + " not in " + doc.get("findings"));
    }

    @Test
    void linuxDryRunNamesTheConfFileAndChangesNothing() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(CliTest.downloads(host));
        Cli.Run r = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "/opt/cudnn",
                "--add-to-path", "--dry-run", "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        String msg = finding(r.json(), "install.add-to-path").get("message").asText();
        assertTrue(msg.startsWith("would add /opt/cudnn/lib to the loader's search path (/etc/ld.so.conf.d/cudnn-tool-"), msg);
        assertFalse(Files.exists(host.path("/etc/ld.so.conf.d")));
    }

    @Test
    void linuxInstallWritesTheConfFileAndRunsLdconfig() throws Exception {
        FakeRunner runner = new FakeRunner().on("ldconfig", FakeRunner.ok(""));
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), runner);
        Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(CliTest.downloads(host));
        Cli.Run r = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "/opt/cudnn",
                "--add-to-path=machine", "--no-probe", "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        String id = r.json().get("installId").asText();
        assertEquals("/opt/cudnn/lib\n", Files.readString(host.path("/etc/ld.so.conf.d/cudnn-tool-" + id + ".conf")));
        Cli.Run back = Cli.run(host, "rollback", "--prefix", "/opt/cudnn");
        assertEquals(0, back.exit(), back.out() + back.err());
        assertTrue(back.out().contains("search path: removed /etc/ld.so.conf.d/cudnn-tool-" + id + ".conf and ran ldconfig"), back.out());
        assertFalse(Files.exists(host.path("/etc/ld.so.conf.d/cudnn-tool-" + id + ".conf")));
    }

    @Test
    void anUnknownScopeIsAUsageError() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(CliTest.downloads(host));
        Cli.Run r = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "/opt/cudnn",
                "--add-to-path=system", "--dry-run");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().startsWith("install: error: --add-to-path=system is not a search path; fix:"), r.err());
    }

    @Test
    void aDryRunThatWouldStopForWantOfRightsExitsFiveAndSaysWhy() throws Exception {
        Host host = CliTest.windowsMachine(); // a test's file system: no registry that could be written
        Path archive = ArchiveFixture.windows("9.5.1.17", "12").writeTo(CliTest.downloads(host));
        Cli.Run r = Cli.run(host, "install", "--archive", archive.toString(), "--prefix", "C:\\cudnn",
                "--add-to-path", "--dry-run", "--json");
        assertEquals(5, r.exit(), r.out() + r.err());
        assertEquals(5, r.json().get("exitCode").asInt());
        assertTrue(finding(r.json(), "install.add-to-path").get("message").asText().startsWith("would add C:\\cudnn\\bin to the user PATH"));
        assertTrue(finding(r.json(), "install.target-not-writable").get("message").asText().contains("--add-to-path"));
    }

    /** #18 A1: a target ldconfig would read as another folder is refused, dry run or not, before anything changes. */
    @Test
    void aTargetPathLdconfigWouldCutShortIsAUsageErrorAndNothingChanges() throws Exception {
        for (String prefix : List.of("/opt/x#y/cuda", "/opt/x=y", "/opt/x\ny", "/opt/cudnn ", "/opt/\ufffd")) {
            for (boolean dry : new boolean[] {true, false}) {
                FakeRunner runner = new FakeRunner().on("ldconfig", FakeRunner.ok(""));
                Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), runner);
                Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(CliTest.downloads(host));
                Files.createDirectories(host.path("/etc/ld.so.conf.d"));
                var etc = TreeSnapshot.of(host.path("/etc"));
                List<String> args = new ArrayList<>(List.of("install", "--archive", archive.toString(),
                        "--prefix", prefix, "--add-to-path", "--no-probe"));
                if (dry) {
                    args.add("--dry-run");
                }
                Cli.Run r = Cli.run(host, args.toArray(String[]::new));
                String what = prefix + (dry ? " (dry run)" : "");
                assertEquals(2, r.exit(), what + ": " + r.out() + r.err());
                assertEquals(1, r.err().strip().split("\n").length, "one line: " + r.err());
                // control characters and undecodable bytes are refused earlier, by the option itself (also exit 2, one line)
                boolean early = prefix.contains("\n") || prefix.contains("\ufffd");
                assertTrue(r.err().contains(early ? "fix:" : "use a plain path"), r.err());
                assertEquals(etc, TreeSnapshot.of(host.path("/etc")), what);
                assertFalse(Files.exists(host.path("/opt")) && Files.list(host.path("/opt")).findAny().isPresent(), what + ": nothing installed");
                assertTrue(runner.calls.stream().noneMatch(c -> c.get(0).endsWith("ldconfig")), what);
                Cli.Run json = Cli.run(host, concat(args, "--json"));
                assertEquals(2, json.exit());
                assertTrue(json.out().contains(early ? "\"fix\"" : "use a plain path"), json.out());
            }
        }
    }

    private static String[] concat(List<String> args, String more) {
        List<String> all = new ArrayList<>(args);
        all.add(more);
        return all.toArray(String[]::new);
    }
}
