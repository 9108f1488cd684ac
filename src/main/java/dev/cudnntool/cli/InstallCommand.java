package dev.cudnntool.cli;

import dev.cudnntool.cli.view.InstallView;

import dev.cudnntool.ExitCode;
import dev.cudnntool.archive.ArchiveFile;
import dev.cudnntool.archive.format.ArchiveDigest;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.install.InstallOutcome;
import dev.cudnntool.install.InstallRequest;
import dev.cudnntool.install.InstallService;
import dev.cudnntool.host.searchpath.SearchPathStore;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "install", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Installs a cuDNN archive into a CUDA toolkit (or a --prefix folder) as a transaction.",
                "Every file it replaces is backed up first, and any failure restores the target exactly.",
                "Where to get an archive: 'cudnn releases' lists NVIDIA's for this machine."},
        footerHeading = "%nExamples:%n",
        footer = {"  Check an archive against this machine and show the plan, changing nothing:",
                "    cudnn install --archive cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz --dry-run",
                "  Install into the toolkit found through CUDA_PATH and put its bin on the user's PATH:",
                "    cudnn install --archive cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip --add-to-path",
                "  Install into a folder of its own, with the checksum from NVIDIA's manifest:",
                "    cudnn install --archive FILE --prefix /opt/cudnn --manifest redistrib_9.5.1.json"})
public class InstallCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Option(names = "--archive", required = true, paramLabel = "FILE", description = "The archive as downloaded from NVIDIA.")
    String archive;

    @Option(names = "--dry-run", description = "Check everything and show the plan; change nothing. Exits as the real run would.")
    boolean dryRun;

    @Option(names = "--force", description = {"Go on despite these errors, reported as warnings: platform.mismatch,",
            "driver.too-old, driver.failed, toolkit.cuda-major-mismatch, cudnn.shadow,", "cudnn.zlibwapi-missing, install.package-owned."})
    boolean force;

    @Option(names = "--no-probe", description = "Do not load the installed library to prove it works.")
    boolean noProbe;

    @Option(names = "--add-to-path", arity = "0..1", fallbackValue = "user", paramLabel = "user|machine",
            description = "Put the runtime folder on the search path for good; rollback undoes it. Windows: the user's"
                    + " PATH in the registry (=machine: the machine's, needs Administrator). Linux: the file"
                    + " /etc/ld.so.conf.d/cudnn-tool-<id>.conf and ldconfig (needs root).")
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
        Path cudaPath = target.cudaPath(ctx.host()); // usage errors first, before the file is looked at
        Path prefix = target.prefix(ctx.host());
        ArchiveName name = ArchiveFile.name(file);
        try (ArchiveDigest early = InstallService.startDigest(file, name)) { // beside the catalogue and the host checks
            InstallRequest req = new InstallRequest(file, checksum.expectation(ctx.host(), name, ctx.catalogue()),
                    cudaPath, prefix, force, dryRun, addToPathScope(), early);
            InstallService service = ctx.services().install(!noProbe);
            ProgressBar bar = ProgressBar.forContext(ctx, output, dryRun ? "reading" : "installing");
            InstallOutcome o = service.run(req, bar);
            bar.done();
            return InstallView.show(ctx, output, name, dryRun, o);
        }
    }

    /** --add-to-path's scope, null without the option. */
    private SearchPathStore.Scope addToPathScope() {
        if (addToPath == null) {
            return null;
        }
        return switch (addToPath.toLowerCase(java.util.Locale.ROOT)) {
            case "user" -> SearchPathStore.Scope.USER;
            case "machine" -> SearchPathStore.Scope.MACHINE;
            default -> throw new dev.cudnntool.ToolException(ExitCode.USAGE, "--add-to-path=" + addToPath
                    + " is not a search path", "use --add-to-path (the user's) or --add-to-path=machine");
        };
    }
}
