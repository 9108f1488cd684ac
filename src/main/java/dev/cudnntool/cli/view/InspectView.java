package dev.cudnntool.cli.view;


import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.name.ArchiveName;

/** What {@code cudnn inspect} prints: the JSON document (README, "JSON output") or the text, and the exit code. */
public final class InspectView {
    private InspectView() {
    }

    public static int show(Screen ctx, ArchiveName name, ArchiveReport report) {
        ExitCode code = report.acceptable() ? ExitCode.OK : ExitCode.ARCHIVE_REJECTED;
        if (ctx.json()) {
            Json.print(ctx.out(), json(report, code, ctx.catalogue(), name));
        } else {
            Render.archive(ctx.out(), report);
            Render.findings(ctx.out(), report.findings(), ctx.verbose());
            ctx.out().println(code == ExitCode.OK ? "archive is complete and consistent"
                    : "archive rejected (exit " + code.code() + ")");
        }
        return code.code();
    }

    public static ObjectNode json(ArchiveReport report, ExitCode code, Catalogue catalogue, ArchiveName name) {
        var doc = Json.document("inspect", code.code());
        Json.put(doc, "archive", report.archive());
        ((ObjectNode) doc.get("archive")).set("catalogue", Json.MAPPER.valueToTree(catalogue.describe(name)));
        doc.put("topFolder", report.topFolder());
        Json.put(doc, "evidence", report.evidence());
        Json.put(doc, "findings", report.findings());
        Json.put(doc, "entries", report.entries());
        return doc;
    }
}
