package dev.cudnntool.cli;

import dev.cudnntool.cli.view.InspectView;

import dev.cudnntool.archive.ArchiveFile;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.ArchiveReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "inspect", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Reads a cuDNN archive completely (nothing is extracted) and reports what it holds.",
                "The checksum is checked against NVIDIA's published value, or --sha256 or --manifest."},
        footerHeading = "%nExamples:%n",
        footer = {"  What a downloaded archive holds, and whether it is complete:",
                "    cudnn inspect cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz",
                "  The same, checked against a checksum you were given:",
                "    cudnn inspect cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip --sha256 HEX"})
public class InspectCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Parameters(paramLabel = "FILE", description = "The archive as downloaded from NVIDIA.")
    String file;

    @Mixin
    ChecksumOptions checksum;

    @Mixin
    OutputOptions output;

    public InspectCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        Path archive = PathArgument.file(ctx.host(), "FILE", file);
        ArchiveName name = ArchiveFile.name(archive);
        ProgressBar bar = ProgressBar.forContext(ctx, output, "reading");
        ArchiveReport report = ctx.services().inspector().inspectFile(archive, name,
                () -> checksum.expectation(ctx.host(), name, ctx.catalogue()), bar);
        bar.done();
        return InspectView.show(ctx.screen(output), name, report);
    }
}
