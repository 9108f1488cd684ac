package dev.cudnntool.cli;

import dev.cudnntool.cli.view.VerifyView;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.verify.VerifyReport;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Diagnoses this machine's cuDNN, from the driver to loading the library.",
                "It checks the platform, driver, toolkit, files and search path, and loads the library in a child",
                "process. Every finding has a cause and a fix; the exit is 1 if any finding is an error."},
        footerHeading = "%nExamples:%n",
        footer = {"  Check the cuDNN of the CUDA toolkit this machine uses:",
                "    cudnn verify",
                "  Fail (exit 1) unless cuDNN 9.5.1 is there and loads, for a script:",
                "    cudnn verify --expect 9.5.1 --json",
                "  Diagnose every copy found (which one does PyTorch load?), as Markdown for a bug report:",
                "    cudnn verify --all --report > cudnn-report.md"})
public class VerifyCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Option(names = "--expect", paramLabel = "VERSION", description = "The cuDNN version that must be installed, e.g. 8.9.5.")
    String expect;

    @Option(names = "--no-probe", description = "Do not load the library; check files only.")
    boolean noProbe;

    @Option(names = "--all", description = "Diagnose every cuDNN copy found on the machine, not only the target.")
    boolean all;

    @Option(names = "--report", description = "Print Markdown to paste into a bug report: machine, driver, GPUs, toolkits,"
            + " every copy and its owner, what loads by name, the findings, and only the search variables.")
    boolean report;

    @Option(names = "--for", paramLabel = "FRAMEWORK", description = "Report only this framework (torch, tensorflow,"
            + " onnxruntime-gpu, jax, paddlepaddle-gpu): what cuDNN it pins and what it will really load.")
    String forFramework;

    @Mixin
    TargetOptions target;

    @Mixin
    OutputOptions output;

    public VerifyCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        CudnnVersion expected = expected();
        VerifyReport r = ctx.services().verify(!noProbe).verify(target.cudaPath(ctx.host()), target.prefix(ctx.host()), expected, all,
                forFramework);
        return VerifyView.show(ctx.screen(output), r, report);
    }

    /** --expect as a version, null without it. */
    private CudnnVersion expected() {
        if (expect == null) {
            return null;
        }
        try {
            return CudnnVersion.parse(expect);
        } catch (IllegalArgumentException e) {
            throw new ToolException(ExitCode.USAGE, "--expect " + expect + " is not a cuDNN version",
                    "write it as MAJOR.MINOR.PATCH, e.g. --expect 8.9.5");
        }
    }
}
