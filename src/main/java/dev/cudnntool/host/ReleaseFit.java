package dev.cudnntool.host;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.OsFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How each archive of the catalogue fits a machine: its CUDA major against the toolkit's, the
 * driver minimum of its CUDA major against the driver, and which one to take (the newest that
 * fits, never a disputed one). The machine is this one, or the one the user describes with
 * {@code --cuda}, {@code --driver} and {@code --gpu}. What {@code cudnn releases} lists; the
 * command only renders it.
 */
public final class ReleaseFit {
    /** What {@code --gpu} can say today: no support-matrix data is stored, so nothing is checked against it. */
    public static final String GPU_NOT_CHECKED = "compute capability not checked (no support matrix data)";

    private ReleaseFit() {
    }

    /**
     * One archive, marked. {@code toolkitFits}/{@code driverOk} are absent when unknown (no toolkit, no driver, another
     * machine) and {@code toolkitFits} when {@code --cuda} chose the archives. {@code url} is NVIDIA's redist URL, null
     * (and {@code download} says where the file is) for an archive no redist manifest lists.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Row(String fileName, String version, String os, String arch, String cudaVariant, String format,
                      String sha256, List<String> candidates, Long size, String releaseDate,
                      @JsonInclude(JsonInclude.Include.ALWAYS) String url, String download, Boolean toolkitFits,
                      String driverMinimum, Boolean driverOk, boolean recommended) {
    }

    /**
     * What the user asked about another machine (each null when not asked): {@code --driver}, {@code --gpu}.
     */
    public record Asked(String driver, GpuCapability gpu) {
        public static final Asked NOTHING = new Asked(null, null);
    }

    /**
     * What {@code cudnn releases} shows: the archives the filter selects, newest first, marked against
     * this machine's toolkit and driver when the filter's platform is this machine's, or against what was asked.
     *
     * @param thisMachine the filter's OS and CPU are this machine's
     * @param toolkit     this machine's toolkit; null when none was found, {@code --cuda} was given or the platform is another
     * @param driver      the driver asked, or this machine's; {@link DriverInfo#NONE} when neither is known
     * @param asked       what the user described
     */
    public record Listing(ReleaseFilter filter, boolean thisMachine, Toolkit toolkit, DriverInfo driver, Asked asked,
                          List<Row> rows) {
        /** Something the user asked decides the fit ({@code --cuda}, {@code --driver}, {@code --gpu}). */
        public boolean askedAnything() {
            return filter.cuda() != null || asked.driver() != null || asked.gpu() != null;
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
        List<CatalogueEntry> archives = catalogue.select(filter.os(), filter.arches(), filter.cudaMajor(), filter.cudaMinor());
        return new Listing(filter, thisMachine, toolkit, driver, asked, mark(archives, filter.family(), toolkit, driver));
    }

    /**
     * Marks {@code archives} (newest first) for an OS family, against a toolkit (null: none known)
     * and a driver ({@link DriverInfo#NONE}: none known); the first that fits is recommended.
     */
    public static List<Row> mark(List<CatalogueEntry> archives, OsFamily family, Toolkit toolkit, DriverInfo driver) {
        List<Row> rows = new ArrayList<>();
        boolean recommended = false;
        for (CatalogueEntry e : archives) {
            int variantMajor = Integer.parseInt(e.cudaVariant().split("\\.")[0]);
            Boolean fits = toolkit == null || toolkit.version() == null ? null : toolkit.version().major() == variantMajor;
            Optional<String> min = DriverMinimums.minimum(variantMajor, family);
            Boolean driverOk = !driver.present() || min.isEmpty() ? null
                    : NvidiaSmi.compareVersions(driver.driverVersion(), min.get()) >= 0;
            boolean pick = !recommended && !e.disputed() && !Boolean.FALSE.equals(fits) && !Boolean.FALSE.equals(driverOk);
            recommended |= pick;
            Optional<String> url = e.url();
            rows.add(new Row(e.fileName(), e.version(), e.os(), e.arch(), e.cudaVariant(), e.format(),
                    e.disputed() ? null : e.sha256(), e.disputed() ? e.candidates() : null, e.size(), e.releaseDate(),
                    url.orElse(null), url.isPresent() ? null : e.whereToDownload(),
                    fits, min.orElse(null), driverOk, pick));
        }
        return rows;
    }
}
