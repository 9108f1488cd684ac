package dev.cudnntool.cli;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.cli.view.Json;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The root command, {@code cudnn}. Run without a command it lists the commands, one line each, on
 * standard output, says on standard error that a command is missing, and exits 2 (usage); with
 * {@code --json} the usage-error document carries the list as {@code commands}. Its help ends with
 * the exit codes, written from {@link ExitCode} by {@link #exitCodes()}, and examples.
 */
@Command(name = "cudnn", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        resourceBundle = "dev.cudnntool.cli.Options", description = "Installs, verifies and rolls back NVIDIA cuDNN in a CUDA toolkit.")
public class CudnnCommand implements Callable<Integer> {
    /**
     * The subcommands, registered by {@link Main}: only the one being run is built (picocli's
     * reflection over every command costs about 0.1 s, a third of cudnn verify's run time).
     */
    static final Map<String, Class<?>> SUBCOMMANDS = new LinkedHashMap<>();

    static {
        SUBCOMMANDS.put("install", InstallCommand.class);
        SUBCOMMANDS.put("verify", VerifyCommand.class);
        SUBCOMMANDS.put("rollback", RollbackCommand.class);
        SUBCOMMANDS.put("inspect", InspectCommand.class);
        SUBCOMMANDS.put("releases", ReleasesCommand.class);
        SUBCOMMANDS.put("fetch", FetchCommand.class);
        SUBCOMMANDS.put("explain", ExplainCommand.class);
        SUBCOMMANDS.put("completion", CompletionCommand.class);
    }

    /** The root help's footer after the exit codes. */
    static final String[] EXAMPLES = {
        "Examples:",
        "  Which archive fits this machine, and where to download it:",
        "    cudnn releases",
        "  Install one (after a --dry-run that changes nothing), then check the result:",
        "    cudnn install --archive cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz",
        "    cudnn verify --expect 9.5.1",
        "  Undo the newest install:",
        "    cudnn rollback",
    };

    @Option(names = "--json", description = "Without a command: the list of commands as a JSON document (exit 2).")
    boolean json;

    @Spec
    CommandSpec spec;

    /** "Exit codes: 0 ok, 1 checks found errors, …": the help's footer, one entry per {@link ExitCode}. */
    static String exitCodes() {
        StringJoiner codes = new StringJoiner(", ", "Exit codes: ", ".");
        for (ExitCode c : ExitCode.values()) {
            codes.add(c.code() + " " + c.summary());
        }
        return codes.toString();
    }

    /** The usage-error document of {@code cudnn --json} alone, with the commands as {@code commands}. */
    private static ObjectNode listDocument(CommandLine cl, String message, String fix) {
        var doc = Json.document("cudnn", ExitCode.USAGE.code());
        var error = doc.putObject("error");
        error.put("message", message);
        error.put("fix", fix);
        var commands = doc.putArray("commands");
        for (var e : cl.getSubcommands().entrySet()) {
            commands.addObject().put("name", e.getKey()).put("summary", summary(e.getValue()));
        }
        return doc;
    }

    /** {@code cudnn} alone: the commands, one line each; a usage error (exit 2), since nothing was run. */
    @Override
    public Integer call() {
        CommandLine cl = spec.commandLine();
        String message = "no command given";
        String fix = "name one of the commands, e.g. 'cudnn verify'; 'cudnn COMMAND --help' shows its options and examples";
        if (json) {
            Json.print(cl.getOut(), listDocument(cl, message, fix));
        } else {
            PrintWriter out = cl.getOut();
            out.println("Usage: cudnn COMMAND [OPTIONS]");
            out.println("Commands:");
            out.print(cl.getHelp().commandList());
            out.flush();
        }
        cl.getErr().println("cudnn: error: " + message + "; fix: " + fix);
        cl.getErr().flush();
        return ExitCode.USAGE.code();
    }

    /** A command's one-line summary: the first line of its description, a whole sentence. */
    static String summary(CommandLine command) {
        String[] d = command.getCommandSpec().usageMessage().description();
        return d.length == 0 ? "" : d[0];
    }
}
