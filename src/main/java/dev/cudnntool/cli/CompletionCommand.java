package dev.cudnntool.cli;

import dev.cudnntool.cli.view.Json;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code cudnn completion bash|zsh}: picocli's completion script, generated from the same command
 * model as the help ({@link Main#commandLine}). zsh runs the bash script through bashcompinit.
 */
@Command(name = "completion", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Prints the shell completion script for bash or zsh.",
                "It completes the commands and their options; load it from the shell's start-up file."},
        footerHeading = "%nExamples:%n",
        footer = {"  Complete cudnn in every new bash (zsh: ~/.zshrc and 'completion zsh'):",
                "    echo 'source <(cudnn completion bash)' >> ~/.bashrc",
                "  Install it for every user of a Linux machine (as root):",
                "    cudnn completion bash > /etc/bash_completion.d/cudnn"})
public class CompletionCommand implements Callable<Integer> {
    /** The shells with a script. */
    enum Shell { bash, zsh }

    /** What zsh needs before a bash completion script: its completion system and the bash emulation. */
    static final String ZSH_PREAMBLE = "#compdef cudnn\n"
            + "# cudnn completion for zsh: picocli's bash script, run through zsh's bashcompinit.\n"
            + "autoload -U +X compinit && compinit\n"
            + "autoload -U +X bashcompinit && bashcompinit\n";

    private final ToolContext ctx;

    @Parameters(paramLabel = "bash|zsh", description = "The shell: bash or zsh.")
    Shell shell;

    @Mixin
    OutputOptions output;

    public CompletionCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String script = script(shell, Main.commandLine(ctx, null));
        if (output.json) {
            var doc = Json.document("completion", 0);
            doc.put("shell", shell.name());
            doc.put("script", script);
            Json.print(ctx.out(), doc);
        } else {
            ctx.out().print(script);
            ctx.out().flush();
        }
        return 0;
    }

    /** The completion script for {@code shell} from the command model {@code root}. */
    static String script(Shell shell, CommandLine root) {
        String bash = AutoComplete.bash("cudnn", root);
        return shell == Shell.zsh ? ZSH_PREAMBLE + bash : bash;
    }
}
