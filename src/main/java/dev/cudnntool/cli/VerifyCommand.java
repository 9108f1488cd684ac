package dev.cudnntool.cli;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.verify.VerifyReport;
import dev.cudnntool.verify.VerifyService;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Diagnoses this machine's cuDNN: platform, driver, toolkit, the files, the search path,",
                "and the library itself (loaded in a child process). Every finding has a cause and a fix."})
public class VerifyCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Option(names = "--expect", paramLabel = "VERSION", description = "The cuDNN version that must be installed, e.g. 8.9.5.")
    String expect;

    @Option(names = "--no-probe", description = "Do not load the library; check files only.")
    boolean noProbe;

    @Option(names = "--all", description = "Diagnose every cuDNN copy found on the machine, not only the target.")
    boolean all;

    @Mixin
    TargetOptions target;

    @Mixin
    OutputOptions output;

    public VerifyCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        CudnnVersion expected = null;
        if (expect != null) {
            try {
                expected = CudnnVersion.parse(expect);
            } catch (IllegalArgumentException e) {
                throw new ToolException(ExitCode.USAGE, "--expect " + expect + " is not a cuDNN version",
                        "write it as MAJOR.MINOR.PATCH, e.g. --expect 8.9.5");
            }
        }
        VerifyService service = new VerifyService(ctx.host(), noProbe ? null : ctx.probe());
        VerifyReport r = service.verify(target.cudaPath(ctx.host()), target.prefix(ctx.host()), expected, all);
        ExitCode code = r.ok() ? ExitCode.OK : ExitCode.CHECKS_FAILED;
        if (output.json) {
            var doc = Json.document("verify", code.code());
            Json.put(doc, "platform", r.platform());
            Json.put(doc, "driver", r.driver());
            Json.put(doc, "toolkit", r.toolkit());
            Json.put(doc, "toolkitsFound", r.toolkitsFound());
            Json.put(doc, "target", r.target());
            Json.put(doc, "cudnn", r.cudnn());
            Json.put(doc, "probe", r.probe());
            Json.put(doc, "copies", r.copies());
            Json.put(doc, "findings", r.findings());
            Json.print(ctx.out(), doc);
        } else {
            Render.verify(ctx.out(), r, output.verbose);
        }
        return code.code();
    }
}
