package dev.cudnntool.cli;

import dev.cudnntool.cli.view.ExplainView;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.explain.ExplainInput;
import dev.cudnntool.explain.Explanation;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "explain", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Explains a cuDNN error message and checks this machine for its cause.",
                "It finds the cuDNN error lines in the text (a log, a traceback), says what each means,",
                "runs the part of verify that answers it here and gives the fix. Exit 0: the cause is not",
                "present here; 1: it is; 9: the check could not run here; 2: no cuDNN error line in the text."},
        footerHeading = "%nExamples:%n",
        footer = {"  What a pasted error means, and whether its cause is on this machine:",
                "    cudnn explain \"Could not load library libcudnn_ops_infer.so.8\"",
                "  The same for a whole log, or for a program's output piped in:",
                "    cudnn explain --file train.log",
                "    python app.py 2>&1 | cudnn explain -"})
public class ExplainCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Parameters(arity = "0..1", paramLabel = "TEXT", description = "The error text; '-' reads standard input.")
    String text;

    @Option(names = "--file", paramLabel = "LOG", description = "Read the text from this file (its last 16 MiB when larger).")
    String file;

    @Mixin
    OutputOptions output;

    public ExplainCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        ExplainInput input = input();
        Explanation e = ctx.services().explain().explain(input);
        return ExplainView.show(ctx.screen(output), input.source(), input.notice(), e);
    }

    private ExplainInput input() {
        if (file != null && text != null) {
            throw new ToolException(ExitCode.USAGE, "both TEXT and --file given", "give the text or --file LOG, not both");
        }
        if (file != null) {
            return ExplainInput.file(PathArgument.file(ctx.host(), "--file", file));
        }
        if (text == null) {
            throw new ToolException(ExitCode.USAGE, "no text given", "cudnn explain \"ERROR TEXT\", --file LOG, or - to read"
                    + " standard input");
        }
        return text.equals("-") ? ExplainInput.stdin(ctx.in()) : ExplainInput.argument(text);
    }
}
