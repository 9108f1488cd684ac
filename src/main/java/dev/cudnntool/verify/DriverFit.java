package dev.cudnntool.verify;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.DriverMinimums;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.NvidiaSmi;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The installed cuDNN's CUDA build against the driver's CUDA ceiling. Minor-version
 * compatibility (facts §6): any 13.x build runs on a driver that supports 13.0, so only a build of
 * a newer CUDA major than the ceiling needs a newer driver.
 */
final class DriverFit {
    private DriverFit() {
    }

    /** @param built the CUDA version cuDNN was built for (cudnnGetCudartVersion), or null */
    static List<Finding> findings(Host host, DriverInfo driver, CudaVersion built) {
        return findings(host, driver, built, null);
    }

    /**
     * As above; {@code release} ("9.10.2", or null) picks the driver minimum of its support-matrix row for this GPU
     * (9.10.2 on Blackwell: 570.26) instead of the CUDA major's, where the matrix holds the release.
     */
    static List<Finding> findings(Host host, DriverInfo driver, CudaVersion built, String release) {
        List<Finding> out = new ArrayList<>();
        if (built == null || driver == null || !driver.present() || driver.cudaCeiling() == null) {
            return out;
        }
        Optional<CudaVersion> ceiling = CudaVersion.parse(driver.cudaCeiling());
        if (ceiling.isEmpty()) {
            return out;
        }
        String rowMinimum = release == null ? null : dev.cudnntool.archive.catalogue.SupportMatrix.bundled()
                .fit(release, built.major(), null, dev.cudnntool.host.ReleaseFit.lowestGpu(driver), host.windows()).driverMinimum();
        Optional<String> min = rowMinimum != null ? Optional.of(rowMinimum) : DriverMinimums.minimum(built.major(), host.os());
        boolean belowMinimum = min.isPresent() && NvidiaSmi.compareVersions(driver.driverVersion(), min.get()) < 0;
        if (built.major() > ceiling.get().major() || belowMinimum) {
            out.add(Finding.error(FindingId.DRIVER_TOO_OLD, "this cuDNN is a CUDA " + built + " build but driver "
                            + driver.driverVersion() + " supports CUDA only up to " + ceiling.get()
                            + ", so cuDNN cannot create a handle or run anything on the GPU",
                    "update the NVIDIA driver to " + min.map(m -> m + " or newer (the minimum for " + (rowMinimum != null
                            ? "cuDNN " + dev.cudnntool.archive.catalogue.SupportMatrix.release(release) + " on this GPU, by NVIDIA's support matrix"
                            : "any CUDA " + built.major() + ".x") + ")").orElse("one that supports CUDA " + built.major())
                            + ", or install the cuDNN build for CUDA " + ceiling.get().major()));
        }
        return out;
    }
}
