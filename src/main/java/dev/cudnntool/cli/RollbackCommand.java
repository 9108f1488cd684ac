package dev.cudnntool.cli;

import dev.cudnntool.cli.view.RollbackView;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.rollback.RollbackService;
import dev.cudnntool.target.InstallTarget;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "rollback", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Restores exactly what the newest install (or --id) replaced and removes what it added.",
                "It also completes an install or rollback that was interrupted; --repair sets damaged records aside."},
        footerHeading = "%nExamples:%n",
        footer = {"  Show the recorded installs, then what undoing the newest would do:",
                "    cudnn rollback --list",
                "    cudnn rollback --dry-run",
                "  Undo one install by its id (the first install's undo is an uninstall):",
                "    cudnn rollback --id 20261130T030000Z-0003"})
public class RollbackCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Option(names = "--list", description = "Show the recorded installs.")
    boolean list;

    @Option(names = "--id", paramLabel = "ID", description = "The install to roll back (default: the newest).")
    String id;

    @Option(names = "--dry-run", description = "Show what would be restored; change nothing.")
    boolean dryRun;

    @Option(names = "--repair", description = "Set damaged install records or a damaged journal aside (renamed into the folder"
            + " .cudnn-tool/quarantine, never deleted), remove leftovers of stopped runs, and say what could not be"
            + " accounted for; the target can be installed into again.")
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
        Path prefix = target.prefix(ctx.host());
        RollbackService service = ctx.services().rollback();
        InstallTarget t = service.target(target.cudaPath(ctx.host()), prefix);
        if (t == null) {
            return RollbackView.show(ctx.screen(output), dryRun, RollbackService.noTarget());
        }
        if (list) {
            return RollbackView.list(ctx.screen(output), t, service.list(t));
        }
        if (repair) {
            checkRepairAlone();
            return RollbackView.show(ctx.screen(output), dryRun, service.repair(t, dryRun));
        }
        return RollbackView.show(ctx.screen(output), dryRun, service.rollback(t, id, force, dryRun));
    }

    private void checkRepairAlone() {
        if (id != null || force) {
            throw new ToolException(ExitCode.USAGE, "--repair does not combine with --id or --force",
                    "run cudnn rollback --repair first, then the rollback you want");
        }
    }
}
