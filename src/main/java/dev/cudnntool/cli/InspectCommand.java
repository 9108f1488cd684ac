package dev.cudnntool.cli;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.EntrySink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "inspect", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Reads a cuDNN archive completely (nothing is extracted) and reports what it holds.")
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
        ArchiveName name = ArchiveName.parse(archive.getFileName().toString());
        if (!Files.isRegularFile(archive)) {
            throw new ToolException(ExitCode.USAGE, "archive " + archive + " does not exist or is not a file",
                    "check the path");
        }
        ProgressBar bar = ProgressBar.forContext(ctx, output, "reading");
        ArchiveReport report = new ArchiveInspector().inspect(archive, name, checksum.expectation(ctx.host(), name, ctx.catalogue()),
                EntrySink.NONE, bar);
        bar.done();
        ExitCode code = report.acceptable() ? ExitCode.OK : ExitCode.ARCHIVE_REJECTED;
        if (output.json) {
            var doc = Json.document("inspect", code.code());
            Json.put(doc, "archive", report.archive());
            ((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("archive")).set("catalogue",
                    Json.MAPPER.valueToTree(ctx.catalogue().describe(name)));
            doc.put("topFolder", report.topFolder());
            Json.put(doc, "evidence", report.evidence());
            Json.put(doc, "findings", report.findings());
            Json.put(doc, "entries", report.entries());
            Json.print(ctx.out(), doc);
        } else {
            Render.archive(ctx.out(), report);
            Render.findings(ctx.out(), report.findings(), output.verbose);
            ctx.out().println(code == ExitCode.OK ? "archive is complete and consistent"
                    : "archive rejected (exit " + code.code() + ")");
        }
        return code.code();
    }
}
