package dev.cudnntool.cli;

import dev.cudnntool.cli.view.ReleasesView;

import dev.cudnntool.host.GpuCapability;
import dev.cudnntool.host.ReleaseFilter;
import dev.cudnntool.host.ReleaseFit;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "releases", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Lists the cuDNN archives NVIDIA published for this platform, newest first.",
                "Each comes with the URL NVIDIA serves it from without a login (older archives from its older folder).",
                "The list is the built-in catalogue; it marks the archives that fit the CUDA toolkit found",
                "and this machine's driver, or the machine you describe with --cuda, --driver and --gpu;",
                "NVIDIA's support matrix of each release decides the toolkit minor, the GPU and the driver minimum.",
                "--for picks the cuDNN a framework release pins. --refresh reads NVIDIA's manifests the catalogue",
                "lacks into the cache; rows known only from a cached manifest are marked [manifest]."},
        footerHeading = "%nExamples:%n",
        footer = {"  Which archive to download for this machine:",
                "    cudnn releases",
                "  The archives for Windows and CUDA 12.4, from any machine:",
                "    cudnn releases --os windows --cuda 12.4",
                "  Which archive fits a Linux machine with driver 535 and an RTX 2080:",
                "    cudnn releases --os linux --arch x86_64 --driver 535.104.05 --gpu \"RTX 2080\"",
                "  The cuDNN that torch 2.5.1 pins, for Windows:",
                "    cudnn releases --for torch==2.5.1 --os windows",
                "  Releases NVIDIA published after this tool was built (cached for fetch and install):",
                "    cudnn releases --refresh"})
public class ReleasesCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Mixin
    PlatformOptions platform;

    @Option(names = "--driver", paramLabel = "VERSION",
            description = "Decide the driver fit for this driver (535.104.05, 536.25) instead of this machine's nvidia-smi.")
    String driver;

    @Option(names = "--gpu", paramLabel = "GPU",
            description = "The GPU: a compute capability (6.1, sm_61) or a common name (\"RTX 2080\", A100, H100).")
    String gpu;

    @Option(names = "--for", paramLabel = "FRAMEWORK==VERSION",
            description = "The cuDNN a framework release pins or was tested with: torch==2.5.1, tensorflow==2.16.1,"
                    + " onnxruntime-gpu==1.19.2, jax==0.4.28 (a small sourced table kept with the catalogue).")
    String forFramework;

    @Option(names = "--cuda-path", paramLabel = "DIR", description = "The CUDA toolkit to match (default: found as install finds it).")
    String cudaPath;

    @Option(names = "--refresh",
            description = "Read the redist folder's listing (NVIDIA's, or --from's, CUDNN_TOOL_MIRROR's) and cache the manifests"
                    + " of releases the catalogue lacks, so they are listed (and fetched) too.")
    boolean refresh;

    @Option(names = "--from", paramLabel = "URL|DIR",
            description = "A mirror laid out as NVIDIA's redist folder, or a folder holding the manifests (as cudnn fetch).")
    String from;

    @Mixin
    OutputOptions output;

    public ReleasesCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        ReleaseFilter filter = platform.filter(ctx.host());
        ReleaseFit.Asked asked = new ReleaseFit.Asked(driver == null ? null : ReleaseFilter.driverVersion(driver),
                gpu == null ? null : GpuCapability.parse(gpu),
                forFramework == null ? null : filter.pin(ctx.services().frameworkPins(), forFramework));
        var manifests = ctx.services().releaseManifests(refresh, FetchCommand.source(ctx, from));
        return ReleasesView.show(ctx.screen(output), ctx.services().releases(filter, cudaPath, asked, manifests), manifests);
    }
}
