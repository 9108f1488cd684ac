package dev.cudnntool.cli;

import dev.cudnntool.cli.view.InstallView;

import dev.cudnntool.ExitCode;
import dev.cudnntool.archive.ArchiveFile;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.install.InstallRun;
import dev.cudnntool.install.InstallSource;
import dev.cudnntool.install.InstallRequest;
import dev.cudnntool.host.searchpath.SearchPathStore;
import dev.cudnntool.ToolException;
import dev.cudnntool.host.ReleaseFilter;
import dev.cudnntool.host.fetch.FetchSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "install", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Installs a cuDNN archive into a CUDA toolkit (or a --prefix folder) as a transaction.",
                "Every file it replaces is backed up first, and any failure restores the target exactly.",
                "The source is a file (--archive: NVIDIA's archive or its nvidia_cudnn_cuNN pip wheel) or a",
                "release fetched first (--release: from NVIDIA's server, --from or CUDNN_TOOL_MIRROR) into",
                "the cache folder: CUDNN_TOOL_CACHE, else ~/.cache/cudnn-tool/archives (Linux) or",
                "cudnn-tool\\archives in LOCALAPPDATA (Windows). 'cudnn releases' lists NVIDIA's archives."},
        footerHeading = "%nExamples:%n",
        footer = {"  Fetch cuDNN 9.5.1 for this machine's toolkit (its CUDA major) and install it:",
                "    cudnn install --release 9.5.1",
                "  Install NVIDIA's pip wheel:",
                "    cudnn install --archive nvidia_cudnn_cu12-9.5.1.17-py3-none-manylinux2014_x86_64.whl",
                "  Check an archive against this machine and show the plan, changing nothing:",
                "    cudnn install --archive cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz --dry-run",
                "  Install into the toolkit found through CUDA_PATH and put its bin on the user's PATH:",
                "    cudnn install --archive cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip --add-to-path",
                "  Install into a folder of its own, with the checksum from NVIDIA's manifest:",
                "    cudnn install --archive FILE --prefix /opt/cudnn --manifest redistrib_9.5.1.json"})
public class InstallCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Option(names = "--archive", paramLabel = "FILE",
            description = "The archive as downloaded from NVIDIA, or NVIDIA's pip wheel (nvidia_cudnn_cuNN-*.whl).")
    String archive;

    @Option(names = "--release", paramLabel = "M.m.p",
            description = "Instead of --archive: fetch this release (9.5.1) for this machine into the cache folder, check its"
                    + " size and sha256 against the catalogue, and install it.")
    String release;

    @Option(names = "--cuda", paramLabel = "MAJOR",
            description = "With --release: the CUDA build (12 or 12.4; default: the toolkit's major, else the newest).")
    String cuda;

    @Option(names = "--from", paramLabel = "URL|DIR",
            description = "With --release: a mirror laid out as NVIDIA's redist folder, or a folder holding the archive"
                    + " (default: CUDNN_TOOL_MIRROR, else NVIDIA's server).")
    String from;

    @Option(names = "--dry-run", description = "Check everything and show the plan; change nothing. Exits as the real run would.")
    boolean dryRun;

    @Option(names = "--force", description = {"Go on despite these errors, reported as warnings: platform.mismatch,",
            "driver.too-old, driver.failed, toolkit.cuda-major-mismatch, cudnn.shadow,", "cudnn.zlibwapi-missing, install.package-owned, cudnn.gpu-unsupported,", "driver.wsl-linux-driver."})
    boolean force;

    @Option(names = "--no-probe", description = "Do not load the installed library to prove it works.")
    boolean noProbe;

    @Option(names = "--add-to-path", arity = "0..1", fallbackValue = "user", paramLabel = "user|machine",
            description = "Put the runtime folder on the search path for good; rollback undoes it. Windows: the user's"
                    + " PATH in the registry (=machine: the machine's, needs Administrator). Linux: the file"
                    + " /etc/ld.so.conf.d/cudnn-tool-<id>.conf and ldconfig (needs root).")
    String addToPath;

    @Option(names = "--env-file", paramLabel = "FILE",
            description = "After a successful install (not a dry run), append KEY=VALUE lines to FILE: CUDNN_PATH,"
                    + " CUDNN_ROOT_DIR, CUDNN_RUNTIME_DIR, CUDNN_INCLUDE_DIR, CUDNN_LIBRARY and LD_LIBRARY_PATH"
                    + " (Windows: PATH) with the runtime folder first. The GitHub Action passes $GITHUB_ENV.")
    String envFile;

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
        Path cudaPath = target.cudaPath(ctx.host()); // usage errors first, before the file is looked at
        Path prefix = target.prefix(ctx.host());
        Path env = envFile == null ? null : PathArgument.file(ctx.host(), "--env-file", envFile);
        InstallSource source = source(cudaPath);
        InstallRequest request = InstallRequest.builder().cudaPath(cudaPath).prefix(prefix).force(force).dryRun(dryRun)
                .addToPath(addToPathScope()).build();
        InstallRun run = ctx.services().installWorkflow(!noProbe, label -> ProgressBar.forContext(ctx, output, label))
                .run(source, request, env);
        return InstallView.show(ctx.screen(output), run);
    }

    /** The archive's source from --archive or --release (exit 2 for options that do not go together). */
    private InstallSource source(Path cudaPath) {
        if (archive != null && release != null) {
            throw new ToolException(ExitCode.USAGE, "--archive and --release both name what to install",
                    "pass only one: --archive FILE for a file you have, or --release VERSION to fetch it");
        }
        if (archive == null && release == null) {
            throw new ToolException(ExitCode.USAGE, "nothing to install: no --archive or --release",
                    "pass --archive FILE (an archive or wheel you have) or --release VERSION (fetched for this machine);"
                            + " see 'cudnn install --help'");
        }
        if (release == null && (cuda != null || from != null)) {
            throw new ToolException(ExitCode.USAGE, (cuda != null ? "--cuda" : "--from") + " goes with --release only",
                    "an --archive's name says its CUDA build; drop the option, or fetch with --release VERSION");
        }
        if (release == null) {
            Path file = PathArgument.file(ctx.host(), "--archive", archive);
            ArchiveName name = ArchiveFile.name(file); // exit 3 before --sha256/--manifest are read
            return new InstallSource.LocalArchive(file, checksum.expectation(ctx.host(), name, ctx.catalogue()));
        }
        if (checksum.given()) {
            throw new ToolException(ExitCode.USAGE, "--sha256 and --manifest check a file passed with --archive",
                    "drop them: a --release is checked against NVIDIA's size and sha256 in the catalogue");
        }
        ReleaseFilter filter = ReleaseFilter.parse(ctx.host(), null, null, cuda);
        FetchSource from = FetchCommand.source(ctx, this.from);
        return new InstallSource.Release((planOnly, progress) -> ctx.services().fetchRelease(filter, release, from, cudaPath,
                planOnly, progress), planned -> planned.checkExists(ctx.host(), from, Duration.ofSeconds(60)));
    }

    /** --add-to-path's scope, null without the option. */
    private SearchPathStore.Scope addToPathScope() {
        if (addToPath == null) {
            return null;
        }
        return switch (addToPath.toLowerCase(Locale.ROOT)) {
            case "user" -> SearchPathStore.Scope.USER;
            case "machine" -> SearchPathStore.Scope.MACHINE;
            default -> throw new ToolException(ExitCode.USAGE, "--add-to-path=" + addToPath
                    + " is not a search path", "use --add-to-path (the user's) or --add-to-path=machine");
        };
    }
}
