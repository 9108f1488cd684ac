package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #31 item 7: {@code cudnn help}, {@code cudnn help CMD}, and a name that is no command. */
class HelpTopicTest {
    private static Host linux() {
        return TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
    }

    @Test
    void helpAloneListsEveryCommandAndExits0() {
        Cli.Run r = Cli.run(linux(), "help");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        for (String command : CudnnCommand.SUBCOMMANDS.keySet()) {
            assertEquals(1, r.out().lines().filter(l -> l.startsWith("  " + command + " ")).count(), command + " in:\n" + r.out());
        }
        assertEquals(Cli.run(linux(), "--help").out(), r.out(), "the same text as cudnn --help");
    }

    @Test
    void helpCommandIsThatCommandsHelp() {
        for (String command : CudnnCommand.SUBCOMMANDS.keySet()) {
            Cli.Run r = Cli.run(linux(), "help", command);
            Cli.Run direct = Cli.run(linux(), command, "--help");
            assertEquals(0, r.exit(), command + ": " + r.err());
            assertTrue(r.out().startsWith("Usage: cudnn " + command), r.out());
            assertEquals(direct.out(), r.out(), command);
        }
    }

    @Test
    void anUnknownCommandIsAUsageErrorWithASuggestion() {
        Cli.Run r = Cli.run(linux(), "help", "verfy");
        assertEquals(2, r.exit());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("'verfy'") && r.err().contains("did you mean 'cudnn verify'"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void anOptionOrTwoNamesAreAUsageErrorInOneLine() {
        for (String[] args : new String[][] {{"help", "--frob\u001b[2J"}, {"help", "install", "verify"}}) {
            Cli.Run r = Cli.run(linux(), args);
            assertEquals(2, r.exit(), String.join(" ", args));
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("cudnn: error: help takes one command name"), r.err());
            assertFalse(r.err().contains("\u001b"), "no escape reaches the terminal: " + r.err());
        }
    }
}
