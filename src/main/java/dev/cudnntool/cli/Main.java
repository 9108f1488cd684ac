package dev.cudnntool.cli;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Failures;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.format.XzDecoders;
import dev.cudnntool.cli.view.Json;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.searchpath.SearchPathStores;
import dev.cudnntool.target.FaultHook;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The entry point. {@link #run} is the whole command line as a function (testable in-process);
 * only {@link #main} calls System.exit. Every failure ends here as one line and an exit code.
 */
public final class Main {
    /** The help's width in columns: every line of every help fits in it (HelpTextTest). */
    static final int USAGE_WIDTH = 100;

    private Main() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        Host host = SearchPathStores.systemHost();
        // No probe child is started here: verify's collector starts one only once it has found a cuDNN
        // library to load (a child started early, for a machine without cuDNN, only took a core from
        // this JVM's own start: #31 item 5).
        // The one place the knobs are read: the commit delay (outside tests widen race windows with
        // it) and the .xz decoder.
        FaultHook faults = FaultHook.pause(Long.getLong(FaultHook.COMMIT_STEP_DELAY_PROPERTY, 0));
        int code = run(new ToolContext(host, out, err, System.console() != null, null, null, faults,
                XzDecoders.Choice.parse(System.getProperty(XzDecoders.PROPERTY)), SearchPathStores.system(host), System.in), args);
        ClassDataTraining.loadListed(System.getProperty(ClassDataTraining.PROPERTY), Main.class.getClassLoader());
        System.exit(code);
    }

    public static int run(ToolContext ctx, String... args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            // The version alone: the lines picocli would print, without building the command model
            // (picocli's classes predate class-data sharing and are verified at every start: #31 item 5).
            for (String line : new VersionProvider().getVersion()) {
                ctx.out().println(line);
            }
            ctx.out().flush();
            return ExitCode.OK.code();
        }
        if (HelpTopic.asked(args)) {
            return HelpTopic.run(ctx, args);
        }
        CommandLine cl = commandLine(ctx, args.length > 0 ? args[0] : null);
        int code = cl.execute(args);
        ctx.out().flush();
        ctx.err().flush();
        return code;
    }

    /**
     * The command model: {@code cudnn} and its subcommands, or, when {@code first} names one, only
     * that one. {@code null}: all of them (the list, completion, the man pages).
     */
    static CommandLine commandLine(ToolContext ctx, String first) {
        ContextFactory factory = new ContextFactory(ctx);
        CommandLine cl = new CommandLine(new CudnnCommand(), factory);
        List<String> footer = new ArrayList<>(List.of("", CudnnCommand.exitCodes(), ""));
        footer.addAll(List.of(CudnnCommand.EXAMPLES));
        cl.getCommandSpec().usageMessage().footer(footer.toArray(String[]::new));
        for (var e : CudnnCommand.SUBCOMMANDS.entrySet()) {
            if (first == null || !CudnnCommand.SUBCOMMANDS.containsKey(first) || e.getKey().equals(first)) {
                cl.addSubcommand(e.getKey(), new CommandLine(e.getValue(), factory));
            }
        }
        // Wide enough that no description wraps inside a path or an identifier (HelpTextTest).
        cl.setUsageHelpWidth(USAGE_WIDTH);
        // Plain text everywhere: picocli's own guess put escape codes into redirected output under
        // Windows consoles (seen under Wine), and help piped to a file or grep must read as written.
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        cl.setOut(ctx.out());
        cl.setErr(ctx.err());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // No @file argument files: as root they would read any file (and echo it in an error), and
        // an @ on a FIFO or /dev/zero would never return. Set on every subcommand (picocli keeps it per command).
        cl.setExpandAtFiles(false);
        cl.setExecutionExceptionHandler(Main::onException);
        cl.setParameterExceptionHandler(BadArguments::handle);
        cl.setExecutionStrategy(Main::execute);
        cl.setExitCodeExceptionMapper(t -> t instanceof ToolException te ? te.exitCode().code() : ExitCode.INTERNAL.code());
        return cl;
    }

    /** Runs the command named last; the root's --json before a command is refused, not silently lost. */
    private static int execute(CommandLine.ParseResult parsed) {
        if (parsed.hasSubcommand() && parsed.hasMatchedOption("--json")) {
            String sub = parsed.subcommand().commandSpec().name();
            throw new CommandLine.ParameterException(parsed.commandSpec().commandLine(),
                    "--json before the command applies to no command; put it after: cudnn " + sub + " --json");
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    private static void printError(CommandLine cmd, int exitCode, String message, String fix) {
        var doc = Json.document(cmd.getCommandName(), exitCode);
        var error = doc.putObject("error");
        error.put("message", message);
        error.put("fix", fix);
        Json.print(cmd.getOut(), doc);
    }

    private static int onException(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        while (parsed.hasSubcommand()) {
            parsed = parsed.subcommand(); // options belong to the subcommand that ran
        }
        boolean verbose = parsed.hasMatchedOption("--verbose");
        boolean json = parsed.hasMatchedOption("--json");
        ToolException te = e instanceof ToolException t ? t
                : new ToolException(ExitCode.INTERNAL, "unexpected failure: " + Failures.words(e), "re-run with --verbose and report it", e);
        PrintWriter err = cmd.getErr();
        String message = Text.oneLine(te.getMessage());
        String fix = te.fix().isEmpty() ? "" : "; fix: " + Text.oneLine(te.fix());
        err.println(cmd.getCommandName() + ": error: " + message + fix);
        if (verbose) {
            StringWriter sw = new StringWriter();
            e.printStackTrace(new PrintWriter(sw));
            err.print(sw);
        }
        if (json) {
            printError(cmd, te.exitCode().code(), message, Text.oneLine(te.fix()));
        }
        err.flush();
        return te.exitCode().code();
    }

    /** Gives each command the context through its constructor; picocli builds the rest. */
    private record ContextFactory(ToolContext ctx) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> cls) throws Exception {
            try {
                Constructor<K> c = cls.getDeclaredConstructor(ToolContext.class);
                return c.newInstance(ctx);
            } catch (NoSuchMethodException e) {
                return CommandLine.defaultFactory().create(cls);
            }
        }
    }
}
