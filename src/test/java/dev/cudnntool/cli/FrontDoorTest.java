package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 21 items 1 and 3: {@code cudnn} alone, "did you mean", an unknown option beside a missing one, {@code -v}. */
class FrontDoorTest {
    private static Host linux() {
        return TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
    }

    @Test
    void cudnnAloneListsTheCommandsOneLineEachAndExits2() {
        Cli.Run r = Cli.run(linux());
        assertEquals(2, r.exit());
        for (String command : CudnnCommand.SUBCOMMANDS.keySet()) {
            long lines = r.out().lines().filter(l -> l.startsWith("  " + command + " ")).count();
            assertEquals(1, lines, command + " in:\n" + r.out());
        }
        assertEquals(CudnnCommand.SUBCOMMANDS.size() + 2, r.out().lines().count(), r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("cudnn: error: no command given; fix: "), r.err());
    }

    @Test
    void cudnnAloneWithJsonIsTheUsageErrorListingTheCommands() {
        Cli.Run r = Cli.run(linux(), "--json");
        assertEquals(2, r.exit());
        JsonNode doc = r.json();
        assertEquals("cudnn", doc.get("command").asText());
        assertEquals(2, doc.get("exitCode").asInt());
        assertFalse(doc.get("ok").asBoolean());
        assertEquals("no command given", doc.get("error").get("message").asText());
        List<String> names = new ArrayList<>();
        doc.get("commands").forEach(c -> {
            names.add(c.get("name").asText());
            assertTrue(c.get("summary").asText().endsWith("."), c.toString());
        });
        assertEquals(List.copyOf(CudnnCommand.SUBCOMMANDS.keySet()), names);
    }

    @Test
    void jsonBeforeTheCommandIsRefusedNotLost() {
        Cli.Run r = Cli.run(linux(), "--json", "verify");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("cudnn verify --json"), r.err());
        assertEquals(2, r.json().get("exitCode").asInt());
    }

    @Test
    void aMistypedCommandGetsDidYouMean() {
        Cli.Run r = Cli.run(linux(), "instal", "--archive", "x.zip");
        assertEquals(2, r.exit());
        // picocli ranks the names by likeness: install first, then inspect.
        assertEquals("cudnn: error: Unknown command: 'instal'; fix: did you mean 'cudnn install' or 'cudnn inspect'?"
                + " see 'cudnn --help'", r.err().strip());
        Cli.Run json = Cli.run(linux(), "rolback", "--json");
        assertEquals(2, json.exit());
        assertEquals("Unknown command: 'rolback'", json.json().get("error").get("message").asText());
        assertTrue(json.json().get("error").get("fix").asText().startsWith("did you mean 'cudnn rollback'?"), json.out());
    }

    @Test
    void aMistypedOptionGetsDidYouMean() {
        Cli.Run r = Cli.run(linux(), "releases", "--cud", "12");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("releases: error: Unknown option: '--cud'; fix: did you mean '--cuda"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        Cli.Run json = Cli.run(linux(), "rollback", "--dryrun", "--json");
        assertEquals(2, json.exit());
        assertEquals("Unknown option: '--dryrun'", json.json().get("error").get("message").asText());
        assertEquals("did you mean '--dry-run'? see 'cudnn rollback --help'", json.json().get("error").get("fix").asText());
    }

    @Test
    void anUnknownOptionIsNamedEvenWhenARequiredOneIsMissing() {
        for (String[] args : List.of(new String[] {"install", "--archiv", "x.zip"}, new String[] {"install", "--archiv=x.zip"},
                new String[] {"install", "--archiv", "x.zip", "--json"})) {
            Cli.Run r = Cli.run(linux(), args);
            assertEquals(2, r.exit());
            String err = r.err().strip();
            assertTrue(err.startsWith("install: error: Unknown option: '--archiv"), err);
            // #20 item 5: --archive is no longer required (--release is the other source), so picocli no longer adds
            // "(and missing required option: '--archive=FILE')"; the unknown option is still named first, with the fix.
            assertTrue(err.endsWith("fix: did you mean '--archive'? see 'cudnn install --help'"), err);
        }
        Cli.Run json = Cli.run(linux(), "install", "--json", "--archiv", "x.zip");
        assertEquals("did you mean '--archive'? see 'cudnn install --help'", json.json().get("error").get("fix").asText());
        // Neither source: one line naming both (#20 item 5: --archive or --release).
        Cli.Run missing = Cli.run(linux(), "install");
        assertEquals(2, missing.exit());
        assertEquals("install: error: nothing to install: no --archive or --release; fix: pass --archive FILE (an archive or wheel"
                + " you have) or --release VERSION (fetched for this machine); see 'cudnn install --help'", missing.err().strip());
    }

    @Test
    void dashVIsVerboseOnEveryCommandAndDashCapitalVStillTheVersion() {
        for (String command : CudnnCommand.SUBCOMMANDS.keySet()) {
            Cli.Run help = Cli.run(linux(), command, "--help");
            assertTrue(help.out().contains("-v, --verbose"), command + ":\n" + help.out());
            assertTrue(help.out().contains("-V, --version"), command);
            Cli.Run version = Cli.run(linux(), command, "-V");
            assertTrue(version.out().startsWith("cudnn-tool "), version.out());
        }
        Cli.Run quiet = Cli.run(linux(), "verify", "--expect", "nine");
        Cli.Run verbose = Cli.run(linux(), "verify", "--expect", "nine", "-v");
        assertEquals(2, verbose.exit());
        assertEquals(1, quiet.err().lines().count(), quiet.err());
        assertTrue(verbose.err().lines().count() > 1 && verbose.err().contains("\tat dev.cudnntool."),
                "-v prints the stack trace:\n" + verbose.err());
    }
}
