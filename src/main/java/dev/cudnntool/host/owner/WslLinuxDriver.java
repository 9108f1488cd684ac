package dev.cudnntool.host.owner;

import dev.cudnntool.Arch;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.Platform;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * #33 item 3: inside WSL2 the NVIDIA driver comes from Windows ({@code /usr/lib/wsl/lib/libcuda.so}); a Linux driver
 * installed inside the distribution (a {@code libcuda.so.1} in the multiarch folder that a {@code libnvidia-compute-*},
 * {@code nvidia-driver-*} or {@code nvidia-utils-*} package owns, or an {@code nvidia-smi} in {@code /usr/bin} that is not
 * WSL's) comes before it and breaks CUDA. {@code driver.wsl-linux-driver}, an error, with "remove the Linux driver
 * packages; WSL's driver comes from Windows" as its fix.
 */
public final class WslLinuxDriver {
    static final String WSL_LIB = "/usr/lib/wsl/lib";

    private WslLinuxDriver() {
    }

    public static List<Finding> findings(Host host, Platform platform) {
        if (host.windows() || platform == null || !platform.wsl()) {
            return List.of();
        }
        Path wsl = host.path(WSL_LIB);
        if (!Files.exists(wsl.resolve("libcuda.so")) && !Files.exists(wsl.resolve("libcuda.so.1"))) {
            return List.of(); // no driver from Windows to be hidden: driver.missing or driver.libcuda-missing says the rest
        }
        Path libcuda = host.path(host.arch() == Arch.AARCH64 || host.arch() == Arch.SBSA ? "/usr/lib/aarch64-linux-gnu"
                : "/usr/lib/x86_64-linux-gnu").resolve("libcuda.so.1");
        Path smi = host.path("/usr/bin/nvidia-smi");
        List<String> named = new ArrayList<>();
        boolean linuxLibcuda = Files.exists(libcuda, LinkOption.NOFOLLOW_LINKS) && !fromWsl(host, libcuda, wsl);
        if (linuxLibcuda) {
            named.add(libcuda.toString());
            Path real = host.realPath(libcuda);
            if (!real.equals(libcuda)) {
                named.add(real.toString());
            }
        }
        boolean linuxSmi = Files.exists(smi, LinkOption.NOFOLLOW_LINKS) && !fromWsl(host, smi, wsl);
        if (linuxSmi) {
            named.add(smi.toString());
        }
        List<String> packages = named.isEmpty() ? List.of() : DriverPackages.owning(host.path("/var/lib/dpkg"), named);
        if (!linuxSmi && packages.isEmpty()) {
            return List.of(); // a libcuda.so.1 no driver package owns, and no Linux nvidia-smi: not enough to say
        }
        List<String> what = new ArrayList<>();
        if (linuxLibcuda) {
            what.add(libcuda.toString());
        }
        if (linuxSmi) {
            what.add(smi.toString());
        }
        String message = "this is WSL2, whose NVIDIA driver comes from Windows (" + WSL_LIB + "), but a Linux NVIDIA driver is"
                + " installed inside it: " + String.join(" and ", what) + (packages.isEmpty() ? " (from no package: the .run installer)"
                : " (from " + String.join(", ", packages) + ")") + "; the loader finds its libcuda.so.1 before WSL's, and CUDA"
                + " fails with it (no device, or the driver and its library disagree)";
        Fix fix = packages.isEmpty()
                ? Fix.text("remove the Linux driver installed inside WSL (sudo nvidia-uninstall, the .run installer's own); WSL's"
                + " driver comes from Windows: keep the NVIDIA driver up to date there")
                : Fix.packageManager("remove the Linux driver packages (sudo apt remove --purge " + String.join(" ",
                packages.stream().map(p -> Fix.quote(Fix.Shell.POSIX, p)).toList()) + "); WSL's driver comes from Windows:"
                + " keep the NVIDIA driver up to date there, and install no Linux driver inside WSL");
        return List.of(Finding.error(FindingId.DRIVER_WSL_LINUX_DRIVER, message, fix));
    }

    /** The file is WSL's own (a link into /usr/lib/wsl/lib, as WSL's nvidia-smi link in /usr/bin may be). */
    private static boolean fromWsl(Host host, Path file, Path wsl) {
        return host.realPath(file).startsWith(host.realPath(wsl));
    }
}
