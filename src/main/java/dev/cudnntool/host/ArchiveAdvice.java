package dev.cudnntool.host;

import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Which archive a fix text names: never one made up by editing a file name, always the newest the
 * catalogue holds for that OS, CPU and CUDA major whose driver minimum the driver meets (a driver
 * not known meets every minimum) and, by NVIDIA's support matrix of its release, the GPU's compute capability and the
 * driver minimum of the row that fits (the CUDA major's minimum where the matrix does not hold the release); never a
 * disputed one. "Newest" is the catalogue's order: the
 * newest cuDNN release, then the newer CUDA variant.
 *
 * @param catalogue what NVIDIA published (loaded only when a fix needs it)
 * @param driver    the driver the archive must run on; {@link DriverInfo#NONE} when not known
 */
public record ArchiveAdvice(Supplier<Catalogue> catalogue, DriverInfo driver, Supplier<SupportMatrix> matrix) {
    /** Without support-matrix data: the driver minimum of each CUDA major, no GPU check. */
    public ArchiveAdvice(Supplier<Catalogue> catalogue, DriverInfo driver) {
        this(catalogue, driver, SupportMatrix::empty);
    }

    /** The built-in catalogue and support matrix, this driver (and its GPUs' compute capability, when nvidia-smi gave it). */
    public static ArchiveAdvice bundled(DriverInfo driver) {
        return new ArchiveAdvice(Catalogue::bundled, driver == null ? DriverInfo.NONE : driver, SupportMatrix::bundled);
    }

    /** What the advice chose, or why it chose nothing. */
    public record Pick(Optional<CatalogueEntry> entry, String text) {
    }

    /**
     * The same release built for another platform ({@code sameRelease}, NVIDIA's spelling) when the catalogue
     * holds it and the driver fits its CUDA major, else {@link #newest}.
     */
    public Pick sameOrNewest(String sameRelease, OsFamily os, Arch arch, int cudaMajor) {
        Pick newest = newest(os, arch, cudaMajor);
        if (newest.entry().isEmpty()) {
            return newest;
        }
        Optional<CatalogueEntry> same = catalogue.get().lookup(sameRelease);
        if (same.isEmpty() || same.equals(newest.entry())) {
            return newest;
        }
        CatalogueEntry e = same.get();
        CatalogueEntry n = newest.entry().get();
        return new Pick(same, e.fileName() + " " + e.from() + " (the same release; the newest for CUDA " + cudaMajor + " is "
                + n.fileName() + " " + n.from() + ")");
    }

    /**
     * The newest catalogued archive for {@code os}/{@code arch} and CUDA {@code cudaMajor} that fits the
     * driver. Its text reads "cudnn-….tar.xz from https://…" (or from NVIDIA's archive page behind the
     * login), or says that no such archive is catalogued, or that none fits the driver.
     */
    public Pick newest(OsFamily os, Arch arch, int cudaMajor) {
        String osLabel = os == OsFamily.WINDOWS ? "windows" : "linux";
        String where = "CUDA " + cudaMajor + " on " + osLabel + "/" + arch.label();
        List<CatalogueEntry> all = catalogue.get().select(osLabel, Set.of(arch.label()), cudaMajor, null).stream()
                .filter(e -> !e.disputed()).toList();
        if (all.isEmpty()) {
            return new Pick(Optional.empty(), "NVIDIA has published no cuDNN build for " + where + " (none in the built-in catalogue)");
        }
        String gpu = ReleaseFit.lowestGpu(driver);
        boolean windows = os == OsFamily.WINDOWS;
        String firstMin = null;
        boolean gpuRefused = false;
        for (CatalogueEntry e : all) {
            SupportMatrix.Fit fit = matrix.get().fit(e.version(), cudaMajor, null, gpu, windows);
            if (Boolean.FALSE.equals(fit.gpuOk()) || matrix.get().droppedBefore(e.version(), cudaMajor, gpu).isPresent()
                    || matrix.get().droppedBetween(e.version(), cudaMajor, gpu).isPresent()) {
                gpuRefused = true;
                continue;
            }
            Optional<String> min = DriverMinimums.minimum(fit, cudaMajor, os);
            if (driver.present() && min.isPresent() && NvidiaSmi.compareVersions(driver.driverVersion(), min.get()) < 0) {
                firstMin = firstMin == null ? min.get() : firstMin;
                continue;
            }
            return new Pick(Optional.of(e), e.fileName() + " " + e.from() + " (the newest cuDNN for " + where
                    + (driver.present() ? " that fits driver " + driver.driverVersion() : "")
                    + (gpu != null && fit.known() ? " and compute capability " + gpu : "") + ")");
        }
        if (firstMin != null) {
            return new Pick(Optional.empty(), "no cuDNN build for " + where + " fits driver " + driver.driverVersion()
                    + " (CUDA " + cudaMajor + " needs " + firstMin + " or newer; update the driver first)");
        }
        return new Pick(Optional.empty(), "no catalogued cuDNN build for " + where + " supports compute capability " + gpu
                + (gpuRefused ? " by NVIDIA's support matrix" : ""));
    }
}
