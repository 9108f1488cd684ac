package dev.cudnntool.cli;

import dev.cudnntool.cli.view.FetchView;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.host.ReleaseFilter;
import dev.cudnntool.host.fetch.FetchSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "fetch", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Downloads a cuDNN archive and checks it against NVIDIA's size and sha256.",
                "It comes from NVIDIA's redist server, or a mirror or folder (--from, CUDNN_TOOL_MIRROR).",
                "VERSION picks the archive for this machine (or --os, --arch, --cuda): the CUDA major of the",
                "toolkit found, else the newest CUDA build. It writes FILE.part, resumes it after a dropped",
                "connection, and renames it to FILE only when size and sha256 are NVIDIA's. A file already",
                "there and genuine is not downloaded again; one that differs is never overwritten.",
                "HTTPS_PROXY and NO_PROXY are honoured."},
        footerHeading = "%nExamples:%n",
        footer = {"  Download cuDNN 9.5.1 for this machine into the current folder:",
                "    cudnn fetch 9.5.1",
                "  The files, URLs and sha256 to carry to an air-gapped Windows machine with CUDA 12:",
                "    cudnn fetch --list 9.5.1 --os windows --cuda 12",
                "  From an internal mirror into a folder:",
                "    cudnn fetch cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz --from /mnt/mirror --to ~/Downloads"})
public class FetchCommand implements Callable<Integer> {
    /** The mirror when no --from is given. */
    static final String MIRROR_ENV = "CUDNN_TOOL_MIRROR";

    private final ToolContext ctx;

    @Parameters(paramLabel = "VERSION|FILE", arity = "0..1",
            description = "A release (9.5.1, 9.5.1.17) or an exact archive name from cudnn releases.")
    String what;

    @Option(names = "--list", description = "Only list the files, URLs, sizes and sha256 (without VERSION: the newest per CUDA major).")
    boolean list;

    @Mixin
    PlatformOptions platform;

    @Option(names = "--to", paramLabel = "DIR", description = "The folder to download into (default: the current folder).")
    String to;

    @Option(names = "--from", paramLabel = "URL|DIR",
            description = "A mirror laid out as NVIDIA's redist folder (BASE/cudnn/PLATFORM/FILE), or a folder holding FILE.")
    String from;

    @Option(names = "--sha256", paramLabel = "HEX",
            description = "The sha256 to check against: for a file neither the catalogue nor a manifest knows (a repack on a mirror);"
                    + " for a known one it must agree with NVIDIA's.")
    String sha256;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "Give up when no byte arrives for this long (default: ${DEFAULT-VALUE}); the .part stays.")
    int timeout;

    @Mixin
    OutputOptions output;

    public FetchCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        ReleaseFilter filter = platform.filter(ctx.host());
        if (list) {
            return FetchView.list(ctx.screen(output), filter, ctx.services().fetchList(filter, what));
        }
        if (what == null) {
            throw new ToolException(ExitCode.USAGE, "no VERSION or FILE given",
                    "name a release (cudnn fetch 9.5.1) or an archive, or list them with cudnn fetch --list");
        }
        if (timeout < 1 || timeout > 86_400) {
            throw new ToolException(ExitCode.USAGE, "--timeout " + timeout + " is out of range", "pass 1 to 86400 seconds");
        }
        Path dir = to == null ? ctx.host().currentDir() : PathArgument.of(ctx.host(), "--to", to);
        ProgressBar bar = ProgressBar.forContext(ctx, output, "downloading");
        var result = ctx.services().fetch(filter, what, sha256, source(), dir, Duration.ofSeconds(timeout), bar);
        bar.done();
        return FetchView.fetched(ctx.screen(output), result);
    }

    private FetchSource source() {
        return source(ctx, from);
    }

    /** {@code --from} when given, else {@code CUDNN_TOOL_MIRROR}, else NVIDIA's server (fetch and install --release). */
    static FetchSource source(ToolContext ctx, String from) {
        String f = from != null ? from : ctx.host().env(MIRROR_ENV);
        if (f == null) {
            return FetchSource.NVIDIA;
        }
        String option = from != null ? "--from" : MIRROR_ENV;
        return FetchSource.looksLikeUrl(f) ? FetchSource.mirror(option, f) : FetchSource.folder(PathArgument.of(ctx.host(), option, f));
    }
}
