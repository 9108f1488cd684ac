package dev.cudnntool.host;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.ReportedFacts;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code cudnn.gpu-unsupported}: a cuDNN release (verify: the installed one; install: the archive's) against the compute capability of each GPU nvidia-smi
 * lists, by NVIDIA's support matrix ({@link SupportMatrix}). A release the matrix does not hold, and a GPU whose
 * compute capability nvidia-smi did not report, are not checked. Third-party facts ({@link ReportedFacts}) that bear on
 * a GPU are {@code cudnn.gpu-reported} notes only, never NVIDIA's word.
 */
public final class GpuSupport {
    private GpuSupport() {
    }

    /**
     * @param release   the release ("9.5.1"), or null when unknown
     * @param cudaMajor the CUDA major it is built for, or null (then every variant's rows count)
     */
    public static List<Finding> findings(Host host, DriverInfo driver, String release, Integer cudaMajor) {
        return findings(host, driver, release, cudaMajor, SupportMatrix.bundled(), Catalogue::bundled);
    }

    public static List<Finding> findings(Host host, DriverInfo driver, String release, Integer cudaMajor, SupportMatrix matrix,
                                  Supplier<Catalogue> catalogue) {
        return findings(host, driver, release, cudaMajor, matrix, ReportedFacts.bundled(), catalogue);
    }

    /**
     * As above, with the third-party facts to show (#30 item 2's rest): each one about the release and CUDA major that bears
     * on a GPU listed (a claim that a build dropped GPUs below a compute capability the GPU lies below; a transcription of a
     * matrix row for a release NVIDIA's matrix does not hold) is one {@code cudnn.gpu-reported} note, "reported (not
     * NVIDIA's word)" with its source; it never adds, raises or removes an error or a warning.
     */
    public static List<Finding> findings(Host host, DriverInfo driver, String release, Integer cudaMajor, SupportMatrix matrix,
                                         ReportedFacts reported, Supplier<Catalogue> catalogue) {
        List<Finding> out = checked(host, driver, release, cudaMajor, matrix, catalogue);
        if (release != null && driver != null && driver.present()) {
            out.addAll(reportedNotes(driver, release, cudaMajor, matrix, reported, host.windows()));
        }
        return out;
    }

    private static List<Finding> reportedNotes(DriverInfo driver, String release, Integer cudaMajor, SupportMatrix matrix,
                                               ReportedFacts reported, boolean windows) {
        List<Finding> notes = new ArrayList<>();
        String version = SupportMatrix.release(release);
        for (ReportedFacts.Fact f : reported.all()) {
            if (!f.release().equals(version) || cudaMajor != null && f.cuda() != cudaMajor) {
                continue;
            }
            boolean nvidiaHolds = false;
            String bears = null;
            for (NvidiaSmi.Gpu gpu : driver.gpus()) {
                String cc = gpu.computeCapability();
                if (cc == null) {
                    continue;
                }
                nvidiaHolds = matrix.fit(release, f.cuda(), null, cc, windows).known();
                boolean below = f.belowComputeCapability() != null && CudaVersion.parse(cc).isPresent()
                        && CudaVersion.parse(f.belowComputeCapability()).isPresent()
                        && CudaVersion.parse(cc).get().compareTo(CudaVersion.parse(f.belowComputeCapability()).get()) < 0;
                if (below || f.belowComputeCapability() == null && !nvidiaHolds) {
                    bears = "the " + gpu.name() + " (compute capability " + cc + ")";
                    break;
                }
            }
            if (bears != null) {
                notes.add(Finding.info(FindingId.CUDNN_GPU_REPORTED, f.line() + " (bears on " + bears + "; "
                        + (nvidiaHolds ? "NVIDIA's support matrix holds this release and decides"
                        : "NVIDIA's support matrix does not hold this release, so nothing is decided on it") + ")"));
            }
        }
        return notes;
    }

    private static List<Finding> checked(Host host, DriverInfo driver, String release, Integer cudaMajor, SupportMatrix matrix,
                                         Supplier<Catalogue> catalogue) {
        List<Finding> out = new ArrayList<>();
        if (release == null || driver == null || !driver.present()) {
            return out;
        }
        List<Integer> majors = cudaMajor != null ? List.of(cudaMajor)
                : matrix.all().stream().filter(r -> r.release().equals(SupportMatrix.release(release))).map(SupportMatrix.Row::cuda)
                .distinct().toList();
        for (NvidiaSmi.Gpu gpu : driver.gpus()) {
            String cc = gpu.computeCapability();
            if (cc == null) {
                continue;
            }
            Optional<String> cudaDropped = cudaMajor == null ? Optional.empty() : DriverMinimums.gpuDroppedBy(cudaMajor, cc);
            List<SupportMatrix.Fit> fits = majors.stream().map(m -> matrix.fit(release, m, null, cc, host.windows()))
                    .filter(SupportMatrix.Fit::known).toList();
            if (fits.isEmpty()) {
                // a release the matrix does not hold: a warning only where the releases around it lack the GPU too
                Optional<String> dropped = majors.stream().map(m -> matrix.droppedBefore(release, m, cc)).flatMap(Optional::stream)
                        .findFirst();
                if (dropped.isPresent() && majors.size() == 1) {
                    out.add(Finding.warn(FindingId.CUDNN_GPU_UNSUPPORTED, "cuDNN " + SupportMatrix.release(release) + " for CUDA "
                                    + majors.get(0) + " probably does not support the " + gpu.name() + " (compute capability " + cc
                                    + "): its release is " + dropped.get(), newestSupporting(host, cc, cudaMajor, matrix, catalogue)));
                    break;
                }
                if (cudaDropped.isPresent()) { // a release the matrix does not hold: a warning, as for the releases around it
                    out.add(Finding.warn(FindingId.CUDNN_GPU_UNSUPPORTED, "cuDNN " + SupportMatrix.release(release) + " for CUDA "
                            + cudaMajor + " does not support the " + gpu.name() + " (compute capability " + cc + "): "
                            + cudaDropped.get(), newestSupporting(host, cc, cudaMajor, matrix, catalogue)));
                    break;
                }
                continue;
            }
            if (cudaDropped.isPresent()) { // whatever the matrix holds for the release
                out.add(Finding.error(FindingId.CUDNN_GPU_UNSUPPORTED, "cuDNN " + SupportMatrix.release(release) + " for CUDA "
                        + cudaMajor + " does not support the " + gpu.name() + " (compute capability " + cc + "): "
                        + cudaDropped.get() + " (" + fits.get(0).source() + " lists it; CUDA 13's own release notes do not)",
                        newestSupporting(host, cc, cudaMajor, matrix, catalogue)));
                break;
            }
            if (fits.stream().anyMatch(f -> Boolean.TRUE.equals(f.gpuOk()))) {
                continue;
            }
            String newest = newestSupporting(host, cc, cudaMajor, matrix, catalogue);
            out.add(Finding.error(FindingId.CUDNN_GPU_UNSUPPORTED, "cuDNN " + SupportMatrix.release(release)
                            + (cudaMajor == null ? "" : " for CUDA " + cudaMajor) + " does not support the " + gpu.name()
                            + " (compute capability " + cc + "): " + fits.get(0).why() + " (" + fits.get(0).source() + ")",
                    newest));
            break; // one finding names the fix; the same GPU model twice says nothing new
        }
        return out;
    }

    /**
     * The newest catalogued cuDNN for this machine that a GPU of compute capability {@code cc} can still use on a
     * driver it can get: its support matrix lists the GPU, CUDA did not drop it, and the CUDA major's driver minimum
     * is within the GPU's newest driver branch ({@link DriverMinimums#newestDriverBranch}). A K80 (3.7, driver 470)
     * gets a CUDA 11 build. Empty without a catalogue or a match.
     */
    public static Optional<String> stillUsable(Host host, String cc) {
        String os = host.windows() ? "windows" : "linux";
        try {
            SupportMatrix matrix = SupportMatrix.bundled();
            for (CatalogueEntry e : Catalogue.bundled().select(os, ReleaseFilter.hostArches(host), null, null)) {
                int major = Integer.parseInt(e.cudaVariant().split("\\.")[0]);
                Optional<String> min = DriverMinimums.minimum(major, host.os());
                if (!e.disputed() && DriverMinimums.gpuDroppedBy(major, cc).isEmpty() && min.isPresent()
                        && !DriverMinimums.outOfReach(cc, min.get())
                        && Boolean.TRUE.equals(matrix.fit(e.version(), major, null, cc, host.windows()).gpuOk())) {
                    return Optional.of("cuDNN " + SupportMatrix.release(e.version()) + " for CUDA " + major + " (" + e.fileName()
                            + ", needs driver " + min.get() + " or newer)");
                }
            }
        } catch (RuntimeException ignored) {
            // no catalogue: nothing to name
        }
        return Optional.empty();
    }

    /** The fix: the newest catalogued archive for this machine whose release's matrix supports {@code cc}. */
    private static String newestSupporting(Host host, String cc, Integer cudaMajor, SupportMatrix matrix,
                                           Supplier<Catalogue> catalogue) {
        String os = host.windows() ? "windows" : "linux";
        try {
            List<CatalogueEntry> candidates = new ArrayList<>(catalogue.get().select(os, ReleaseFilter.hostArches(host), cudaMajor, null));
            if (cudaMajor != null) {
                candidates.addAll(catalogue.get().select(os, ReleaseFilter.hostArches(host), null, null));
            }
            for (CatalogueEntry e : candidates) {
                int major = Integer.parseInt(e.cudaVariant().split("\\.")[0]);
                if (!e.disputed() && DriverMinimums.gpuDroppedBy(major, cc).isEmpty()
                        && Boolean.TRUE.equals(matrix.fit(e.version(), major, null, cc, host.windows()).gpuOk())) {
                    Optional<String> url = e.downloadUrl();
                    return "install cuDNN " + SupportMatrix.release(e.version()) + ", the newest catalogued release whose support"
                            + " matrix lists this GPU: " + e.fileName() + url.map(u -> " from " + u).orElse(" (" + e.whereToDownload() + ")");
                }
            }
        } catch (RuntimeException ignored) {
            // no catalogue: the general fix below
        }
        return "install a cuDNN release whose support matrix lists compute capability " + cc
                + " (cudnn releases --gpu " + cc + " lists them)";
    }
}
