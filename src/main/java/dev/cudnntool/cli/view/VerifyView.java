package dev.cudnntool.cli.view;


import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.verify.VerifyReport;

/** What {@code cudnn verify} prints: the JSON document (README, "JSON output") or the text, and the exit code. */
public final class VerifyView {
    private VerifyView() {
    }

    public static int show(Screen ctx, VerifyReport r) {
        return show(ctx, r, false);
    }

    /** @param report {@code --report}: Markdown for a bug report instead of the text (with --json: its {@code report} field) */
    public static int show(Screen ctx, VerifyReport r, boolean report) {
        ExitCode code = r.verdict().exitCode();
        if (ctx.json()) {
            ObjectNode doc = json(r, code);
            if (report) {
                doc.put("report", ReportView.markdown(ctx.host(), ctx.toolVersion(), r, code.code()));
            }
            Json.print(ctx.out(), doc);
        } else if (report) {
            ctx.out().print(ReportView.markdown(ctx.host(), ctx.toolVersion(), r, code.code()));
        } else {
            Render.verify(ctx.out(), r, ctx.verbose());
        }
        return code.code();
    }

    public static ObjectNode json(VerifyReport r, ExitCode code) {
        var doc = Json.document("verify", code.code());
        doc.put("verdict", r.verdict().label());
        Json.put(doc, "platform", r.platform());
        Json.put(doc, "driver", r.driver());
        Json.put(doc, "toolkit", r.toolkit());
        Json.put(doc, "toolkitsFound", r.toolkitsFound());
        if (r.judged() != null && r.cudnn() == null) {
            // #33 item 2: the copy plain verify judged, by its owner's kind (pip, conda, dpkg, rpm)
            var t = doc.putObject("target");
            t.put("kind", r.judgedKind());
            t.put("path", r.judgedFolder());
        } else {
            Json.put(doc, "target", r.target());
        }
        Json.put(doc, "cudnn", r.cudnn());
        Json.put(doc, "probe", r.probe());
        Json.put(doc, "copies", r.copies());
        Json.put(doc, "frameworks", r.frameworks());
        Json.put(doc, "findings", r.findings());
        return doc;
    }
}
