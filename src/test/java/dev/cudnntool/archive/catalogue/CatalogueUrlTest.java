package dev.cudnntool.archive.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** #20 item 1: an entry a redist manifest lists has NVIDIA's URL; one only other sources know has none. */
class CatalogueUrlTest {
    private static CatalogueEntry entry(String name) {
        return Catalogue.bundled().lookup(name).orElseThrow(() -> new AssertionError(name + " not catalogued"));
    }

    @Test
    void aRedistEntryHasTheExactUrlOfItsManifestsRelativePath() {
        assertEquals(Optional.of("https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-x86_64/"
                        + "cudnn-linux-x86_64-9.13.0.50_cuda13-archive.tar.xz"),
                entry("cudnn-linux-x86_64-9.13.0.50_cuda13-archive.tar.xz").url());
        assertEquals(Optional.of("https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/windows-x86_64/"
                        + "cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip"),
                entry("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip").url());
        assertEquals(Optional.of("https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-aarch64/"
                        + "cudnn-linux-aarch64-9.13.0.50_cuda13-archive.tar.xz"),
                entry("cudnn-linux-aarch64-9.13.0.50_cuda13-archive.tar.xz").url());
        assertTrue(entry("cudnn-linux-sbsa-8.9.5.30_cuda12-archive.tar.xz").url().isPresent(),
                "a disputed name a manifest lists still has its URL");
    }

    @Test
    void legacyAndUnlistedArchivesSayTheyAreBehindNvidiasLogin() {
        CatalogueEntry legacy = entry("cudnn-10.2-linux-x64-v7.6.5.32.tgz");
        assertEquals(Optional.empty(), legacy.url());
        assertEquals("behind NVIDIA's login: https://developer.nvidia.com/rdp/cudnn-archive, after signing in",
                legacy.whereToDownload());
        CatalogueEntry unlisted = entry("cudnn-linux-x86_64-8.4.0.27_cuda11.6-archive.tar.xz");
        assertEquals(Optional.empty(), unlisted.url(), "modern name, but no redist manifest among its sources");
        assertEquals("no NVIDIA redist manifest in the catalogue lists it: look on https://developer.nvidia.com/rdp/cudnn-archive,"
                + " after signing in", unlisted.whereToDownload());
    }

    @Test
    void everyEntryWithAUrlCameFromAManifestAndEndsWithItsFileName() {
        int withUrl = 0;
        for (CatalogueEntry e : Catalogue.bundled().archives()) {
            if (e.url().isPresent()) {
                withUrl++;
                assertTrue(e.inRedist());
                assertTrue(e.url().get().endsWith("/cudnn/" + e.os() + "-" + e.arch() + "/" + e.fileName()), e.url().get());
            }
        }
        assertTrue(withUrl >= 240, "about half the catalogue is on the redist server: " + withUrl);
    }

    @Test
    void theReaderTakesTheFlagFromSourcesOfAnEntryOrOfAConflictsCandidates() {
        String sha = "a".repeat(64);
        String json = "{\"schema\":1,\"archives\":[{\"fileName\":\"cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz\","
                + "\"version\":\"9.5.1.17\",\"os\":\"linux\",\"arch\":\"x86_64\",\"cudaVariant\":\"12\",\"format\":\"tar.xz\","
                + "\"sha256\":\"" + sha + "\",\"size\":1,\"sources\":[\"x/y:cudnn/redistrib_9.5.1.json\"]},"
                + "{\"fileName\":\"cudnn-linux-x86_64-9.5.0.50_cuda12-archive.tar.xz\",\"version\":\"9.5.0.50\",\"os\":\"linux\","
                + "\"arch\":\"x86_64\",\"cudaVariant\":\"12\",\"format\":\"tar.xz\",\"sha256\":\"" + sha + "\","
                + "\"sources\":[\"spack/x:package.py\", 7, {\"a\":[]}]}],"
                + "\"conflicts\":[{\"fileName\":\"cudnn-linux-sbsa-9.5.1.17_cuda12-archive.tar.xz\",\"version\":\"9.5.1.17\","
                + "\"os\":\"linux\",\"arch\":\"sbsa\",\"cudaVariant\":\"12\",\"format\":\"tar.xz\",\"candidates\":["
                + "{\"sha256\":\"" + sha + "\",\"sources\":[\"a:meta.yaml\"]},"
                + "{\"sha256\":\"" + "b".repeat(64) + "\",\"sources\":[\"n:manifests/cudnn/redistrib_9.5.1.json\"]}]}]}";
        List<CatalogueEntry> e = Catalogue.parse(json.getBytes(StandardCharsets.UTF_8)).archives();
        assertTrue(e.get(0).url().isPresent());
        assertFalse(e.get(1).url().isPresent(), "no manifest among its sources");
        assertTrue(e.get(2).url().isPresent(), "a candidate's manifest counts");
    }
}
