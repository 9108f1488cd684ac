package dev.cudnntool.archive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.Hex;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.archive.format.EntryType;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.testing.ArchiveFixture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ArchiveInspectorTest {
    @TempDir
    Path dir;

    private ArchiveReport inspect(ArchiveFixture f) {
        Path p = f.writeTo(dir);
        return new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null);
    }

    private static Finding finding(ArchiveReport r, String id) {
        return r.findings().stream().filter(f -> f.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no finding " + id + " in " + r.findings()));
    }

    static Stream<Arguments> nvidiaLayouts() {
        return Stream.of(
                Arguments.of(ArchiveFixture.windows("8.9.5.30", "12"), 31, "8.9.5", "bin/cudnn64_8.dll"),
                Arguments.of(ArchiveFixture.linux("8.9.5.30", "12"), 7 * 4 + 9 + 1, "8.9.5", "lib/libcudnn.so.8.9.5"),
                Arguments.of(ArchiveFixture.windows("9.1.0.70", "12"), 8 * 3 + 7 + 1, "9.1.0", "bin/cudnn64_9.dll"),
                Arguments.of(ArchiveFixture.windows("9.18.0.77", "13"), 8 * 3 + 7 + 1, "9.18.0", "bin/x64/cudnn64_9.dll"),
                Arguments.of(ArchiveFixture.linux("9.5.1.17", "12"), 8 * 4 + 7 + 1, "9.5.1", "lib/libcudnn_graph.so.9"),
                Arguments.of(ArchiveFixture.windows("8.3.2.44", "11.5"), 31, "8.3.2", "lib/cudnn.lib"),
                Arguments.of(ArchiveFixture.linux("8.3.3.40", "11.5"), 7 * 4 + 9 + 1, "8.3.3", "lib/libcudnn_ops_infer.so.8"),
                Arguments.of(ArchiveFixture.legacyLinux("10.2", "7.6.5.32"), 4 + 1 + 1, "7.6.5", "lib64/libcudnn.so.7"),
                Arguments.of(ArchiveFixture.legacyWindows("11.2", "windows", "8.1.1.33"), 7 * 2 + 9 + 1, "8.1.1", "bin/cudnn64_8.dll"));
    }

    @ParameterizedTest
    @MethodSource("nvidiaLayouts")
    void acceptsEveryNvidiaLayout(ArchiveFixture fixture, int entries, String headerVersion, String someRelPath) {
        ArchiveReport r = inspect(fixture);
        assertTrue(r.acceptable(), () -> r.findings().toString());
        assertEquals(entries, r.entries().stream().filter(e -> e.type() != EntryType.DIRECTORY).count());
        assertEquals(headerVersion, r.evidence().headerVersion().toString());
        assertTrue(r.entries().stream().anyMatch(e -> e.relPath().equals(someRelPath)), someRelPath);
        assertEquals(r.name().expectedTopFolder(), r.topFolder());
    }

    @Test
    void windowsZipIsSortedIntoRuntimeHeadersImportLibrariesAndLicence() {
        ArchiveReport r = inspect(ArchiveFixture.windows("8.9.5.30", "12"));
        assertEquals(7, r.entries(EntryRole.RUNTIME_LIBRARY).size());
        assertEquals(9, r.entries(EntryRole.HEADER).size());
        assertEquals(14, r.entries(EntryRole.IMPORT_LIBRARY).size());
        assertEquals(1, r.entries(EntryRole.LICENSE).size());
        assertEquals(7, r.evidence().libraries().size());
        assertTrue(r.evidence().libraries().stream().allMatch(l -> l.major() == 8));
    }

    @Test
    void linuxSymlinksStayLinksAndModesAreKept() {
        ArchiveReport r = inspect(ArchiveFixture.linux("8.9.5.30", "12"));
        ArchiveItem link = r.entries().stream().filter(e -> e.relPath().equals("lib/libcudnn.so.8")).findFirst().orElseThrow();
        assertEquals(EntryType.SYMLINK, link.type());
        assertEquals("libcudnn.so.8.9.5", link.linkTarget());
        ArchiveItem real = r.entries().stream().filter(e -> e.relPath().equals("lib/libcudnn.so.8.9.5")).findFirst().orElseThrow();
        assertEquals(0755, real.mode());
        assertEquals(EntryRole.STATIC_LIBRARY,
                r.entries().stream().filter(e -> e.relPath().equals("lib/libcudnn_static.a")).findFirst().orElseThrow().role());
    }

    @Test
    void hashesEveryFileAndTheArchiveInOnePass() throws Exception {
        ArchiveFixture f = ArchiveFixture.windows("8.9.5.30", "12");
        Path p = f.writeTo(dir);
        ArchiveReport r = new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null);
        assertEquals(sha256(Files.readAllBytes(p)), r.archive().sha256());
        assertEquals(Files.size(p), r.archive().sizeBytes());
        ArchiveItem dll = r.entries().stream().filter(e -> e.fileName().equals("cudnn64_8.dll")).findFirst().orElseThrow();
        byte[] content = ArchiveFixture.library("cudnn", CudnnVersion.parse("8.9.5.30"), "dll");
        assertEquals(sha256(content), dll.sha256());
        assertEquals(content.length, dll.size());
        assertEquals("archive.sha256", finding(r, "archive.sha256").id());
    }

    @Test
    void checksumMatchAndMismatch() throws Exception {
        Path p = ArchiveFixture.windows("8.9.5.30", "12").writeTo(dir);
        ArchiveName n = ArchiveName.parse(p.getFileName().toString());
        String good = sha256(Files.readAllBytes(p));
        ArchiveReport ok = new ArchiveInspector().inspect(p, n, ChecksumExpectation.ofHex(good.toUpperCase()));
        assertTrue(ok.acceptable());
        finding(ok, "archive.checksum-ok");
        ArchiveReport bad = new ArchiveInspector().inspect(p, n, ChecksumExpectation.ofHex("0".repeat(64)));
        assertFalse(bad.acceptable());
        Finding f = finding(bad, "archive.checksum-mismatch");
        assertTrue(f.message().contains(good) && f.message().contains("0".repeat(64)), f.message());
        assertEquals(ExitCode.USAGE, assertThrows(ToolException.class, () -> ChecksumExpectation.ofHex("abc")).exitCode());
    }

    @Test
    void checksumFromNvidiaManifestComparesShaAndSize() throws Exception {
        Path p = ArchiveFixture.linux("8.9.5.30", "12").writeTo(dir);
        String sha = sha256(Files.readAllBytes(p));
        long size = Files.size(p);
        // Key order and nesting as in redistrib_8.9.5.json: the platform object holds cuda variants.
        String manifest = "{\"release_date\":\"2023-09-29\",\"release_label\":\"8.9.5\",\"release_product\":\"cudnn\","
                + "\"cudnn\":{\"name\":\"NVIDIA CUDA Deep Neural Network library\",\"license\":\"cudnn\",\"version\":\"8.9.5.30\","
                + "\"cuda_variant\":[\"11\",\"12\"],"
                + "\"linux-x86_64\":{\"cuda11\":{\"relative_path\":\"cudnn/linux-x86_64/cudnn-linux-x86_64-8.9.5.30_cuda11-archive.tar.xz\","
                + "\"sha256\":\"bbe10e3c08cd7e4aea1012213781e4fe270e1c908263444f567cafefb2cc6525\",\"md5\":\"x\",\"size\":\"857471712\"},"
                + "\"cuda12\":{\"md5\":\"y\",\"relative_path\":\"cudnn/linux-x86_64/cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz\","
                + "\"size\":\"" + size + "\",\"sha256\":\"" + sha + "\"}}}}";
        Path json = Files.writeString(dir.resolve("redistrib_8.9.5.json"), manifest);
        ChecksumExpectation e = ChecksumExpectation.fromManifest(json, "cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz");
        assertEquals(size, e.size());
        ArchiveReport ok = new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), e);
        assertTrue(ok.acceptable(), ok.findings().toString());

        ChecksumExpectation wrongSize = new ChecksumExpectation(sha, size + 1, "redistrib_8.9.5.json");
        assertFalse(new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), wrongSize).acceptable());

        ToolException none = assertThrows(ToolException.class,
                () -> ChecksumExpectation.fromManifest(json, "cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip"));
        assertTrue(none.getMessage().contains("cudnn-linux-x86_64-8.9.5.30_cuda11-archive.tar.xz"), none.getMessage());
    }

    @Test
    void contentsThatDisagreeWithTheNameAreRejectedWithBothVersions() {
        ArchiveFixture f = ArchiveFixture.windows("8.9.5.30", "12");
        f.replace("include/cudnn_version.h", ArchiveFixture.versionHeader(CudnnVersion.of(8, 9, 7)));
        Finding e = finding(inspect(f), "archive.version-mismatch");
        assertTrue(e.message().contains("8.9.5.30") && e.message().contains("8.9.7"), e.message());

        // A renamed 9.x Linux archive: libraries carry 9.5.1 while the name says 9.1.0.
        ArchiveFixture renamed = ArchiveFixture.linux("9.5.1.17", "12");
        Path p = renamed.writeAs(dir.resolve("cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz"));
        ArchiveReport r = new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null);
        Finding m = finding(r, "archive.version-mismatch");
        assertTrue(m.message().contains("9.5.1") && m.message().contains("9.1.0.70"), m.message());
    }

    @Test
    void aMissingLibraryHeaderOrImportLibraryIsNamed() {
        ArchiveFixture win = ArchiveFixture.windows("8.9.5.30", "12")
                .remove("bin/cudnn_cnn_infer64_8.dll").remove("x64/cudnn_ops_train.lib").remove("include/cudnn_adv_train.h");
        Finding f = finding(inspect(win), "archive.incomplete");
        assertTrue(f.message().contains("cudnn_cnn_infer64_8.dll"), f.message());
        assertTrue(f.message().contains("cudnn_ops_train.lib"), f.message());
        assertTrue(f.message().contains("cudnn_adv_train.h"), f.message());
        assertTrue(f.message().contains("3 file(s)"), f.message());

        ArchiveFixture lin = ArchiveFixture.linux("9.5.1.17", "12")
                .removeIf(e -> e.path().contains("libcudnn_heuristic.so"), "heuristic");
        assertTrue(finding(inspect(lin), "archive.incomplete").message().contains("libcudnn_heuristic.so.9"));

        ArchiveFixture noVersion = ArchiveFixture.linux("8.9.5.30", "12").replace("cudnn_version.h", "/* empty */");
        assertTrue(finding(inspect(noVersion), "archive.incomplete").message().contains("cudnn_version.h"));
    }

    @Test
    void newerExtraSubLibrariesAreAccepted() {
        ArchiveFixture f = ArchiveFixture.windows("9.13.0.50", "13")
                .file("cudnn-windows-x86_64-9.13.0.50_cuda13-archive/bin/cudnn_engines_tensor_ir64_9.dll", "extra")
                .file("cudnn-windows-x86_64-9.13.0.50_cuda13-archive/bin/cudnn_ext64_9.dll", "extra2");
        ArchiveReport r = inspect(f);
        assertTrue(r.acceptable(), r.findings().toString());
        assertEquals(10, r.entries(EntryRole.RUNTIME_LIBRARY).size());
    }

    @Test
    void typoNameWarningReachesTheReport() {
        Path p = ArchiveFixture.windows("8.9.5.30", "12").writeAs(dir.resolve("cudnn-windows-x86-64-8.9.5.30-cuda12-archive.zip"));
        ArchiveReport r = new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null);
        assertTrue(r.acceptable());
        assertEquals("archive.name-typo", r.findings().get(0).id());
    }

    static final String TOP = "cudnn-linux-x86_64-8.9.5.30_cuda12-archive/";

    static Stream<Arguments> unsafeArchives() {
        return Stream.of(
                Arguments.of("absolute path", ArchiveFixture.linux("8.9.5.30", "12").file("/etc/cron.d/evil", "x"), "absolute"),
                Arguments.of("dot-dot", ArchiveFixture.linux("8.9.5.30", "12").file(TOP + "../../evil", "x"), "'..'"),
                Arguments.of("drive letter", ArchiveFixture.windows("8.9.5.30", "12").file("C:/Windows/System32/evil.dll", "x"), "drive"),
                Arguments.of("backslash", ArchiveFixture.windows("8.9.5.30", "12")
                        .file("cudnn-windows-x86_64-8.9.5.30_cuda12-archive/bin\\..\\..\\evil.dll", "x"), "backslash"),
                Arguments.of("trailing dot", ArchiveFixture.windows("8.9.5.30", "12")
                        .file("cudnn-windows-x86_64-8.9.5.30_cuda12-archive/bin./x.dll", "x"), "dot or space"),
                Arguments.of("symlink escaping", ArchiveFixture.linux("8.9.5.30", "12").symlink(TOP + "lib/libevil.so", "../../../etc/passwd"), "outside"),
                Arguments.of("absolute symlink", ArchiveFixture.linux("8.9.5.30", "12").symlink(TOP + "lib/libevil.so", "/etc/passwd"), "absolute"),
                Arguments.of("hard link outside", ArchiveFixture.linux("8.9.5.30", "12").hardlink(TOP + "lib/libevil.so", "etc/passwd"), "hard link"),
                Arguments.of("fifo", ArchiveFixture.linux("8.9.5.30", "12").fifo(TOP + "lib/pipe"), "special"),
                Arguments.of("case duplicate", ArchiveFixture.windows("8.9.5.30", "12")
                        .file("cudnn-windows-x86_64-8.9.5.30_cuda12-archive/BIN/CUDNN64_8.DLL", "x"), "same name"),
                Arguments.of("exact duplicate", ArchiveFixture.linux("8.9.5.30", "12").file(TOP + "LICENSE", "again"), "same name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unsafeArchives")
    void unsafeEntriesAreRejectedBeforeAnythingElse(String what, ArchiveFixture f, String reason) {
        Path p = f.writeTo(dir);
        List<String> sinkCalls = new ArrayList<>();
        ToolException e = assertThrows(ToolException.class, () -> new ArchiveInspector().inspect(p,
                ArchiveName.parse(p.getFileName().toString()), null, recordingSink(sinkCalls), ReadProgress.NONE));
        assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertTrue(e.getMessage().startsWith("unsafe archive entry"), e.getMessage());
        // The sink never sees the unsafe entry: nothing unsafe can be written.
        assertTrue(sinkCalls.stream().noneMatch(c -> c.contains("evil") || c.contains("pipe") || c.contains("CUDNN64")), sinkCalls.toString());
    }

    @Test
    void moreThanTheEntryLimitIsRejected() {
        ArchiveFixture f = ArchiveFixture.windows("8.9.5.30", "12");
        Path p = f.writeTo(dir);
        InspectionLimits few = new InspectionLimits(10, 1L << 30, 200, 1 << 20);
        ToolException e = assertThrows(ToolException.class,
                () -> new ArchiveInspector(few).inspect(p, ArchiveName.parse(p.getFileName().toString()), null));
        assertTrue(e.getMessage().contains("more than 10 entries"), e.getMessage());
    }

    @Test
    void theDefaultLimitRejectsArchivesOfMoreThan10000Entries() throws Exception {
        Path p = dir.resolve("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(p))) {
            for (int i = 0; i <= 10_000; i++) {
                zip.putNextEntry(new ZipEntry("cudnn-windows-x86_64-8.9.5.30_cuda12-archive/include/x" + i + ".h"));
                zip.closeEntry();
            }
        }
        ToolException e = assertThrows(ToolException.class,
                () -> new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null));
        assertTrue(e.getMessage().contains("more than 10000 entries"), e.getMessage());
    }

    @Test
    void totalExpansionAboveTheBoundIsRejected() {
        Path p = ArchiveFixture.windows("8.9.5.30", "12").writeTo(dir);
        ToolException e = assertThrows(ToolException.class, () -> new ArchiveInspector(InspectionLimits.DEFAULT.withMaxTotalBytes(4096))
                .inspect(p, ArchiveName.parse(p.getFileName().toString()), null));
        assertTrue(e.getMessage().contains("expands to more than"), e.getMessage());
    }

    @Test
    void aZipBombEntryIsStoppedLongBeforeItExpands() throws Exception {
        // 1 GiB of zeros deflates to about 1 MB; the read must stop within a few dozen MB.
        Path p = dir.resolve("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(p))) {
            zip.putNextEntry(new ZipEntry("cudnn-windows-x86_64-8.9.5.30_cuda12-archive/bin/cudnn64_8.dll"));
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 1024; i++) {
                zip.write(zeros);
            }
            zip.closeEntry();
        }
        long[] seen = new long[1];
        ToolException e = assertThrows(ToolException.class, () -> new ArchiveInspector().inspect(p,
                ArchiveName.parse(p.getFileName().toString()), null, new EntrySink() {
                    @Override
                    public void file(ArchiveItem item, InputStream content) throws IOException {
                        seen[0] = content.transferTo(OutputStream.nullOutputStream());
                    }
                }, ReadProgress.NONE));
        assertTrue(e.getMessage().contains("200-fold"), e.getMessage());
        assertTrue(seen[0] == 0, "the sink's copy was cut short by the exception");
    }

    @Test
    void aCorruptEntryInTheMiddleIsReportedAsDamaged() throws Exception {
        Path p = ArchiveFixture.windows("8.9.5.30", "12").writeTo(dir);
        byte[] bytes = Files.readAllBytes(p);
        // Flip bytes in the middle of the file: inside some deflated entry's data.
        for (int i = bytes.length / 2; i < bytes.length / 2 + 16; i++) {
            bytes[i] ^= 0x5a;
        }
        Files.write(p, bytes);
        ToolException e = assertThrows(ToolException.class,
                () -> new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null));
        assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    }

    @Test
    void aTruncatedTarXzIsReportedAsDamaged() throws Exception {
        Path p = ArchiveFixture.linux("8.9.5.30", "12").writeTo(dir);
        byte[] bytes = Files.readAllBytes(p);
        Files.write(p, Arrays.copyOf(bytes, bytes.length * 2 / 3));
        ToolException e = assertThrows(ToolException.class,
                () -> new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null));
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    }

    @Test
    void layoutProblemsAreRejected() {
        ArchiveFixture two = ArchiveFixture.windows("8.9.5.30", "12").file("other/readme.txt", "x");
        assertTrue(assertThrows(ToolException.class, () -> inspect(two)).getMessage().contains("two top folders"));
        ArchiveFixture flat = ArchiveFixture.empty("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip", ArchiveFixture.Format.ZIP)
                .file("cudnn64_8.dll", "x");
        assertTrue(assertThrows(ToolException.class, () -> inspect(flat)).getMessage().contains("not inside a top folder"));
    }

    @Test
    void worksOnAnyFileSystem() throws Exception {
        for (Configuration c : List.of(Configuration.windows(), Configuration.unix())) {
            try (FileSystem fs = Jimfs.newFileSystem(c)) {
                Path d = fs.getRootDirectories().iterator().next().resolve("downloads");
                Files.createDirectories(d);
                Path p = ArchiveFixture.windows("8.9.5.30", "12").writeTo(d);
                ArchiveReport r = new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null);
                assertTrue(r.acceptable());
                assertNotNull(r.archive().sha256());
            }
        }
    }

    private static EntrySink recordingSink(List<String> calls) {
        return new EntrySink() {
            @Override
            public void directory(ArchiveItem item) {
                calls.add("dir " + item.path());
            }

            @Override
            public void file(ArchiveItem item, InputStream content) throws IOException {
                calls.add("file " + item.path());
                content.transferTo(new ByteArrayOutputStream());
            }

            @Override
            public void symlink(ArchiveItem item) {
                calls.add("link " + item.path());
            }

            @Override
            public void hardlink(ArchiveItem item) {
                calls.add("hard " + item.path());
            }
        };
    }

    static String sha256(byte[] bytes) throws Exception {
        return Hex.of(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
