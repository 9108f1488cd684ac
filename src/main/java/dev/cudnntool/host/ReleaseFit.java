package dev.cudnntool.host;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.FrameworkPins;
import dev.cudnntool.archive.catalogue.ReportedFacts;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How each archive of the catalogue fits a machine: its CUDA major against the toolkit's, and by the
 * rows of NVIDIA's support matrix for its release and CUDA variant ({@link SupportMatrix}) the toolkit
 * minor, the GPU's compute capability and the driver minimum of the row that fits (the driver minimum
 * of its CUDA major when the matrix does not know the release), and which one to take (the newest
 * that fits, never a disputed one). The machine is this one, or the one the user describes with
 * {@code --cuda}, {@code --driver} and {@code --gpu}. What {@code cudnn releases} lists; the
 * command only renders it.
 */
public final class ReleaseFit {
    private ReleaseFit() {
    }

    /**
     * One archive, marked. {@code toolkitFits}/{@code driverOk} are absent when unknown (no toolkit, no driver, another
     * machine) and {@code toolkitFits} when {@code --cuda} chose the archives. {@code cudaOk} says whether NVIDIA's support
     * matrix of the release lists the toolkit's minor (--cuda 12.4's, or the toolkit found's); {@code gpuOk} is absent when no GPU is known or the support matrix does not
     * know the release; {@code gpuUncertain} is true (else absent) for a release the matrix does not hold between one
     * that supports the GPU and one that does not (never recommended); {@code matrix} is the page of the support-matrix rows that decided, {@code why} why a row does
     * not fit the toolkit or the GPU; {@code reported} the third-party facts about the release and CUDA major (absent when
     * none; never NVIDIA's word: they add a note, or make a release the matrix does not hold "not known" for a GPU below
     * a claim's compute capability). {@code url} is NVIDIA's redist URL, null
     * (and {@code download} says where the file is) for an archive no redist manifest lists.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Row(String fileName, String version, String os, String arch, String cudaVariant, String format,
                      String sha256, List<String> candidates, Long size, String releaseDate,
                      @JsonInclude(JsonInclude.Include.ALWAYS) String url, String download, Boolean toolkitFits,
                      String driverMinimum, Boolean driverOk, Boolean cudaOk, Boolean gpuOk, Boolean gpuUncertain, String matrix, String why,
                      boolean recommended, List<ReportedFacts.Fact> reported,
                      @JsonInclude(JsonInclude.Include.ALWAYS) String source, String manifestRead) {
        /** Where a row comes from: the built-in catalogue, or a cached NVIDIA manifest only. */
        public static final String CATALOGUE = "catalogue";
        public static final String MANIFEST = "manifest";

        /** The same row, known only from an NVIDIA manifest cached and read at {@code read} (#30 item 2). */
        public Row fromManifest(Instant read) {
            return new Row(fileName, version, os, arch, cudaVariant, format, sha256, candidates, size, releaseDate, url, download,
                    toolkitFits, driverMinimum, driverOk, cudaOk, gpuOk, gpuUncertain, matrix, why, recommended, reported,
                    MANIFEST, read.toString());
        }
    }

    /**
     * What the user asked about another machine (each null when not asked): {@code --driver}, {@code --gpu}, and
     * {@code --for}'s pin (the rows are then that pin's cuDNN release for its CUDA major).
     */
    public record Asked(String driver, GpuCapability gpu, FrameworkPins.Pin pin) {
        public static final Asked NOTHING = new Asked(null, null, null);

        public Asked(String driver, GpuCapability gpu) {
            this(driver, gpu, null);
        }
    }

    /**
     * What {@code cudnn releases} shows: the archives the filter selects, newest first, marked against
     * this machine's toolkit and driver when the filter's platform is this machine's, or against what was asked.
     *
     * @param thisMachine the filter's OS and CPU are this machine's
     * @param toolkit     this machine's toolkit; null when none was found, {@code --cuda} was given or the platform is another
     * @param driver      the driver asked, or this machine's; {@link DriverInfo#NONE} when neither is known
     * @param asked       what the user described
     * @param gpu         the compute capability the rows were checked against: {@code --gpu}'s, else on this machine's
     *                    platform the lowest nvidia-smi reported; null when none is known
     */
    public record Listing(ReleaseFilter filter, boolean thisMachine, Toolkit toolkit, DriverInfo driver, Asked asked,
                          String gpu, List<Row> rows) {
        /** Something the user asked decides the fit ({@code --cuda}, {@code --driver}, {@code --gpu}, {@code --for}). */
        public boolean askedAnything() {
            return filter.cuda() != null || asked.driver() != null || asked.gpu() != null || asked.pin() != null;
        }

        /** The same listing, the rows of archives known only from a cached manifest marked with when it was read. */
        public Listing withManifestRows(Map<String, Instant> readByFile) {
            if (readByFile.isEmpty()) {
                return this;
            }
            List<Row> marked = rows.stream().map(r -> readByFile.containsKey(r.fileName()) ? r.fromManifest(readByFile.get(r.fileName())) : r)
                    .toList();
            return new Listing(filter, thisMachine, toolkit, driver, asked, gpu, marked);
        }

        /** How the recommended row is starred: for this machine only when nothing asked about another. */
        public String recommendation() {
            if (askedAnything()) {
                return "newest that fits what you asked";
            }
            return thisMachine ? "newest that fits this machine" : "newest";
        }
    }

    /** As {@link #list(Host, Catalogue, ReleaseFilter, String, Asked)}, nothing asked. */
    public static Listing list(Host host, Catalogue catalogue, ReleaseFilter filter, String cudaPath) {
        return list(host, catalogue, filter, cudaPath, Asked.NOTHING);
    }

    /**
     * Lists the catalogue's archives for {@code filter}. The toolkit is {@code --cuda}'s when given, else on this
     * machine's platform the one install finds (or {@code cudaPath}); the driver is {@code --driver}'s when given,
     * else on this machine's platform nvidia-smi's.
     */
    public static Listing list(Host host, Catalogue catalogue, ReleaseFilter filter, String cudaPath, Asked asked) {
        return list(host, catalogue, SupportMatrix.bundled(), filter, cudaPath, asked);
    }

    /** As above, against a given support matrix (tests). */
    public static Listing list(Host host, Catalogue catalogue, SupportMatrix matrix, ReleaseFilter filter, String cudaPath,
                               Asked asked) {
        boolean thisMachine = filter.thisMachine(host);
        Toolkit toolkit = null;
        DriverInfo driver = DriverInfo.NONE;
        if (thisMachine && filter.cuda() == null) {
            toolkit = ToolkitLocator.locate(host, cudaPath == null ? null : host.path(cudaPath), null).chosen();
        }
        if (asked.driver() != null) {
            driver = new DriverInfo(null, asked.driver(), null, List.of());
        } else if (thisMachine) {
            driver = DriverCheck.check(host, Platform.detect(host), null).driver();
        }
        String gpu = asked.gpu() != null ? asked.gpu().computeCapability() : thisMachine ? lowestGpu(driver) : null;
        FrameworkPins.Pin pin = asked.pin();
        Integer major = filter.cudaMajor() != null ? filter.cudaMajor() : pin != null ? Integer.valueOf(pin.cuda()) : null;
        List<CatalogueEntry> archives = catalogue.select(filter.os(), filter.arches(), major, filter.cudaMinor());
        if (pin != null) {
            archives = archives.stream().filter(e -> pin.matches(e.version())).toList();
        }
        int[] minor = filter.cudaMinor() != null ? new int[] {filter.cudaMajor(), filter.cudaMinor()}
                : toolkit != null && toolkit.version() != null ? new int[] {toolkit.version().major(), toolkit.version().minor()} : null;
        return new Listing(filter, thisMachine, toolkit, driver, asked, gpu,
                mark(archives, filter.family(), toolkit, driver, matrix, minor, gpu));
    }

    /** Whether compute capability {@code gpu} lies below {@code bound} (false when either is unknown). */
    private static boolean below(String gpu, String bound) {
        Optional<CudaVersion> g = gpu == null ? Optional.empty() : CudaVersion.parse(gpu);
        Optional<CudaVersion> b = bound == null ? Optional.empty() : CudaVersion.parse(bound);
        return g.isPresent() && b.isPresent() && g.get().compareTo(b.get()) < 0;
    }

    /** The lowest compute capability among the GPUs nvidia-smi listed (the one that limits the choice), or null. */
    public static String lowestGpu(DriverInfo driver) {
        return driver.gpus().stream().map(NvidiaSmi.Gpu::computeCapability).filter(c -> c != null)
                .min(Comparator.comparing(CudaVersion::parse, (a, b) -> a.orElseThrow().compareTo(b.orElseThrow())))
                .orElse(null);
    }

    /**
     * Marks {@code archives} (newest first) for an OS family, against a toolkit (null: none known)
     * and a driver ({@link DriverInfo#NONE}: none known); the first that fits is recommended.
     */
    public static List<Row> mark(List<CatalogueEntry> archives, OsFamily family, Toolkit toolkit, DriverInfo driver) {
        int[] minor = toolkit == null || toolkit.version() == null ? null : new int[] {toolkit.version().major(), toolkit.version().minor()};
        return mark(archives, family, toolkit, driver, SupportMatrix.empty(), minor, null);
    }

    /**
     * As above, with the support matrix: {@code minor} is the toolkit's major.minor to look up (--cuda 12.4's, or the
     * toolkit's; null when not known), {@code gpu} the compute capability (null when not known).
     */
    public static List<Row> mark(List<CatalogueEntry> archives, OsFamily family, Toolkit toolkit, DriverInfo driver,
                                 SupportMatrix matrix, int[] minor, String gpu) {
        return mark(archives, family, toolkit, driver, matrix, ReportedFacts.bundled(), minor, gpu);
    }

    /** As above, with the third-party facts to show as reported (tests pass their own). */
    public static List<Row> mark(List<CatalogueEntry> archives, OsFamily family, Toolkit toolkit, DriverInfo driver,
                                 SupportMatrix matrix, ReportedFacts reportedFacts, int[] minor, String gpu) {
        List<Row> rows = new ArrayList<>();
        boolean recommended = false;
        for (CatalogueEntry e : archives) {
            int variantMajor = Integer.parseInt(e.cudaVariant().split("\\.")[0]);
            Boolean fits = toolkit == null || toolkit.version() == null ? null : toolkit.version().major() == variantMajor;
            SupportMatrix.Fit fit = matrix.fit(e.version(), variantMajor,
                    minor != null && minor[0] == variantMajor ? minor : null, gpu, family == OsFamily.WINDOWS);
            Optional<String> min = DriverMinimums.minimum(fit, variantMajor, family);
            Boolean driverOk = !driver.present() || min.isEmpty() ? null
                    : NvidiaSmi.compareVersions(driver.driverVersion(), min.get()) >= 0;
            Optional<String> cudaDropped = DriverMinimums.gpuDroppedBy(variantMajor, gpu); // whatever the matrix holds
            Optional<String> dropped = cudaDropped.or(() -> matrix.droppedBefore(e.version(), variantMajor, gpu));
            Optional<String> matrixBetween = cudaDropped.isPresent() ? Optional.empty()
                    : matrix.droppedBetween(e.version(), variantMajor, gpu);
            List<ReportedFacts.Fact> reported = reportedFacts.about(e.version(), variantMajor);
            // a third-party claim never refuses: it only makes a release NVIDIA's matrix does not hold "not known"
            Optional<String> between = cudaDropped.isPresent() || dropped.isPresent() || fit.known() ? matrixBetween
                    : matrixBetween.or(() -> reported.stream().filter(f -> below(gpu, f.belowComputeCapability())).findFirst()
                            .map(f -> "GPU " + gpu + " not known for cuDNN " + f.release() + ": " + f.line()));
            String why = dropped.or(() -> between).orElse(fit.why());
            Boolean gpuOk = cudaDropped.isPresent() ? Boolean.FALSE : fit.gpuOk();
            boolean pick = !recommended && !e.disputed() && !Boolean.FALSE.equals(fits) && !Boolean.FALSE.equals(driverOk)
                    && !Boolean.FALSE.equals(gpuOk) && !Boolean.FALSE.equals(fit.toolkitOk()) && dropped.isEmpty()
                    && between.isEmpty();
            recommended |= pick;
            Optional<String> url = e.downloadUrl();
            rows.add(new Row(e.fileName(), e.version(), e.os(), e.arch(), e.cudaVariant(), e.format(),
                    e.disputed() ? null : e.sha256(), e.disputed() ? e.candidates() : null, e.size(), e.releaseDate(),
                    url.orElse(null), url.isPresent() ? null : e.whereToDownload(),
                    fits, min.orElse(null), driverOk, fit.toolkitOk(), gpuOk, between.isPresent() ? Boolean.TRUE : null,
                    fit.source(), why, pick, reported.isEmpty() ? null : reported, Row.CATALOGUE, null));
        }
        return rows;
    }
}
