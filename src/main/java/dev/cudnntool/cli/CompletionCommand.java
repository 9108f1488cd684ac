package dev.cudnntool.cli;

import dev.cudnntool.cli.view.CompletionView;


import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.OptionSpec;
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
        return CompletionView.show(ctx.out(), output.json, shell.name(), script);
    }

    /** The completion script for {@code shell} from the command model {@code root}. */
    static String script(Shell shell, CommandLine root) {
        String bash = AutoComplete.bash("cudnn", root) + values(root);
        return shell == Shell.zsh ? ZSH_PREAMBLE + bash : bash;
    }

    /** Options whose value is a file (#31 item 6). */
    static final Set<String> FILE_OPTIONS = Set.of("--archive", "--manifest", "--env-file");
    /** Options whose value is a folder. */
    static final Set<String> FOLDER_OPTIONS = Set.of("--prefix", "--cuda-path", "--to", "--from");
    /** Commands whose positional parameter is a file. */
    static final Set<String> FILE_POSITIONAL = Set.of("inspect");
    /** Options with a few values, per command ("*" for any command that has the option); a value ending in "==" wants more. */
    static final Map<String, Map<String, String>> VALUES = Map.of(
            "--os", Map.of("releases", "linux windows osx", "*", "linux windows"),
            "--arch", Map.of("*", "x86_64 sbsa aarch64 ppc64le arm64"),
            "--cuda", Map.of("*", "11 12 13"),
            "--for", Map.of("releases", "torch== tensorflow== onnxruntime-gpu== jax==",
                    "*", "torch tensorflow onnxruntime-gpu jax paddlepaddle-gpu"));

    /**
     * What picocli's script leaves out (it completes only commands and option names): files, folders
     * and values for the options that take them, from the same command model, in a function that
     * runs first and hands over to picocli's {@code _complete_cudnn} otherwise. Registered with
     * {@code -o default}, so any other word falls back to bash's own file completion.
     */
    static String values(CommandLine root) {
        StringBuilder cases = new StringBuilder();
        StringBuilder positional = new StringBuilder();
        for (Map.Entry<String, CommandLine> sub : new TreeMap<>(root.getSubcommands()).entrySet()) {
            String cmd = sub.getKey();
            List<String> valued = new ArrayList<>();
            for (OptionSpec o : sub.getValue().getCommandSpec().options()) {
                if (o.arity().max() == 0) {
                    continue;
                }
                for (String name : o.names()) {
                    valued.add(name);
                    String action = null;
                    if (FILE_OPTIONS.contains(name)) {
                        action = "_cudnn_reply_files";
                    } else if (FOLDER_OPTIONS.contains(name)) {
                        action = "_cudnn_reply_folders";
                    } else if (VALUES.containsKey(name)) {
                        Map<String, String> v = VALUES.get(name);
                        action = "_cudnn_reply_words '" + v.getOrDefault(cmd, v.get("*")) + "'";
                    }
                    if (action != null) {
                        cases.append("    '").append(cmd).append(' ').append(name).append("') ").append(action).append("; return 0 ;;\n");
                    }
                }
            }
            if (FILE_POSITIONAL.contains(cmd) && !sub.getValue().getCommandSpec().positionalParameters().isEmpty()) {
                positional.append("  if [[ $cmd == ").append(cmd).append(" && $cur != -* ]]; then\n")
                        .append("    case $prev in ").append(valued.isEmpty() ? "''" : String.join("|", valued))
                        .append(") return 1 ;; esac\n")
                        .append("    _cudnn_reply_files; return 0\n  fi\n");
            }
        }
        return "\n# cudnn-tool: files, folders and values for the options that take them (#31 item 6); then picocli's\n"
                + "# completion of commands and option names. Works in bash and in zsh's bashcompinit.\n"
                + "function _cudnn_reply_files() {\n"
                + "  type compopt &>/dev/null && compopt -o filenames 2>/dev/null\n"
                + "  local IFS=$'\\n'\n"
                + "  COMPREPLY=( $(compgen -f -- \"$cur\") )\n"
                + "}\n"
                + "function _cudnn_reply_folders() {\n"
                + "  type compopt &>/dev/null && compopt -o filenames 2>/dev/null\n"
                + "  local IFS=$'\\n'\n"
                + "  COMPREPLY=( $(compgen -d -- \"$cur\") )\n"
                + "}\n"
                + "function _cudnn_reply_words() {\n"
                + "  COMPREPLY=( $(compgen -W \"$1\" -- \"$cur\") )\n"
                + "  if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *== ]]; then type compopt &>/dev/null && compopt -o nospace 2>/dev/null; fi\n"
                + "}\n"
                + "function _cudnn_values() {\n"
                + "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i\n"
                + "  # --opt=value: bash splits the word at '=' (COMP_WORDBREAKS)\n"
                + "  if [[ $cur == = ]]; then cur=; elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi\n"
                + "  for (( i = 1; i < COMP_CWORD; i++ )); do\n"
                + "    case ${COMP_WORDS[i]} in -*|=) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac\n"
                + "  done\n"
                + "  case \"$cmd $prev\" in\n"
                + cases
                + "    *) ;;\n"
                + "  esac\n"
                + positional
                + "  return 1\n"
                + "}\n"
                + "function _cudnn_complete() {\n"
                + "  COMPREPLY=()\n"
                + "  _cudnn_values || _complete_cudnn \"$@\"\n"
                + "}\n"
                + "complete -F _cudnn_complete -o default cudnn cudnn.sh cudnn.bash\n";
    }
}
