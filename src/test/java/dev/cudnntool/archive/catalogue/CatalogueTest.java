package dev.cudnntool.archive.catalogue;

import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.name.ArchiveName;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.ToolException;
import dev.cudnntool.testing.ArchiveFixture;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in catalogue: the shipped data itself, and the checks it drives on a fixture archive. */
public class CatalogueTest {
    @TempDir
    Path dir;

    static byte[] resource() throws Exception {
        try (InputStream in = Catalogue.class.getResourceAsStream(Catalogue.RESOURCE)) {
            return in.readAllBytes();
        }
    }

    @Test
    void theResourceIsAVerbatimCopyOfTheSharedData() throws Exception {
        // ../shared/data from the project folder (the main checkout); a worktree one level deeper also finds it.
        Path shared = Path.of("..", "shared", "data", "cudnn-archives.json");
        if (!Files.isRegularFile(shared)) {
            shared = Path.of("..", "..", "shared", "data", "cudnn-archives.json");
        }
        assumeTrue(Files.isRegularFile(shared), "no ../shared/data/cudnn-archives.json next to this checkout");
        assertArrayEquals(Files.readAllBytes(shared), resource(),
                "src/main/resources/dev/cudnntool/archive/catalogue/cudnn-archives.json differs from " + shared.toAbsolutePath()
                        + ": copy it again, do not edit it by hand");
    }

    @Test
    void theBundledDataHasTheSchemaAndTheCounts() throws Exception {
        Catalogue c = Catalogue.parse(resource());
        List<CatalogueEntry> agreed = c.archives().stream().filter(e -> !e.disputed()).toList();
        List<CatalogueEntry> disputed = c.archives().stream().filter(CatalogueEntry::disputed).toList();
        assertEquals(486, agreed.size());
        assertEquals(247, agreed.stream().filter(e -> e.size() != null).count());
        assertEquals(7, disputed.size());
        assertTrue(disputed.stream().allMatch(e -> e.candidates().size() >= 2));
        assertEquals(486 + 7, c.archives().stream().map(CatalogueEntry::fileName).distinct().count(), "names are unique");
        Set<String> os = c.archives().stream().map(CatalogueEntry::os).collect(Collectors.toSet());
        assertEquals(Set.of("linux", "windows", "osx"), os);
        Map<Integer, Long> majors = agreed.stream().collect(Collectors.groupingBy(
                e -> Integer.parseInt(e.version().substring(0, e.version().indexOf('.'))), Collectors.counting()));
        assertEquals(Map.of(5, 1L, 6, 1L, 7, 38L, 8, 177L, 9, 269L), majors);
        // Every name the tool can read is looked up by its canonical spelling, so each such entry must be
        // in NVIDIA's spelling already, and what the name says must agree with the entry's fields.
        int readable = 0;
        for (CatalogueEntry e : c.archives()) {
            ArchiveName n;
            try {
                n = ArchiveName.parse(e.fileName());
            } catch (ToolException notReadable) {
                continue; // cuDNN 5/6/7.1 "v5.1" names and macOS: listed by releases, never installed
            }
            readable++;
            assertEquals(e.fileName(), n.canonicalName());
            assertEquals(e.os(), n.os().label(), e.fileName());
            assertEquals(e.arch(), n.arch().label(), e.fileName());
            assertEquals(e.cudaVariant(), n.cudaVariant().toString(), e.fileName());
            assertEquals(e, c.lookup(n.canonicalName()).orElseThrow());
        }
        assertTrue(readable > 470, "most names are readable: " + readable);
        CatalogueEntry e951 = Catalogue.bundled().lookup("cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz").orElseThrow();
        assertEquals("2024-10-25", e951.releaseDate(), "dated by NVIDIA's redistrib_9.5.1.json");
        assertEquals("2023-09-12", Catalogue.bundled().lookup("cudnn-linux-x86_64-8.9.5.29_cuda11-archive.tar.xz")
                .orElseThrow().releaseDate(), "a four-part label dates that build");
        assertEquals(null, Catalogue.bundled().lookup("cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz")
                .orElseThrow().releaseDate(), "the regenerated 8.x manifests' date is not a release date");
        assertEquals(null, Catalogue.bundled().lookup("cudnn-linux-x86_64-9.10.2.21_cuda12-archive.tar.xz")
                .orElseThrow().releaseDate(), "9.10.0's date is not 9.10.2's");
    }

    @Test
    void badDataIsRefusedWithTheReason() {
        String ok = "{\"fileName\":\"a.zip\",\"version\":\"9.1.0.70\",\"os\":\"windows\",\"arch\":\"x86_64\",\"cudaVariant\":\"12\","
                + "\"format\":\"zip\",\"sha256\":\"" + "a".repeat(64) + "\",\"size\":12}";
        Catalogue.parse(("{\"schema\":1,\"archives\":[" + ok + "],\"conflicts\":[]}").getBytes(StandardCharsets.UTF_8));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Catalogue.parse(
                ("{\"schema\":2,\"archives\":[],\"conflicts\":[]}").getBytes(StandardCharsets.UTF_8))).getMessage().contains("schema"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Catalogue.parse(
                ("{\"schema\":1,\"archives\":[" + ok.replace("a".repeat(64), "xyz") + "],\"conflicts\":[]}")
                        .getBytes(StandardCharsets.UTF_8))).getMessage().contains("sha256"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Catalogue.parse(
                ("{\"schema\":1,\"archives\":[" + ok.replace("\"size\":12", "\"size\":-1") + "],\"conflicts\":[]}")
                        .getBytes(StandardCharsets.UTF_8))).getMessage().contains("size"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Catalogue.parse(
                ("{\"schema\":1,\"archives\":[]}").getBytes(StandardCharsets.UTF_8))).getMessage().contains("conflicts"));
    }

    public static String sha256(Path p) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    }

    static Finding finding(ArchiveReport r, String id) {
        return r.findings().stream().filter(f -> f.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + id + " in " + r.findings()));
    }

    @Test
    void aKnownNameIsCheckedForSizeBeforeTheReadAndForSha256InTheRead() throws Exception {
        Path p = ArchiveFixture.linux("9.5.1.17", "12").writeTo(dir);
        ArchiveName n = ArchiveName.parse(p.getFileName().toString());
        String sha = sha256(p);
        long size = Files.size(p);
        ArchiveInspector inspector = new ArchiveInspector();

        Catalogue genuine = Catalogue.of(List.of(CatalogueEntry.of(n.canonicalName(), sha, size)));
        ArchiveReport ok = inspector.inspect(p, n, genuine.expectation(n));
        assertTrue(ok.acceptable(), ok.findings().toString());
        assertTrue(finding(ok, "archive.genuine").message().contains("matches NVIDIA's published sha256"));

        String other = "b".repeat(64);
        ArchiveReport bad = inspector.inspect(p, n, Catalogue.of(List.of(CatalogueEntry.of(n.canonicalName(), other, size)))
                .expectation(n));
        assertFalse(bad.acceptable());
        Finding mismatch = finding(bad, "archive.checksum-mismatch");
        assertTrue(mismatch.message().contains(sha) && mismatch.message().contains(other), mismatch.message());

        // A truncated download: the catalogue's size is larger. The file is not even an archive, so a read would
        // fail differently: the size message proves the check ran first.
        Path truncated = Files.write(Files.createDirectories(dir.resolve("cut")).resolve(n.fileName()), new byte[1000]);
        ToolException cut = assertThrows(ToolException.class, () -> inspector.inspect(truncated, n,
                Catalogue.of(List.of(CatalogueEntry.of(n.canonicalName(), sha, 705_347_747L))).expectation(n)));
        assertEquals(ExitCode.ARCHIVE_REJECTED, cut.exitCode());
        assertTrue(cut.getMessage().contains("the file is 1,000 bytes; NVIDIA's is 705,347,747: the download is incomplete"),
                cut.getMessage());
        // No size in the catalogue (spack/conda-forge entries): only the sha256 is compared.
        assertTrue(inspector.inspect(p, n, Catalogue.of(List.of(CatalogueEntry.of(n.canonicalName(), sha, null)))
                .expectation(n)).acceptable());
    }

    @Test
    void disputedNamesPassWithAWarningOnAnyListedValue() throws Exception {
        Path p = ArchiveFixture.linux("8.3.2.44", "11.5").writeTo(dir);
        ArchiveName n = ArchiveName.parse(p.getFileName().toString());
        String sha = sha256(p);
        CatalogueEntry disputed = new CatalogueEntry(n.canonicalName(), "8.3.2.44", "linux", "x86_64", "11.5", "tar.xz",
                "c".repeat(64), null, null, List.of("c".repeat(64), sha));
        ArchiveReport r = new ArchiveInspector().inspect(p, n, Catalogue.of(List.of(disputed)).expectation(n));
        assertTrue(r.acceptable(), r.findings().toString());
        Finding w = finding(r, "archive.checksum-disputed");
        assertTrue(w.message().contains("c".repeat(64)), w.message());
        assertTrue(r.findings().stream().noneMatch(f -> f.id().equals("archive.genuine")));

        CatalogueEntry neither = new CatalogueEntry(n.canonicalName(), "8.3.2.44", "linux", "x86_64", "11.5", "tar.xz",
                "c".repeat(64), null, null, List.of("c".repeat(64), "d".repeat(64)));
        ArchiveReport bad = new ArchiveInspector().inspect(p, n, Catalogue.of(List.of(neither)).expectation(n));
        assertFalse(bad.acceptable());
        assertTrue(finding(bad, "archive.checksum-mismatch").message().contains("d".repeat(64)));
    }

    @Test
    void anUnknownNameIsReadAsTodayAndSaysSo() throws Exception {
        Path p = ArchiveFixture.linux("9.5.1.17", "12").writeTo(dir);
        ArchiveName n = ArchiveName.parse(p.getFileName().toString());
        ArchiveReport r = new ArchiveInspector().inspect(p, n, Catalogue.empty().expectation(n));
        assertTrue(r.acceptable());
        finding(r, "archive.not-in-catalogue");
        finding(r, "archive.sha256");
    }

    @Test
    void aBrowserCopyAndTheBlogTypoFindNvidiasEntry() {
        Catalogue c = Catalogue.of(List.of(CatalogueEntry.of("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip", "e".repeat(64), 5L)));
        for (String name : List.of("cudnn-windows-x86_64-8.9.5.30_cuda12-archive (1).zip",
                "cudnn-windows-x86-64-8.9.5.30-cuda12-archive.zip")) {
            ArchiveName n = ArchiveName.parse(name);
            assertEquals(ChecksumExpectation.Origin.CATALOGUE, c.expectation(n).origin(), name);
            assertEquals(Boolean.TRUE, c.describe(n).get("known"));
            assertEquals(5L, c.describe(n).get("size"));
        }
    }
}
