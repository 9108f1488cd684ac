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
 * fits, never a disputed one). What {@code cudnn releases} lists; the command only renders it.
 */
public final class ReleaseFit {
    private ReleaseFit() {
    }

    /** One archive, marked. {@code toolkitFits}/{@code driverOk} are absent when unknown (no toolkit, no driver, another OS). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Row(String fileName, String version, String os, String arch, String cudaVariant, String format,
                      String sha256, List<String> candidates, Long size, String releaseDate, Boolean toolkitFits,
                      String driverMinimum, Boolean driverOk, boolean recommended) {
    }

    /**
     * What {@code cudnn releases} shows: the archives the filter selects, newest first, marked against
     * this machine's toolkit and driver when the filter's OS is this machine's.
     *
     * @param toolkit null when none was found or the OS is another
     * @param driver  {@link DriverInfo#NONE} when none was found or the OS is another
     */
    public record Listing(ReleaseFilter filter, boolean thisMachine, Toolkit toolkit, DriverInfo driver, List<Row> rows) {
    }

    /**
     * Lists the catalogue's archives for {@code filter}; on this machine's OS the toolkit (found as
     * install finds it, or {@code cudaPath}) and the driver are looked up to mark them.
     */
    public static Listing list(Host host, Catalogue catalogue, ReleaseFilter filter, String cudaPath) {
        boolean thisMachine = filter.thisMachine(host);
        Toolkit toolkit = null;
        DriverInfo driver = DriverInfo.NONE;
        if (thisMachine) {
            toolkit = ToolkitLocator.locate(host, cudaPath == null ? null : host.path(cudaPath), null).chosen();
            driver = DriverCheck.check(host, Platform.detect(host), null).driver();
        }
        List<CatalogueEntry> archives = catalogue.select(filter.os(), filter.arches(), filter.cudaMajor(), filter.cudaMinor());
        return new Listing(filter, thisMachine, toolkit, driver, mark(archives, filter.family(), toolkit, driver));
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
            rows.add(new Row(e.fileName(), e.version(), e.os(), e.arch(), e.cudaVariant(), e.format(),
                    e.disputed() ? null : e.sha256(), e.disputed() ? e.candidates() : null, e.size(), e.releaseDate(),
                    fits, min.orElse(null), driverOk, pick));
        }
        return rows;
    }
}
