package dev.cudnntool.cli;

import dev.cudnntool.Text;
import dev.cudnntool.ExitCode;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.install.state.InstallTarget;
import dev.cudnntool.install.NioFileOps;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.install.RollbackService;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "rollback", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Restores exactly what the newest install (or --id) replaced, and removes what it added.",
                "Also completes an install or rollback that was interrupted; --repair sets damaged records aside."})
public class RollbackCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Option(names = "--list", description = "Show the recorded installs.")
    boolean list;

    @Option(names = "--id", paramLabel = "ID", description = "The install to roll back (default: the newest).")
    String id;

    @Option(names = "--dry-run", description = "Show what would be restored; change nothing.")
    boolean dryRun;

    @Option(names = "--repair", description = "Set damaged install records or a damaged journal aside (renamed into"
            + " .cudnn-tool/quarantine, never deleted), remove leftovers of stopped runs, and say what could not be accounted"
            + " for; the target can be installed into again.")
    boolean repair;

    @Option(names = "--force", description = "Roll back although installed files were changed since (they are kept aside),"
            + " or although later installs sit on top.")
    boolean force;

    @Mixin
    TargetOptions target;

    @Mixin
    OutputOptions output;

    public RollbackCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        InstallTarget t = resolveTarget();
        RollbackService service = new RollbackService(ctx.host(), new NioFileOps());
        if (t == null) {
            String msg = "nothing to roll back: no CUDA toolkit found (pass --cuda-path or --prefix)";
            return finish(new RollbackOutcome(ExitCode.NOTHING_TO_ROLL_BACK, msg, null, null, List.of(), List.of(),
                    List.of(dev.cudnntool.Finding.error("rollback.nothing", msg, "pass --cuda-path DIR or --prefix DIR"))));
        }
        if (list) {
            List<RollbackService.Entry> entries = service.list(t);
            if (output.json) {
                var doc = Json.document("rollback", 0);
                doc.put("target", t.root().toString());
                Json.put(doc, "installs", entries);
                Json.print(ctx.out(), doc);
            } else if (entries.isEmpty()) {
                ctx.out().println("no installs recorded in " + t.root());
            } else {
                Render.installs(ctx.out(), entries);
            }
            return 0;
        }
        if (repair) {
            if (id != null || force) {
                throw new dev.cudnntool.ToolException(ExitCode.USAGE, "--repair does not combine with --id or --force",
                        "run cudnn-rollback --repair first, then the rollback you want");
            }
            return finish(service.repair(t, dryRun));
        }
        return finish(service.rollback(t, id, force, dryRun));
    }

    private int finish(RollbackOutcome o) {
        if (output.json) {
            var doc = Json.document("rollback", o.exit().code());
            doc.put("dryRun", dryRun);
            doc.put("changed", dev.cudnntool.install.AlreadyInstalled.changed(o, dryRun));
            doc.put("summary", o.summary());
            doc.put("installId", o.installId());
            doc.put("version", o.version());
            Json.put(doc, "steps", o.steps());
            Json.put(doc, "keptChangedFiles", o.keptChangedFiles());
            Json.put(doc, "findings", o.findings());
            Json.print(ctx.out(), doc);
        } else {
            if (dryRun || output.verbose) {
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

    private InstallTarget resolveTarget() {
        OsFamily os = ctx.host().os();
        Path prefix = target.prefix(ctx.host());
        if (prefix != null) {
            return InstallTarget.prefix(prefix, os);
        }
        var sel = ToolkitLocator.locate(ctx.host(), target.cudaPath(ctx.host()), null);
        return sel.chosen() == null ? null : InstallTarget.toolkit(sel.chosen(), os);
    }
}
