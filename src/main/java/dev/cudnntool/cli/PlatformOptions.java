package dev.cudnntool.cli;

import dev.cudnntool.host.Host;
import dev.cudnntool.host.ReleaseFilter;
import picocli.CommandLine.Option;

/**
 * --os, --arch and --cuda: the platform an archive is for, declared once for every command that takes
 * all three ({@code releases}, {@code fetch}) and checked by {@link ReleaseFilter#parse} alone. Where a
 * command words an option's help its own way, {@code Options.properties} (the root command's resource
 * bundle) holds that text under the command's key ({@code cudnn.fetch.platform.os}); the annotation's
 * text is everyone else's.
 */
public class PlatformOptions {
    @Option(names = "--os", paramLabel = "OS", descriptionKey = "platform.os",
            description = "linux, windows or osx (default: this machine's).")
    String os;

    @Option(names = "--arch", paramLabel = "ARCH", descriptionKey = "platform.arch",
            description = "x86_64, sbsa, aarch64 (Jetson), ppc64le or arm64 (default: this machine's).")
    String arch;

    @Option(names = "--cuda", paramLabel = "VERSION", descriptionKey = "platform.cuda",
            description = "Only archives for this CUDA version: 12 or 12.4; it decides the toolkit fit instead of the toolkit found.")
    String cuda;

    /** The archives these options ask for on this host (its own OS and CPU where not given). */
    ReleaseFilter filter(Host host) {
        return ReleaseFilter.parse(host, os, arch, cuda);
    }
}
