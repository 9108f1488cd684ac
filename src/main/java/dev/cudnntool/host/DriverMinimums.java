package dev.cudnntool.host;

import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import java.util.Optional;

/**
 * The one table of GPU-generation and driver facts per CUDA major: the oldest driver that runs a
 * CUDA major through minor-version compatibility (facts §6), and the lowest GPU generation a CUDA
 * major builds for. CUDA 13 on Windows has no published minimum; the Linux branch (580) is used for
 * both, and the message says so. CUDA 13 dropped Maxwell, Pascal and Volta (compute capability
 * below 7.5): no build for CUDA 13 runs on such a GPU, whatever a support-matrix row says. NVIDIA,
 * https://docs.nvidia.com/cuda/cuda-features-archive/index.html (CUDA 13.0 Features): "CUDA 13.0 supports all
 * NVIDIA architectures from Turing through Grace Blackwell." and "CUDA Toolkit releases in the 13.x series are
 * ABI-compatible with drivers corresponding to the same series (r580 and newer)."
 */
public final class DriverMinimums {
    private DriverMinimums() {
    }

    public static Optional<String> minimum(int cudaMajor, OsFamily os) {
        boolean win = os == OsFamily.WINDOWS;
        return switch (cudaMajor) {
            case 11 -> Optional.of(win ? "452.39" : "450.80.02");
            case 12 -> Optional.of(win ? "527.41" : "525.60.13");
            case 13 -> Optional.of(win ? "580" : "580.65.06");
            default -> Optional.empty();
        };
    }

    /** The lowest compute capability ({major, minor}) any build for {@code cudaMajor} runs on, where a CUDA release dropped older GPUs. */
    public static Optional<int[]> lowestGpu(int cudaMajor) {
        return cudaMajor >= 13 ? Optional.of(new int[] {7, 5}) : Optional.empty();
    }

    /**
     * Why a build for {@code cudaMajor} cannot run on a GPU of compute capability {@code cc} ("6.1"),
     * or empty when the CUDA major itself does not rule it out (or {@code cc} is not a compute capability).
     */
    public static Optional<String> gpuDroppedBy(int cudaMajor, String cc) {
        Optional<int[]> low = lowestGpu(cudaMajor);
        if (low.isEmpty() || cc == null || !cc.matches("\\d{1,2}\\.\\d{1,2}")) {
            return Optional.empty();
        }
        String[] p = cc.split("\\.");
        int major = Integer.parseInt(p[0]);
        int minor = Integer.parseInt(p[1]);
        int[] l = low.get();
        if (major > l[0] || (major == l[0] && minor >= l[1])) {
            return Optional.empty();
        }
        return Optional.of("CUDA " + cudaMajor + " dropped Maxwell, Pascal and Volta (compute capability below " + l[0] + "." + l[1]
                + "): no CUDA " + cudaMajor + " build runs on compute capability " + cc);
    }

    /**
     * The newest driver branch NVIDIA ships for a GPU generation, where it stopped: Tesla (compute capability 1.x,
     * GeForce 8 and 9) 340, Fermi (2.x) 390, Kepler (3.x) 470, Maxwell, Pascal and Volta (5.0 to 7.2) 580. Empty for
     * Turing and later, or when {@code cc} is not a compute capability. NVIDIA's own words (docs/gpu-generations.md
     * has the full list):
     * <ul>
     * <li>https://forums.developer.nvidia.com/t/unix-graphics-feature-deprecation-schedule/60588 (NVIDIA's
     * deprecation schedule): "Fermi-based GPUs are no longer supported starting with release 396. These GPUs were
     * supported through the release 390 legacy branch"; and "The release 580 series will be the last to support GPUs
     * based on the Maxwell, Pascal, and Volta architectures."</li>
     * <li>https://forums.developer.nvidia.com/t/current-graphics-driver-releases/28500 (NVIDIA's list): "Legacy
     * releases 470.239.06 (x86_64) - GKxxx “Kepler” GPUs, 390.157 (x86 / x86_64 / ARM) - GF1xx “Fermi” GPUs,
     * 340.108 (x86 / x86_64) - GeForce 8 and 9 series GPUs".</li>
     * <li>https://docs.nvidia.com/datacenter/tesla/drivers/index.html#cuda-drivers ("CUDA and Architecture Matrix"):
     * Fermi 2.0, last driver support R390; Kepler 3.0/3.2 and 3.5/3.7, R470.</li>
     * </ul>
     * The 1.x row was 390 before #33's check (written from memory); it is 340.
     */
    public static Optional<Integer> newestDriverBranch(String cc) {
        if (cc == null || !cc.matches("\\d{1,2}\\.\\d{1,2}")) {
            return Optional.empty();
        }
        String[] p = cc.split("\\.");
        int major = Integer.parseInt(p[0]);
        int minor = Integer.parseInt(p[1]);
        if (major <= 1) {
            return Optional.of(340);
        }
        if (major == 2) {
            return Optional.of(390);
        }
        if (major <= 4) {
            return Optional.of(470);
        }
        if (major < 7 || (major == 7 && minor < 5)) {
            return Optional.of(580);
        }
        return Optional.empty();
    }

    /**
     * Whether no driver this GPU can get reaches {@code minimum} ("525.60.13"): its newest branch is older. Then
     * "update the driver" is no fix; only a build for an older CUDA major is.
     */
    public static boolean outOfReach(String cc, String minimum) {
        Optional<Integer> newest = newestDriverBranch(cc);
        if (newest.isEmpty() || minimum == null) {
            return false;
        }
        String branch = minimum.split("\\.")[0];
        return branch.matches("\\d{1,4}") && Integer.parseInt(branch) > newest.get();
    }

    /** The driver minimum of the support-matrix row that fits, where the matrix publishes one; else the CUDA major's. */
    public static Optional<String> minimum(SupportMatrix.Fit fit, int cudaMajor, OsFamily os) {
        return fit.driverMinimum() != null ? Optional.of(fit.driverMinimum()) : minimum(cudaMajor, os);
    }
}
