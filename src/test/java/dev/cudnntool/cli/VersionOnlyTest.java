package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * #31 item 5: a command line of only {@code --version} (or {@code -V}) is answered without building
 * picocli's command model, and prints exactly what the whole model prints.
 */
class VersionOnlyTest {
    private static String wholeModel(Host host, String... arg) {
        StringWriter out = new StringWriter();
        ToolContext ctx = new ToolContext(host, new PrintWriter(out), new PrintWriter(new StringWriter()), false);
        int code = Main.commandLine(ctx, null).execute(arg);
        assertEquals(0, code);
        return out.toString();
    }

    @Test
    void versionAloneSkipsTheSubcommandsAndPrintsTheSameLines() {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        for (String arg : new String[] {"--version", "-V"}) {
            Cli.Run fast = Cli.run(host, arg);
            assertEquals(0, fast.exit(), fast.err());
            assertEquals(wholeModel(host, arg), fast.out(), arg);
            assertTrue(fast.out().startsWith("cudnn-tool " + VersionProvider.version() + System.lineSeparator()
                    + "Java " + System.getProperty("java.version")), fast.out());
        }
    }

    @Test
    void versionWithAnythingElseKeepsTheWholeModel() {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Cli.Run sub = Cli.run(host, "verify", "--version");
        assertEquals(0, sub.exit(), sub.err());
        assertTrue(sub.out().startsWith("cudnn-tool "), sub.out());
        Cli.Run twice = Cli.run(host, "--version", "--version");
        assertEquals(2, twice.exit(), "any other command line is still picocli's: an option given twice is a usage error");
    }
}
