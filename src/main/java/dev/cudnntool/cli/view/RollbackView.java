package dev.cudnntool.cli.view;

import dev.cudnntool.cli.ToolContext;
import dev.cudnntool.cli.OutputOptions;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.install.AlreadyInstalled;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.install.RollbackService;
import dev.cudnntool.target.InstallTarget;
import java.util.List;

/**
 * What {@code cudnn rollback} prints, for a rollback or a repair ({@link #show}) and for
 * {@code --list} ({@link #list}): the JSON document (README, "JSON output") or the text, and the exit code.
 */
public final class RollbackView {
    private RollbackView() {
    }

    public static int show(ToolContext ctx, OutputOptions output, boolean dryRun, RollbackOutcome o) {
        if (output.json()) {
            Json.print(ctx.out(), json(o, dryRun));
        } else {
            if (dryRun || output.verbose()) {
                for (var s : o.steps()) {
                    ctx.out().println("  " + s.type() + " " + (s.from() == null ? "" : s.from() + " -> ") + s.to());
                }
            }
            Render.searchPath(ctx.out(), o.findings()); // --add-to-path undone: say how
            (o.exit() == ExitCode.OK ? ctx.out() : ctx.err()).println(Text.oneLine(o.summary())
                    + (o.exit() == ExitCode.OK ? "" : " (exit " + o.exit().code() + ")"));
        }
        return o.exit().code();
    }

    public static ObjectNode json(RollbackOutcome o, boolean dryRun) {
        var doc = Json.document("rollback", o.exit().code());
        doc.put("dryRun", dryRun);
        doc.put("changed", AlreadyInstalled.changed(o, dryRun));
        doc.put("summary", o.summary());
        doc.put("installId", o.installId());
        doc.put("version", o.version());
        Json.put(doc, "steps", o.steps());
        Json.put(doc, "keptChangedFiles", o.keptChangedFiles());
        Json.put(doc, "findings", o.findings());
        return doc;
    }

    public static int list(ToolContext ctx, OutputOptions output, InstallTarget t, List<RollbackService.Entry> entries) {
        if (output.json()) {
            var doc = Json.document("rollback", 0);
            doc.put("target", t.root().toString());
            Json.put(doc, "installs", entries);
            Json.print(ctx.out(), doc);
        } else if (entries.isEmpty()) {
            ctx.out().println("no installs recorded in " + t.root());
        } else {
            Render.installs(ctx.out(), entries.stream().map(RollbackService.Entry::toTheSecond).toList());
        }
        return ExitCode.OK.code();
    }
}
