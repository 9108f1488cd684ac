package dev.cudnntool.archive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.archive.name.LibraryName;
import dev.cudnntool.testing.ArchiveFixture;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 9, the archive side: classes A2, A3, A4, A6, C1, C2, C4, each as an attacker would try it. */
public class ArchiveHardeningTest {
    static final String TOP = "cudnn-linux-x86_64-8.9.5.30_cuda12-archive/";
    static final String WTOP = "cudnn-windows-x86_64-8.9.5.30_cuda12-archive/";

    @TempDir
    Path dir;

    private ArchiveReport inspect(ArchiveFixture f, List<String> sinkCalls) {
        Path p = f.writeTo(dir);
        return new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null,
                recording(sinkCalls), ReadProgress.NONE);
    }

    private ToolException refused(ArchiveFixture f, List<String> sinkCalls) {
        ToolException e = assertThrows(ToolException.class, () -> inspect(f, sinkCalls));
        assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode(), e.getMessage());
        assertOneLine(e.getMessage());
        return e;
    }

    public static void assertOneLine(String m) {
        assertFalse(m.contains("\n") || m.contains("\r"), "one line: " + m);
        assertFalse(m.contains("null"), "never 'null': " + m);
    }

    static EntrySink recording(List<String> calls) {
        return new EntrySink() {
            @Override
            public void directory(ArchiveItem item) {
                synchronized (calls) { // ParallelZip calls the sink from its threads
                    calls.add("dir " + item.relPath());
                }
            }

            @Override
            public void file(ArchiveItem item, InputStream content) throws IOException {
                content.readAllBytes();
                synchronized (calls) { // ParallelZip calls the sink from its threads
                    calls.add("file " + item.relPath());
                }
            }

            @Override
            public void symlink(ArchiveItem item) {
                synchronized (calls) { // ParallelZip calls the sink from its threads
                    calls.add("link " + item.relPath());
                }
            }

            @Override
            public void hardlink(ArchiveItem item) {
                synchronized (calls) { // ParallelZip calls the sink from its threads
                    calls.add("hard " + item.relPath());
                }
            }
        };
    }

    // ---- A2: the tool's state folder ---------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {".cudnn-tool/history/x/install.json", ".CUDNN-TOOL/journal.json", "lib/.Cudnn-Tool/",
            "include/a/b/.cudnn-tool/lock"})
    void stateFolderEntryIsRefused(String rel) {
        ArchiveFixture f = ArchiveFixture.linux("8.9.5.30", "12");
        if (rel.endsWith("/")) {
            f.dir(TOP + rel);
        } else {
            f.file(TOP + rel, "{}");
        }
        List<String> calls = new ArrayList<>();
        ToolException e = refused(f, calls);
        assertTrue(e.getMessage().contains(".cudnn-tool"), e.getMessage());
        assertTrue(calls.stream().noneMatch(c -> c.toLowerCase().contains(".cudnn-tool")), calls.toString());
    }

    // ---- A3: links, checked where they land ---------------------------------------------------

    @Test
    void linkLeavingItsFolderIsRefusedEvenWhenItStaysInsideTheArchive() {
        // Inside the archive's folder, but from lib64 (where lib/** lands) it leads to /etc/passwd.
        ArchiveFixture f = ArchiveFixture.linux("8.9.5.30", "12")
                .symlink(TOP + "lib/a/b/c/d/e/f/libcudnn_x.so", "../../../../../../../etc/passwd");
        assertTrue(refused(f, new ArrayList<>()).getMessage().contains("own folder"));
        ArchiveFixture inside = ArchiveFixture.linux("8.9.5.30", "12")
                .symlink(TOP + "lib/a/libcudnn_x.so", "../libcudnn.so.8.9.5");
        assertTrue(refused(inside, new ArrayList<>()).getMessage().contains("own folder"));
    }

    @Test
    void fileEntryThroughAnEarlierDirectoryLinkIsRefused() {
        ArchiveFixture f = ArchiveFixture.linux("8.9.5.30", "12")
                .symlink(TOP + "lib/up", "libcudnn.so.8.9.5")
                .file(TOP + "lib/up/libcudnn_x.so", "x");
        List<String> calls = new ArrayList<>();
        ToolException e = refused(f, calls);
        assertTrue(e.getMessage().contains("through the link"), e.getMessage());
        assertTrue(calls.stream().noneMatch(c -> c.contains("up/")), calls.toString());
    }

    @Test
    void directoryLinksAreRefused() {
        ArchiveFixture f = ArchiveFixture.linux("8.9.5.30", "12")
                .dir(TOP + "lib/sub/")
                .file(TOP + "lib/sub/libcudnn_y.so.8", "x")
                .symlink(TOP + "lib/libcudnn_y.so", "sub");
        assertTrue(refused(f, new ArrayList<>()).getMessage().contains("folder"));
    }

    @Test
    void danglingLoopingAndCrossKindLinksAreRefused() {
        assertTrue(refused(ArchiveFixture.linux("8.9.5.30", "12").symlink(TOP + "lib/libcudnn_z.so", "libcudnn_z.so.8"),
                new ArrayList<>()).getMessage().contains("names no file"));
        assertTrue(refused(ArchiveFixture.linux("8.9.5.30", "12")
                .symlink(TOP + "lib/libcudnn_a.so", "libcudnn_b.so")
                .symlink(TOP + "lib/libcudnn_b.so", "libcudnn_a.so"), new ArrayList<>()).getMessage().contains("loops"));
        assertTrue(refused(ArchiveFixture.linux("8.9.5.30", "12")
                .symlink(TOP + "lib/libcudnn_q.so", "libcudnn_static.a"), new ArrayList<>()).getMessage().contains("kind"));
    }

    @Test
    void nvidiasOwnLinkChainsStillPass() {
        List<String> calls = new ArrayList<>();
        ArchiveReport r = inspect(ArchiveFixture.linux("9.5.1.17", "12").symlink(TOP.replace("8.9.5.30", "9.5.1.17")
                + "lib/libcudnn_dot.so", "./libcudnn.so"), calls);
        assertTrue(r.acceptable(), r.findings().toString());
        assertTrue(calls.contains("link lib/libcudnn.so.9"), calls.toString());
    }

    // ---- A4: only cuDNN's files ---------------------------------------------------------------

    @Test
    void filesThatAreNotCudnnsAreAFindingAndNeverReachTheSink() {
        ArchiveFixture f = ArchiveFixture.linux("8.9.5.30", "12")
                .file(TOP + "include/cuda.h", "/* the toolkit's */")
                .file(TOP + "lib/libcudart.so.12", "x")
                .file(TOP + "lib/libc.so.6", "x")
                .file(TOP + "README", "x")
                .symlink(TOP + "lib/libcudart.so", "libcudart.so.12");
        List<String> calls = new ArrayList<>();
        ArchiveReport r = inspect(f, calls);
        assertFalse(r.acceptable());
        Finding foreign = r.findings().stream().filter(x -> x.id().equals("archive.foreign-file")).findFirst().orElseThrow();
        assertEquals(Severity.ERROR, foreign.severity());
        for (String name : List.of("include/cuda.h", "lib/libcudart.so.12", "lib/libc.so.6", "README", "lib/libcudart.so")) {
            assertTrue(foreign.message().contains(name), foreign.message());
            assertTrue(calls.stream().noneMatch(c -> c.endsWith(" " + name)), calls.toString());
        }
        assertOneLine(foreign.message());
    }

    @Test
    void windowsForeignFilesToo() {
        ArchiveFixture f = ArchiveFixture.windows("8.9.5.30", "12")
                .file(WTOP + "bin/zlibwapi.dll", "x")
                .file(WTOP + "bin/cudart64_12.dll", "x")
                .file(WTOP + "lib/x64/cuda.lib", "x");
        ArchiveReport r = inspect(f, new ArrayList<>());
        assertFalse(r.acceptable());
        String m = r.findings().stream().filter(x -> x.id().equals("archive.foreign-file")).findFirst().orElseThrow().message();
        assertTrue(m.contains("bin/zlibwapi.dll") && m.contains("bin/cudart64_12.dll") && m.contains("lib/x64/cuda.lib"), m);
    }

    @Test
    void cudnnFilesPredicateKnowsOnlyCudnnsNames() {
        for (String yes : List.of("cudnn.h", "cudnn_version.h", "CUDNN_OPS.H", "libcudnn.so", "libcudnn.so.9",
                "libcudnn_graph.so.9.5.1", "libcudnn_static.a", "libcudnn_adv_static_v9.a", "cudnn64_9.dll",
                "cudnn_ops64_9.dll", "cudnn.lib", "cudnn64_8.lib")) {
            assertTrue(CudnnFiles.isCudnnFile(yes), yes);
        }
        for (String no : List.of("cuda.h", "libcudart.so.12", "libc.so.6", "zlibwapi.dll", "cudart64_12.dll",
                "cublasLt64_12.dll", "libcudnn_x.so.99999999999", "LICENSE", "cudnn\n.h", "libcudnn.so.9.5")) {
            assertFalse(CudnnFiles.isCudnnFile(no), no);
        }
    }

    // ---- A6: one version header -------------------------------------------------------------

    @Test
    void onlyTheTopLevelVersionHeaderCounts() {
        ArchiveFixture f = ArchiveFixture.linux("8.9.5.30", "12")
                .file(TOP + "include/nested/cudnn_version.h", ArchiveFixture.versionHeader(CudnnVersion.of(9, 9, 9)));
        ArchiveReport r = inspect(f, new ArrayList<>());
        assertFalse(r.acceptable());
        assertEquals("8.9.5", r.evidence().headerVersion().toString(), "the nested copy never decides the version");
        String m = r.findings().stream().filter(x -> x.id().equals("archive.foreign-file")).findFirst().orElseThrow().message();
        assertTrue(m.contains("include/nested/cudnn_version.h") && m.contains("only include/cudnn_version.h counts"), m);
    }

    @Test
    void aVersionHeaderOnlyBelowIncludeIsNotTheVersion() {
        ArchiveFixture f = ArchiveFixture.linux("8.9.5.30", "12").remove("include/cudnn_version.h")
                .file(TOP + "include/x/cudnn_version.h", ArchiveFixture.versionHeader(CudnnVersion.of(8, 9, 5)));
        ArchiveReport r = inspect(f, new ArrayList<>());
        assertEquals(null, r.evidence().headerVersion());
        assertFalse(r.acceptable());
    }

    // ---- C1: names no target can hold, numbers that overflow, control characters -------------

    @Test
    void aTooLargeNumberInALibraryNameIsRefusedNotAnOverflow() {
        assertEquals(Optional.empty(), LibraryName.parse("libcudnn_x.so.99999999999"));
        assertEquals(Optional.empty(), LibraryName.parse("cudnn_x64_99999999999.dll"));
        assertEquals(Optional.empty(), LibraryName.parse("libcudnn_x_static_v99999999999.a"));
        assertEquals(Optional.empty(), HeaderVersion.parse("#define CUDNN_MAJOR 99999999999\n#define CUDNN_MINOR 1\n"
                + "#define CUDNN_PATCHLEVEL 1\n"));
        ArchiveReport r = inspect(ArchiveFixture.linux("8.9.5.30", "12").file(TOP + "lib/libcudnn_x.so.99999999999", "x"),
                new ArrayList<>());
        assertFalse(r.acceptable());
        ToolException name = assertThrows(ToolException.class,
                () -> ArchiveName.parse("cudnn-linux-x86_64-99999999999.9.5.17_cuda12-archive.tar.xz"));
        assertEquals(ExitCode.ARCHIVE_REJECTED, name.exitCode());
    }

    @Test
    void segmentsAndPathsLongerThanATargetHoldsAreRefused() {
        ToolException seg = refused(ArchiveFixture.linux("8.9.5.30", "12")
                .file(TOP + "lib/libcudnn_" + "x".repeat(300) + ".so.8", "x"), new ArrayList<>());
        assertTrue(seg.getMessage().contains("255"), seg.getMessage());
        String deep = (("d".repeat(200) + "/").repeat(21));
        ToolException path = refused(ArchiveFixture.linux("8.9.5.30", "12").file(TOP + "lib/" + deep + "libcudnn_x.so.8", "x"),
                new ArrayList<>());
        assertTrue(path.getMessage().contains("4095"), path.getMessage());
        assertTrue(path.getMessage().length() < 1000, "a long name is shortened in the message");
    }

    @ParameterizedTest
    @ValueSource(strings = {"lib/libcudnn\n.so.8", "include/cudnn\t.h", "lib/libcudnn\u001b[31m.so", "LICENSE\r"})
    void controlCharactersInNamesAreRefused(String rel) {
        ToolException e = refused(ArchiveFixture.linux("8.9.5.30", "12").file(TOP + rel, "x"), new ArrayList<>());
        assertTrue(e.getMessage().contains("control character"), e.getMessage());
    }

    @Test
    void controlCharactersInLinkTargetsAreRefused() {
        ToolException e = refused(ArchiveFixture.linux("8.9.5.30", "12").symlink(TOP + "lib/libcudnn_n.so",
                "libcudnn.so.8\nx"), new ArrayList<>());
        assertTrue(e.getMessage().contains("control character"), e.getMessage());
    }

    // ---- C2, C4: unreadable and damaged archives -----------------------------------------------

    @Test
    void anArchiveTheUserCannotReadIsExit2PermissionDenied() {
        // Tests run as root, who may read anything: the file system's refusal comes from the open port.
        Path p = ArchiveFixture.linux("8.9.5.30", "12").writeTo(dir);
        ArchiveInspector inspector = new ArchiveInspector(InspectionLimits.DEFAULT, a -> {
            throw new AccessDeniedException(a.toString());
        });
        ToolException e = assertThrows(ToolException.class,
                () -> inspector.inspect(p, ArchiveName.parse(p.getFileName().toString()), null));
        assertEquals(ExitCode.USAGE, e.exitCode());
        assertEquals("cannot read " + p + " (permission denied)", e.getMessage());
    }

    @Test
    void aFolderInPlaceOfTheArchiveIsExit2() throws Exception {
        Path p = Files.createDirectories(dir.resolve("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz"));
        ToolException e = assertThrows(ToolException.class,
                () -> new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null));
        assertEquals(ExitCode.USAGE, e.exitCode());
        assertTrue(e.getMessage().startsWith("cannot read " + p + " ("), e.getMessage());
    }

    @Test
    void aTruncatedArchiveNeverSaysNull() throws Exception {
        for (ArchiveFixture f : List.of(ArchiveFixture.linux("8.9.5.30", "12"), ArchiveFixture.legacyLinux("10.2", "7.6.5.32"),
                ArchiveFixture.windows("8.9.5.30", "12"))) {
            Path p = f.writeTo(dir);
            byte[] bytes = Files.readAllBytes(p);
            for (int cut : new int[] {bytes.length - 1, bytes.length / 2, 100, 10}) {
                Files.write(p, Arrays.copyOf(bytes, cut));
                ToolException e = assertThrows(ToolException.class,
                        () -> new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null));
                assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode(), e.getMessage());
                assertOneLine(e.getMessage());
                assertTrue(e.getMessage().contains(p.getFileName().toString()), e.getMessage());
            }
        }
    }

    @Test
    void manifestErrorsAreOneLineAndNameTheFile() throws Exception {
        String archive = "cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz";
        Path m = dir.resolve("redistrib_8.9.5.json");
        for (String text : List.of("{\"cudnn\": {", "not json", "", "{\"a\": [1, 2,, 3]}",
                "{\"x\": {\"relative_path\": \"cudnn/" + archive + "\", \"sha256\": \"" + "a".repeat(64) + "\", \"size\": \"99999999999999999999999\"}}",
                "{\"x\": {\"relative_path\": \"cudnn/" + archive + "\", \"sha256\": \"zz\"}}")) {
            Files.writeString(m, text);
            ToolException e = assertThrows(ToolException.class, () -> ChecksumExpectation.fromManifest(m, archive), text);
            assertEquals(ExitCode.USAGE, e.exitCode(), e.getMessage());
            assertOneLine(e.getMessage());
            assertFalse(e.getMessage().contains("[Source"), e.getMessage());
            assertTrue(e.getMessage().contains(m.toString()), e.getMessage());
        }
        ToolException missing = assertThrows(ToolException.class,
                () -> ChecksumExpectation.fromManifest(dir.resolve("nope.json"), archive));
        assertTrue(missing.getMessage().endsWith("(no such file)"), missing.getMessage());
    }
}
