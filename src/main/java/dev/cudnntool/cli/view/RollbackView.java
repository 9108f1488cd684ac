package dev.cudnntool.cli.view;


import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.ExitCode;
import dev.cudnntool.target.Journal;
import dev.cudnntool.Text;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.rollback.RollbackEntry;
import dev.cudnntool.target.InstallTarget;
import java.util.List;

/**
 * What {@code cudnn rollback} prints, for a rollback or a repair ({@link #show}) and for
 * {@code --list} ({@link #list}): the JSON document (README, "JSON output") or the text, and the exit code.
 */
public final class RollbackView {
    private RollbackView() {
    }

    /**
     * One step of rollback's JSON {@code steps} and of its text: the journal's step in the words the JSON has
     * always used ({@code type}: move, mkdir, rmdir; {@code from} only for a move), its own record so the
     * document does not change when the journal does.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Step(String type, String from, String to) {
        static Step of(Journal.Op op) {
            return new Step(op.type() == null ? null : op.type().wire(), op.from(), op.to());
        }

        static List<Step> of(List<Journal.Op> ops) {
            return ops == null ? null : ops.stream().map(Step::of).toList();
        }
    }

    public static int show(Screen ctx, boolean dryRun, RollbackOutcome o) {
        if (ctx.json()) {
            Json.print(ctx.out(), json(o, dryRun));
        } else {
            if (dryRun || ctx.verbose()) {
                for (Step s : Step.of(o.steps())) {
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
        doc.put("changed", o.changed(dryRun));
        doc.put("summary", o.summary());
        doc.put("installId", o.installId());
        doc.put("version", o.version());
        Json.put(doc, "steps", Step.of(o.steps()));
        Json.put(doc, "keptChangedFiles", o.keptChangedFiles());
        Json.put(doc, "findings", o.findings());
        return doc;
    }

    public static int list(Screen ctx, InstallTarget t, List<RollbackEntry> entries) {
        if (ctx.json()) {
            var doc = Json.document("rollback", 0);
            doc.put("target", t.root().toString());
            Json.put(doc, "installs", entries);
            Json.print(ctx.out(), doc);
        } else if (entries.isEmpty()) {
            ctx.out().println("no installs recorded in " + t.root());
        } else {
            Render.installs(ctx.out(), entries.stream().map(RollbackEntry::toTheSecond).toList());
        }
        return ExitCode.OK.code();
    }
}
