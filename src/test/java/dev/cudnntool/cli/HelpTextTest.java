package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine;

/**
 * Issue 21 item 2: help that teaches. Every command's help ends with examples, the command list's
 * summaries are whole sentences on one line, and no line of any help breaks inside a path or an
 * identifier: every word of the help's source that holds a {@code / . - _ < > =} is found unbroken
 * in the printed help.
 */
class HelpTextTest {
    /** A word of the source text that wrapping could cut: it holds a character picocli may break after. */
    private static final Pattern TOKEN = Pattern.compile("[^\\s]*[/.\\-_<>=][^\\s]*");

    private static Host linux() {
        return TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
    }

    /** Every command of the model, root first, by the words that run it. */
    private static Map<String, CommandLine> commands() {
        ToolContext ctx = new ToolContext(linux(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), false);
        CommandLine root = Main.commandLine(ctx, null);
        Map<String, CommandLine> all = new LinkedHashMap<>();
        all.put("", root);
        root.getSubcommands().forEach(all::put);
        return all;
    }

    private static String help(String command) {
        Cli.Run r = command.isEmpty() ? Cli.run(linux(), "--help") : Cli.run(linux(), command, "--help");
        assertEquals(0, r.exit(), command + r.err());
        return r.out().replace("\r\n", "\n");
    }

    /** The texts the help is made of, as written in the source (before any wrapping). */
    private static List<String> sources(CommandSpec spec) {
        List<String> texts = new ArrayList<>(List.of(spec.usageMessage().description()));
        texts.addAll(List.of(spec.usageMessage().footer()));
        for (OptionSpec o : spec.options()) {
            texts.addAll(List.of(o.description()));
            if (o.arity().max() > 0) {
                texts.add(o.paramLabel());
            }
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            texts.addAll(List.of(p.description()));
        }
        return texts;
    }

    @Test
    void noHelpLineBreaksInsideAPathOrIdentifier() {
        int checked = 0;
        for (var e : commands().entrySet()) {
            String help = help(e.getKey());
            for (String text : sources(e.getValue().getCommandSpec())) {
                Matcher m = TOKEN.matcher(text);
                while (m.find()) {
                    String token = m.group().replaceAll("^[('\"]+|[)'\",;:.]+$", "");
                    assertTrue(help.contains(token), "'" + token + "' is broken across lines in the help of 'cudnn "
                            + e.getKey() + "':\n" + help);
                    checked++;
                }
            }
            for (String line : help.split("\n")) {
                assertTrue(line.length() <= Main.USAGE_WIDTH, "wider than " + Main.USAGE_WIDTH + ": " + line);
            }
        }
        assertTrue(checked > 50, "only " + checked + " words checked");
        assertTrue(help("install").contains("/etc/ld.so.conf.d/cudnn-tool-<id>.conf"), help("install"));
        assertTrue(help("install").contains("toolkit.cuda-major-mismatch"), help("install"));
    }

    @Test
    void everyCommandsHelpEndsWithExamples() {
        for (String command : commands().keySet()) {
            String help = help(command);
            int at = help.lastIndexOf("\nExamples:\n");
            assertTrue(at > 0, "no examples in the help of 'cudnn " + command + "'");
            List<String> runs = help.substring(at).lines().filter(l -> l.startsWith("    ") && l.contains("cudnn ")).toList();
            assertTrue(runs.size() >= 2, command + ": " + runs);
            assertFalse(help.substring(at).contains("Exit codes"), "the examples come last");
        }
    }

    @Test
    void theCommandListGivesEachCommandAWholeSentenceOnOneLine() {
        String root = help("");
        for (var e : commands().entrySet()) {
            if (e.getKey().isEmpty()) {
                continue;
            }
            String summary = CudnnCommand.summary(e.getValue());
            assertTrue(summary.endsWith(".") && Character.isUpperCase(summary.charAt(0)), summary);
            assertTrue(root.lines().anyMatch(l -> l.startsWith("  " + e.getKey() + " ") && l.endsWith(summary)),
                    "'" + summary + "' is not on one line of:\n" + root);
        }
    }

    @Test
    void theExitCodeListIsGeneratedFromExitCode() {
        String root = help("").replaceAll("\\s+", " ");
        for (ExitCode c : ExitCode.values()) {
            assertTrue(root.contains(c.code() + " " + c.summary()), c + " missing from:\n" + root);
        }
    }
}
