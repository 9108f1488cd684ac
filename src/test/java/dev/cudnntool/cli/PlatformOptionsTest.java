package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/** Issue 29 item 7: --os, --arch and --cuda declared once, in {@link PlatformOptions}, with each command's help text. */
class PlatformOptionsTest {
    private static final Set<String> PLATFORM = Set.of("--os", "--arch", "--cuda");

    private static CommandLine command(String name) {
        ToolContext ctx = new ToolContext(TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner()),
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false);
        return Main.commandLine(ctx, null).getSubcommands().get(name);
    }

    @Test
    void onlyPlatformOptionsDeclaresTheThreeAmongTheCommandsThatTakeAllThree() {
        List<String> declared = new ArrayList<>();
        for (Class<?> c : List.of(ReleasesCommand.class, FetchCommand.class, PlatformOptions.class)) {
            for (Field f : c.getDeclaredFields()) {
                Option o = f.getAnnotation(Option.class);
                if (o != null && PLATFORM.contains(o.names()[0])) {
                    declared.add(c.getSimpleName() + "." + f.getName());
                }
            }
        }
        assertEquals(List.of("PlatformOptions.os", "PlatformOptions.arch", "PlatformOptions.cuda"), declared);
        for (String name : List.of("releases", "fetch")) {
            for (String option : PLATFORM) {
                OptionSpec spec = command(name).getCommandSpec().findOption(option);
                assertTrue(spec != null && spec.userObject() instanceof Field f && f.getDeclaringClass() == PlatformOptions.class,
                        name + " " + option + " comes from the mixin");
            }
        }
    }

    @Test
    void eachCommandKeepsItsOwnWordingWhereItHadOne() {
        assertEquals("linux, windows or osx (default: this machine's).", description("releases", "--os"));
        assertEquals("linux or windows (default: this machine's).", description("fetch", "--os"));
        assertEquals("The CUDA build: 12 or 12.4 (default: the toolkit's major, else the newest).", description("fetch", "--cuda"));
        assertTrue(description("releases", "--cuda").startsWith("Only archives for this CUDA version"));
        assertEquals(description("releases", "--arch"), description("fetch", "--arch"));
    }

    @Test
    void aBadValueIsRefusedAsBeforeByTheOneParser() {
        PlatformOptions p = new PlatformOptions();
        p.os = "solaris";
        ToolException e = assertThrows(ToolException.class,
                () -> p.filter(TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner())));
        assertEquals(ExitCode.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("--os"), e.getMessage());
    }

    private static String description(String command, String option) {
        return String.join(" ", command(command).getCommandSpec().findOption(option).description());
    }
}
