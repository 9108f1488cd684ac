package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.OsFamily;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The marks of {@code cudnn releases}, apart from its rendering. */
class ReleaseFitTest {
    private static final String SHA = "a".repeat(64);

    private static CatalogueEntry entry(String version, String cuda, List<String> candidates) {
        return new CatalogueEntry("cudnn-linux-x86_64-" + version + "_cuda" + cuda + "-archive.tar.xz", version, "linux",
                "x86_64", cuda, "tar.xz", candidates.isEmpty() ? SHA : candidates.get(0), null, null, candidates);
    }

    private static final List<CatalogueEntry> NEWEST_FIRST = List.of(
            entry("9.20.0.48", "13", List.of()),
            entry("9.19.0.56", "12", List.of("b".repeat(64), "c".repeat(64))),
            entry("9.18.1.3", "12", List.of()),
            entry("9.18.1.3", "11", List.of()));

    private static Toolkit toolkit(int major, int minor) {
        return new Toolkit(Path.of("/usr/local/cuda"), new CudaVersion(major, minor), "version.json", "CUDA_PATH");
    }

    private static DriverInfo driver(String version) {
        return new DriverInfo("/usr/bin/nvidia-smi", version, "12.4", List.of());
    }

    @Test
    void theNewestArchiveThatFitsToolkitAndDriverIsRecommendedNeverADisputedOne() {
        List<ReleaseFit.Row> rows = ReleaseFit.mark(NEWEST_FIRST, OsFamily.LINUX, toolkit(12, 4), driver("550.54.14"));
        assertEquals(List.of(false, false, true, false), rows.stream().map(ReleaseFit.Row::recommended).toList());
        assertEquals(List.of(false, true, true, false), rows.stream().map(ReleaseFit.Row::toolkitFits).toList());
        assertEquals(List.of(false, true, true, true), rows.stream().map(ReleaseFit.Row::driverOk).toList());
        assertEquals("580.65.06", rows.get(0).driverMinimum());
        assertNull(rows.get(1).sha256(), "a disputed name gives its candidates, not one sha256");
        assertEquals(2, rows.get(1).candidates().size());
    }

    @Test
    void withNeitherToolkitNorDriverKnownTheNewestUndisputedOneIsRecommendedAndNothingIsMarkedFalse() {
        List<ReleaseFit.Row> rows = ReleaseFit.mark(NEWEST_FIRST, OsFamily.LINUX, null, DriverInfo.NONE);
        assertEquals(List.of(true, false, false, false), rows.stream().map(ReleaseFit.Row::recommended).toList());
        rows.forEach(r -> {
            assertNull(r.toolkitFits());
            assertNull(r.driverOk());
        });
    }

    @Test
    void aDriverTooOldForEveryVariantLeavesNothingRecommended() {
        List<ReleaseFit.Row> rows = ReleaseFit.mark(NEWEST_FIRST, OsFamily.WINDOWS, null, driver("440.10"));
        assertEquals(List.of(false, false, false, false), rows.stream().map(ReleaseFit.Row::recommended).toList());
        assertEquals("527.41", rows.get(2).driverMinimum(), "the Windows minimum for CUDA 12");
    }
}
