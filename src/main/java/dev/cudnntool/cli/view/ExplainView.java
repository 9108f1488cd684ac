package dev.cudnntool.cli.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Text;
import dev.cudnntool.explain.ErrorLine;
import dev.cudnntool.explain.Explanation;
import java.io.PrintWriter;

/**
 * What {@code cudnn explain} prints: the JSON document (the common envelope, {@code input}, {@code lines},
 * {@code findings}) or the text, and the exit code (0 not present here, 1 found here, 9 not checked). Every echoed line
 * comes escaped from the recognizer; the rest goes through {@link Text#oneLine}.
 */
public final class ExplainView {
    private ExplainView() {
    }

    public static int show(Screen ctx, String source, String notice, Explanation e) {
        ExitCode code = switch (e.outcome()) {
            case PROBLEM -> ExitCode.CHECKS_FAILED;
            case NOT_CHECKED -> ExitCode.NOT_CHECKED;
            case NOT_PRESENT -> ExitCode.OK;
        };
        if (ctx.json()) {
            ObjectNode doc = Json.document("explain", code.code());
            ObjectNode in = doc.putObject("input");
            in.put("source", Text.printable(source));
            in.put("truncated", notice != null);
            Json.put(doc, "lines", e.lines());
            Json.put(doc, "findings", e.findings());
            Json.print(ctx.out(), doc);
            return code.code();
        }
        PrintWriter out = ctx.out();
        if (notice != null) {
            ctx.err().println("explain: " + Text.oneLine(notice));
            ctx.err().flush();
        }
        if (ctx.quiet()) {
            Render.findings(out, e.findings().stream().filter(Finding::isError).toList(), false);
        } else {
            for (ErrorLine l : e.lines()) {
                out.println("line " + l.number() + "  " + l.kind().label() + ": " + l.text());
                out.println("  means: " + Text.oneLine(l.meaning()));
            }
            Render.findings(out, e.findings(), ctx.verbose());
        }
        long ruledOut = e.findings().stream().filter(f -> f.is(FindingId.EXPLAIN_RULED_OUT)).count();
        out.println(switch (e.outcome()) {
            case PROBLEM -> "explain: the cause is on this machine (see the errors and their fixes above)";
            case NOT_CHECKED -> "explain: could not check this here (see the warnings above)";
            case NOT_PRESENT -> "explain: the cause is not present here (" + ruledOut + " check" + (ruledOut == 1 ? "" : "s")
                    + " ruled it out, above)";
        });
        out.flush();
        return code.code();
    }
}
