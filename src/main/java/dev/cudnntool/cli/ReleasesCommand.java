package dev.cudnntool.cli;

import dev.cudnntool.host.ReleaseFilter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "releases", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Lists the cuDNN archives NVIDIA published for this platform, newest first.",
                "The list is the built-in catalogue; it marks the archives that fit the CUDA toolkit found",
                "and this machine's driver."},
        footerHeading = "%nExamples:%n",
        footer = {"  Which archive to download for this machine:",
                "    cudnn releases",
                "  The archives for Windows and CUDA 12.4, from any machine:",
                "    cudnn releases --os windows --cuda 12.4"})
public class ReleasesCommand implements Callable<Integer> {
    private final ToolContext ctx;

    @Option(names = "--os", paramLabel = "OS", description = "linux, windows or osx (default: this machine's).")
    String os;

    @Option(names = "--arch", paramLabel = "ARCH", description = "x86_64, sbsa, aarch64 (Jetson), ppc64le or arm64 (default: this machine's).")
    String arch;

    @Option(names = "--cuda", paramLabel = "VERSION", description = "Only archives for this CUDA version: 12 or 12.4.")
    String cuda;

    @Option(names = "--cuda-path", paramLabel = "DIR", description = "The CUDA toolkit to match (default: found as install finds it).")
    String cudaPath;

    @Mixin
    OutputOptions output;

    public ReleasesCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        ReleaseFilter filter = ReleaseFilter.parse(ctx.host(), os, arch, cuda);
        return ReleasesView.show(ctx, output, ctx.services().releases(filter, cudaPath));
    }
}
