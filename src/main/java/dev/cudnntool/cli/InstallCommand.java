package dev.cudnntool.cli;

import dev.cudnntool.Text;
import dev.cudnntool.ExitCode;
import dev.cudnntool.archive.format.ArchiveDigest;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.install.InstallOutcome;
import dev.cudnntool.install.InstallRequest;
import dev.cudnntool.install.InstallService;
import dev.cudnntool.install.NioFileOps;
import dev.cudnntool.install.Preflight;
import dev.cudnntool.install.SearchPathChange;
import dev.cudnntool.host.searchpath.SearchPathStore;
import dev.cudnntool.host.searchpath.SearchPathStores;
import dev.cudnntool.verify.ProbeCheck;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "install", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Installs a cuDNN archive into a CUDA toolkit (or --prefix folder) as a transaction:",
                "every file it replaces is backed up, and any failure restores the target exactly."})
public class InstallCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Option(names = "--archive", required = true, paramLabel = "FILE", description = "The archive as downloaded from NVIDIA.")
    String archive;

    @Option(names = "--dry-run", description = "Check everything and show the plan; change nothing. Exits as the real run would.")
    boolean dryRun;

    @Option(names = "--force", description = "Turn these errors into warnings: platform.mismatch, driver.too-old, driver.failed,"
            + " toolkit.cuda-major-mismatch, cudnn.shadow, cudnn.zlibwapi-missing.")
    boolean force;

    @Option(names = "--no-probe", description = "Do not load the installed library to prove it works.")
    boolean noProbe;

    @Option(names = "--add-to-path", arity = "0..1", fallbackValue = "user", paramLabel = "user|machine",
            description = {"Put the runtime folder on the search path for good, undone by rollback. Windows: the user PATH"
                    + " in the registry (=machine: the machine's, needs Administrator); Linux:"
                    + " /etc/ld.so.conf.d/cudnn-tool-<id>.conf and ldconfig (needs root)."})
    String addToPath;

    @Mixin
    TargetOptions target;

    @Mixin
    ChecksumOptions checksum;

    @Mixin
    OutputOptions output;

    public InstallCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        Path file = PathArgument.file(ctx.host(), "--archive", archive);
        ArchiveName name = ArchiveName.parse(file.getFileName().toString());
        try (ArchiveDigest early = InstallService.startDigest(file, name)) { // beside the catalogue and the host checks
            return install(file, name, early);
        }
    }

    private Integer install(Path file, ArchiveName name, ArchiveDigest early) {
        InstallRequest req = new InstallRequest(file, checksum.expectation(ctx.host(), name, ctx.catalogue()), target.cudaPath(ctx.host()),
                target.prefix(ctx.host()), force, dryRun, !noProbe);
        dev.cudnntool.probe.ProbeRunner probe = ctx.probe();
        InstallService service = new InstallService(ctx.host(), new NioFileOps(), Clock.systemUTC(),
                noProbe ? dev.cudnntool.install.PostInstallCheck.NONE : ProbeCheck.forInstall(ctx.host(), probe),
                InspectionLimits.DEFAULT, VersionProvider.version()).withDigest(early);
        if (ctx.host().windows()) {
            service.withHolders(probe::holders);
        }
        if (addToPath != null) {
            service.withAddToPath(new SearchPathChange(ctx.host(), SearchPathStores.forHost(ctx.host()), addToPathScope()));
        }
        ProgressBar bar = ProgressBar.forContext(ctx, output, dryRun ? "reading" : "installing");
        InstallOutcome o = service.run(req, bar);
        bar.done();
        if (output.json) {
            var doc = Json.document("install", o.exit().code());
            doc.put("dryRun", dryRun);
            doc.put("changed", dev.cudnntool.install.AlreadyInstalled.changed(o, dryRun));
            doc.put("summary", o.summary());
            if (o.archive() != null) {
                Json.put(doc, "archive", o.archive().archive());
                ((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("archive")).set("catalogue",
                        Json.MAPPER.valueToTree(ctx.catalogue().describe(name)));
                Json.put(doc, "evidence", o.archive().evidence());
            }
            Preflight pf = o.preflight();
            if (pf != null) {
                Json.put(doc, "platform", pf.platform());
                Json.put(doc, "driver", pf.driver());
                Json.put(doc, "toolkit", pf.toolkit());
                Json.put(doc, "toolkitsFound", pf.toolkitsFound());
                Json.put(doc, "target", pf.target());
            }
            if (o.plan() != null) {
                Json.put(doc, "plan", o.plan().steps());
            }
            if (o.record() != null) {
                doc.put("installId", o.record().id());
            }
            Json.put(doc, "findings", o.findings());
            Json.print(ctx.out(), doc);
        } else {
            if (o.archive() != null && !output.quiet) {
                Render.archive(ctx.out(), o.archive());
            }
            if (o.plan() != null && (dryRun || output.verbose)) {
                Render.plan(ctx.out(), o.plan(), output.verbose);
            }
            if (!output.quiet) {
                Render.findings(ctx.out(), o.findings(), output.verbose);
            }
            (o.exit() == ExitCode.OK ? ctx.out() : ctx.err()).println(Text.oneLine(o.summary())
                    + (o.exit() == ExitCode.OK ? "" : " (exit " + o.exit().code() + ")"));
        }
        return o.exit().code();
    }

    private SearchPathStore.Scope addToPathScope() {
        return switch (addToPath.toLowerCase(java.util.Locale.ROOT)) {
            case "user" -> SearchPathStore.Scope.USER;
            case "machine" -> SearchPathStore.Scope.MACHINE;
            default -> throw new dev.cudnntool.ToolException(ExitCode.USAGE, "--add-to-path=" + addToPath
                    + " is not a search path", "use --add-to-path (the user's) or --add-to-path=machine");
        };
    }
}
