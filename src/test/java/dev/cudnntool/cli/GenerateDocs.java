package dev.cudnntool.cli;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import picocli.CommandLine;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/**
 * Build-time only (the pom runs it in the package phase, from the test class path, so neither it nor
 * picocli-codegen is in the tool's jar): the man pages and the completion scripts, generated with
 * picocli's own tools from the same command model as the help ({@link Main#commandLine}).
 *
 * <p>Usage: {@code GenerateDocs TARGET-FOLDER [VERSION]}; writes {@code man/cudnn.adoc} and
 * {@code man/cudnn-COMMAND.adoc} (picocli's AsciiDoc), the same pages in troff as {@code man/man1/cudnn.1} and
 * {@code man/man1/cudnn-COMMAND.1} ({@link RoffManPages}; what the image ships), and {@code completion/cudnn.bash},
 * {@code completion/cudnn.zsh}.
 */
public final class GenerateDocs {
    private GenerateDocs() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            throw new IllegalArgumentException("usage: GenerateDocs TARGET-FOLDER [VERSION]");
        }
        Path target = Paths.get(args[0]);
        CommandLine model = model();
        if (args.length == 2) {
            // The jar's manifest gives the version at run time; here the classes come from a folder.
            String[] version = {"cudnn-tool " + args[1]};
            setVersion(model, version);
        }
        Path man = Files.createDirectories(target.resolve("man"));
        int failed = ManPageGenerator.generateManPage(man.toFile(), (File) null, new boolean[0], true, model.getCommandSpec());
        if (failed != 0) {
            throw new IOException("picocli's ManPageGenerator failed (" + failed + ") writing into " + man);
        }
        Path man1 = Files.createDirectories(man.resolve("man1"));
        String version = model.getCommandSpec().version().length > 0 ? model.getCommandSpec().version()[0] : "cudnn-tool";
        writePages(model, man1, version, System.getProperty("cudnn.docs.date", "2026-01-01"));
        Path completion = Files.createDirectories(target.resolve("completion"));
        for (CompletionCommand.Shell shell : CompletionCommand.Shell.values()) {
            Files.writeString(completion.resolve("cudnn." + shell.name()), CompletionCommand.script(shell, model),
                    StandardCharsets.UTF_8);
        }
    }

    private static void writePages(CommandLine command, Path man1, String version, String date) throws IOException {
        Files.writeString(man1.resolve(command.getCommandSpec().qualifiedName("-") + ".1"),
                RoffManPages.page(command, version, date), StandardCharsets.UTF_8);
        for (Map.Entry<String, CommandLine> e : command.getSubcommands().entrySet()) {
            if (e.getKey().equals(e.getValue().getCommandName())) {
                writePages(e.getValue(), man1, version, date);
            }
        }
    }

    private static void setVersion(CommandLine command, String[] version) {
        command.getCommandSpec().versionProvider(() -> version);
        command.getSubcommands().values().forEach(sub -> setVersion(sub, version));
    }

    /** The whole command model, every command built; nothing is run, so the context is never used. */
    static CommandLine model() {
        PrintWriter none = new PrintWriter(new StringWriter());
        CommandLine model = Main.commandLine(new ToolContext(null, none, none, false), null);
        // picocli's man page has a footer only under a heading; the root's help footer (exit codes, examples) has none.
        model.getCommandSpec().usageMessage().footerHeading("Exit codes and examples");
        return model;
    }
}
