package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/** Issue 21 item 4: {@code cudnn completion bash|zsh}, and the man pages and scripts the build writes. */
class CompletionAndManPageTest {
    @TempDir
    Path dir;

    private static Host linux() {
        return TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
    }

    /** The words the script completes after {@code cudnn}: every command. */
    private static void namesEveryCommand(String script) {
        for (String command : CudnnCommand.SUBCOMMANDS.keySet()) {
            assertTrue(script.contains("_picocli_cudnn_" + command + "()"), "no completion function for " + command);
        }
        assertTrue(script.contains("--archive") && script.contains("--add-to-path") && script.contains("--expect"), "options");
    }

    @Test
    void bashIsPicocliScriptForTheWholeCommandModel() {
        Cli.Run r = Cli.run(linux(), "completion", "bash");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("#!/usr/bin/env bash\n#\n# cudnn Bash Completion\n"), r.out().substring(0, 200));
        assertTrue(r.out().contains("complete -F _complete_cudnn"), "registers the completion");
        namesEveryCommand(r.out());
        assertEquals("", r.err());
    }

    @Test
    void zshGetsTheBashScriptBehindBashcompinit() {
        Cli.Run r = Cli.run(linux(), "completion", "zsh");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith(CompletionCommand.ZSH_PREAMBLE), r.out().substring(0, 200));
        assertTrue(r.out().contains("bashcompinit") && r.out().contains("# cudnn Bash Completion"));
        namesEveryCommand(r.out());
    }

    @Test
    void withJsonTheScriptIsAField() {
        Cli.Run r = Cli.run(linux(), "completion", "bash", "--json");
        assertEquals(0, r.exit());
        assertEquals("completion", r.json().get("command").asText());
        assertEquals("bash", r.json().get("shell").asText());
        assertEquals(Cli.run(linux(), "completion", "bash").out(), r.json().get("script").asText());
    }

    @Test
    void anotherShellIsAUsageError() {
        Cli.Run r = Cli.run(linux(), "completion", "fish");
        assertEquals(2, r.exit());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("bash, zsh"), r.err());
        assertEquals(2, Cli.run(linux(), "completion").exit());
    }

    @Test
    void theBuildWritesAManPagePerCommandAndTheScripts() throws Exception {
        GenerateDocs.main(new String[] {dir.toString(), "9.9.9"});
        String root = Files.readString(dir.resolve("man/cudnn.adoc"));
        assertTrue(root.contains(":doctype: manpage") && root.contains("= cudnn(1)"), root);
        assertTrue(root.contains("cudnn-tool 9.9.9"), "the version given");
        assertTrue(root.contains("Exit codes: 0 ok"), "the exit codes, from ExitCode");
        for (String command : CudnnCommand.SUBCOMMANDS.keySet()) {
            String page = Files.readString(dir.resolve("man/cudnn-" + command + ".adoc"));
            assertTrue(page.contains("= cudnn-" + command + "(1)"), command);
            assertTrue(page.contains("Examples:"), command + " has its examples");
        }
        assertEquals(Cli.run(linux(), "completion", "bash").out(), Files.readString(dir.resolve("completion/cudnn.bash")));
        assertTrue(Files.readString(dir.resolve("completion/cudnn.zsh")).startsWith(CompletionCommand.ZSH_PREAMBLE));
    }

    @Test
    void theTroffPagesHoldEveryOptionAndGroffReadsThemWithoutAWarning() throws Exception {
        GenerateDocs.main(new String[] {dir.toString(), "9.9.9"});
        CommandLine model = GenerateDocs.model();
        for (String command : CudnnCommand.SUBCOMMANDS.keySet()) {
            Path page = dir.resolve("man/man1/cudnn-" + command + ".1");
            String text = Files.readString(page);
            assertTrue(text.startsWith(".TH \"CUDNN-" + command.toUpperCase(Locale.ROOT) + "\" 1 "), text);
            assertTrue(text.contains("\"cudnn-tool 9.9.9\""), "the version given");
            assertTrue(text.contains(".nh\n"), "identifiers are never hyphenated");
            for (OptionSpec o : model.getSubcommands().get(command).getCommandSpec().options()) {
                if (!o.hidden()) {
                    assertTrue(text.contains("\\fB" + RoffManPages.escape(o.longestName()) + "\\fR"), command + " " + o.longestName());
                }
            }
            assertTrue(text.contains(".SH EXAMPLES\n.nf\n"), command + " has its examples");
            for (String line : text.split("\n")) {
                assertTrue(!line.startsWith(".") || line.matches("\\.(TH|SH|TP|PP|nf|fi|nh|ad) ?.*"), command + ": stray request " + line);
            }
            Path groff = Path.of("/usr/bin/groff");
            if (Files.isExecutable(groff)) {
                Process p = new ProcessBuilder(groff.toString(), "-man", "-Tutf8", "-ww", "-z", page.toString())
                        .redirectErrorStream(true).start();
                String warnings = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(0, p.waitFor());
                assertEquals("", warnings, command);
            }
        }
        String root = Files.readString(dir.resolve("man/man1/cudnn.1"));
        assertTrue(root.contains(".SH COMMANDS") && root.contains(".SH EXIT CODES AND EXAMPLES") && root.contains("\\fBinstall\\fR") && root.contains("Exit codes: 0 ok"), root);
    }
}
