package dev.cudnntool.archive.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** #30 item 1 (settled: every catalogue row gets its URL; cudnn-facts §6 for the older folder). */
class CatalogueDownloadUrlTest {
    private static Optional<String> url(String name) {
        return Catalogue.bundled().lookup(name).orElseThrow(() -> new AssertionError(name)).downloadUrl();
    }

    @Test
    void everyCatalogueRowHasAPublicUrlEndingInItsName() {
        for (CatalogueEntry e : Catalogue.bundled().archives()) {
            String u = e.downloadUrl().orElseThrow(() -> new AssertionError("no URL for " + e.fileName()));
            assertTrue(u.startsWith("https://developer.download.nvidia.com/compute/"), u);
            assertTrue(u.endsWith("/" + e.fileName()), u);
            e.url().ifPresent(listed -> assertEquals(listed, u, "a manifest's URL wins"));
        }
    }

    @Test
    void modernNamesFrom85LieOnTheRedistServerUnderTheirPlatform() {
        assertEquals(Optional.of(CatalogueEntry.REDIST + "cudnn/linux-x86_64/cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz"),
                url("cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz"));
        assertEquals(Optional.of(CatalogueEntry.REDIST + "cudnn/windows-arm64/cudnn-windows-arm64-9.27.0.42_cuda13-archive.zip"),
                url("cudnn-windows-arm64-9.27.0.42_cuda13-archive.zip"));
    }

    @Test
    void olderArchivesLieInTheOlderFolder() {
        String old = CatalogueEntry.OLD_REDIST;
        assertEquals(Optional.of(old + "v8.4.0/local_installers/11.6/cudnn-linux-x86_64-8.4.0.27_cuda11.6-archive.tar.xz"),
                url("cudnn-linux-x86_64-8.4.0.27_cuda11.6-archive.tar.xz"));
        assertEquals(Optional.of(old + "v7.6.5/cudnn-10.2-linux-x64-v7.6.5.32.tgz"), url("cudnn-10.2-linux-x64-v7.6.5.32.tgz"));
        assertEquals(Optional.of(old + "v7.1.3/cudnn-9.1-linux-x64-v7.1.tgz"), url("cudnn-9.1-linux-x64-v7.1.tgz"));
        assertEquals(Optional.of(old + "v5.1/cudnn-8.0-linux-x64-v5.1.tgz"), url("cudnn-8.0-linux-x64-v5.1.tgz"));
    }
}
