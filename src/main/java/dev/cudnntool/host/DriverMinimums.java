package dev.cudnntool.host;

import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import java.util.Optional;

/**
 * The oldest driver that runs a CUDA major through minor-version compatibility (facts §6).
 * CUDA 13 on Windows has no published minimum; the Linux branch (580) is used for both, and
 * the message says so.
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

    /** The driver minimum of the support-matrix row that fits, where the matrix publishes one; else the CUDA major's. */
    public static Optional<String> minimum(SupportMatrix.Fit fit, int cudaMajor, OsFamily os) {
        return fit.driverMinimum() != null ? Optional.of(fit.driverMinimum()) : minimum(cudaMajor, os);
    }
}
