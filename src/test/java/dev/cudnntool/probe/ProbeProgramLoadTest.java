package dev.cudnntool.probe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.verify.ProbeCheck;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * #33 item 1: the probe loads only the main library, as a program does, calls cuDNN's own per-sub-library version
 * checks and lists what the loader mapped, each file with its own version. Read from real runs
 * (src/test/resources/probe/README.md): real 9.5.1 as installed, 9.24's ops library under 9.5.1's name, and
 * 9.5.1's ops library picked up from the current folder through an empty LD_LIBRARY_PATH entry.
 */
class ProbeProgramLoadTest {
    static final String LIB = ProbeGoldenTest.LIB;

    private static Host linux(Map<String, String> env) {
        return TestHosts.linux(TestHosts.unixFs(), env, new FakeRunner());
    }

    private static List<Finding> findings(Host host, ProbeResult p) {
        return ProbeCheck.findings(host, p, null, null, DriverInfo.NONE);
    }

    @Test
    void mapsListsEachFileOnceInOrderOfFirstMapping() {
        String maps = "7f00-7f01 r--p 00000000 08:01 123 /tmp/l/libcudnn.so.9.5.1\n"
                + "7f01-7f02 r-xp 00001000 08:01 123 /tmp/l/libcudnn.so.9.5.1\n"
                + "7f02-7f03 rw-p 00000000 00:00 0 \n"
                + "7f03-7f04 r--p 00000000 08:01 124 /tmp/a b/libcudnn_ops.so.9.5.1\n"
                + "7ffd-7ffe rw-p 00000000 00:00 0 [stack]\n";
        assertEquals(List.of("/tmp/l/libcudnn.so.9.5.1", "/tmp/a b/libcudnn_ops.so.9.5.1"), MappedFiles.parse(maps));
        assertTrue(MappedFiles.isCudnn("/tmp/a b/libcudnn_ops.so.9.5.1"));
        assertFalse(MappedFiles.isCudnn("/usr/lib/libz.so.1"));
        assertFalse(MappedFiles.isCudnn("/opt/libcudnn/libfoo.so"));
    }

    @Test
    void aSubLibrarysVersionSymbolIsMajorMinorPatchOneByteEach() {
        assertEquals("9.5.1", SubLibraryVersion.decode(0x090501)); // 9.5.1's cudnn_ops_infer_version: 591105
        assertEquals("9.24.0", SubLibraryVersion.decode(0x091800)); // 9.24.0's: 595968
        assertEquals("8.9.7", SubLibraryVersion.decode(0x080907)); // 8.9.7's: 526599
        assertNull(SubLibraryVersion.decode(0));
        assertNull(SubLibraryVersion.decode(-1));
    }

    @Test
    void aMatchingCopyAnswersZeroToEveryVersionCheckWithoutAGpu() throws IOException {
        ProbeResult p = ProbeGoldenTest.parse(LIB + "libcudnn.so.9", "real-9.5.1-program-load.jsonl");
        assertEquals(List.of("cudnnGraphVersionCheck", "cudnnOpsVersionCheck", "cudnnCnnVersionCheck", "cudnnAdvVersionCheck"),
                p.versionChecks().stream().map(ProbeResult.VersionCheck::function).toList());
        assertTrue(p.versionChecks().stream().allMatch(c -> c.status() == 0), p.versionChecks()::toString);
        assertEquals(5, p.mapped().size());
        assertTrue(p.mapped().contains(new ProbeResult.Mapped(LIB + "libcudnn_ops.so.9.5.1", "9.5.1")), p.mapped()::toString);
        assertTrue(p.mapped().contains(new ProbeResult.Mapped(LIB + "libcudnn_cnn.so.9.5.1", null)), p.mapped()::toString);
        assertEquals(7, p.subLibraries().size());
        assertTrue(p.subLibraries().stream().allMatch(ProbeResult.SubLibrary::loaded));
        assertEquals(1001, p.handleStatus());
        assertFalse(p.incomplete());
        List<Finding> f = findings(linux(Map.of()), p);
        assertTrue(f.stream().noneMatch(x -> x.is(FindingId.CUDNN_MIXED_VERSIONS) || x.is(FindingId.CUDNN_SUBLIBRARY_ELSEWHERE)),
                f::toString);
        assertFalse(Finding.anyError(f), f::toString);
    }

    @Test
    void anotherReleasesOpsLibraryUnderThisReleasesNameIsAnError() throws IOException {
        ProbeResult p = ProbeGoldenTest.parse(LIB + "libcudnn.so.9", "real-9.24-ops-under-9.5.1.jsonl");
        assertEquals(1002, p.versionChecks().stream().filter(c -> c.function().equals("cudnnOpsVersionCheck"))
                .findFirst().orElseThrow().status());
        assertEquals("CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", p.versionChecks().get(1).statusName());
        assertEquals(0, p.versionChecks().get(0).status()); // graph is 9.5.1's own
        assertTrue(p.mapped().contains(new ProbeResult.Mapped(LIB + "libcudnn_ops.so.9.5.1", "9.24.0")), p.mapped()::toString);
        // every file loads: judged by loading alone (or by its name) it passed
        assertTrue(p.subLibraries().stream().allMatch(ProbeResult.SubLibrary::loaded));
        List<Finding> f = findings(linux(Map.of()), p);
        Finding mixed = f.stream().filter(x -> x.is(FindingId.CUDNN_MIXED_VERSIONS)).findFirst().orElseThrow(() -> new AssertionError(f.toString()));
        assertEquals(Severity.ERROR, mixed.severity());
        assertTrue(mixed.message().contains("cudnnOpsVersionCheck answered 1002 CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"),
                mixed.message());
        assertTrue(mixed.message().contains(LIB + "libcudnn_ops.so.9.5.1 is cuDNN 9.24.0"), mixed.message());
        assertTrue(mixed.message().contains("(cuDNN 9.5.1)"), mixed.message());
    }

    @Test
    void aSubLibraryFromTheCurrentFolderThroughAnEmptySearchPathEntryIsNamed() throws IOException {
        ProbeResult p = ProbeGoldenTest.parse(LIB + "libcudnn.so.9", "real-ops-from-current-folder.jsonl");
        assertTrue(p.mapped().contains(new ProbeResult.Mapped("/tmp/diag1-cwd/libcudnn_ops.so.9.5.1", "9.5.1")),
                p.mapped()::toString);
        List<Finding> f = findings(linux(Map.of("LD_LIBRARY_PATH", ":")), p);
        Finding away = f.stream().filter(x -> x.is(FindingId.CUDNN_SUBLIBRARY_ELSEWHERE)).findFirst().orElseThrow(() -> new AssertionError(f.toString()));
        assertEquals(Severity.WARN, away.severity());
        assertTrue(away.message().contains("/tmp/diag1-cwd/libcudnn_ops.so.9.5.1 (cuDNN 9.5.1)"), away.message());
        assertTrue(away.message().contains("empty entry"), away.message());
        assertTrue(away.remedy().text().contains("remove the empty entry from LD_LIBRARY_PATH"), away.remedy()::toString);
        // same release: the version checks pass, so no mismatch is claimed
        assertTrue(f.stream().noneMatch(x -> x.is(FindingId.CUDNN_MIXED_VERSIONS)), f::toString);
    }

    @Test
    void theJsonKeepsItsFieldsAndAddsVersionChecksAndMapped() throws IOException {
        ProbeResult p = ProbeGoldenTest.parse(LIB + "libcudnn.so.9", "real-9.24-ops-under-9.5.1.jsonl");
        JsonNode j = new ObjectMapper().valueToTree(p);
        for (String field : List.of("library", "loadedPath", "version", "versionString", "cudartVersion", "properties",
                "handleStatus", "subLibraries", "crashed", "timedOut")) {
            assertTrue(j.has(field), field);
        }
        assertEquals(1002, j.get("versionChecks").get(1).get("status").asInt());
        assertEquals("cudnnOpsVersionCheck", j.get("versionChecks").get(1).get("function").asText());
        assertEquals("9.24.0", j.get("mapped").get(1).get("version").asText());
        assertFalse(j.get("mapped").get(2).has("version")); // cnn exports no version symbol
    }

    @Test
    void aChildThatDiesInsideCudnnIsAskedAgainWithTheSubLibrariesFirst() {
        String aborted = "{\"event\":\"mainLoaded\",\"path\":\"/t/libcudnn.so.9\",\"loadedPath\":\"/t/libcudnn.so.9\"}\n"
                + "{\"event\":\"calling\",\"function\":\"cudnnGetVersion\"}\n";
        String named = "{\"event\":\"loading\",\"path\":\"/t/libcudnn_graph.so.9\"}\n"
                + "{\"event\":\"subLibrary\",\"path\":\"/t/libcudnn_graph.so.9\",\"loaded\":false,"
                + "\"error\":\"/t/libcudnn_graph.so.9: cannot open shared object file: Permission denied\"}\n"
                + "{\"event\":\"done\"}\n";
        FakeRunner fake = new FakeRunner()
                .on("--sub /t/libcudnn_graph.so.9", FakeRunner.failed(134, aborted, "Unable to load any of {libcudnn_graph.so.9}"))
                .on("--order subs-first", FakeRunner.ok(named));
        ProbeResult p = new ProbeRunner(fake, List.of("java")).probe(Path.of("/t/libcudnn.so.9"), null,
                List.of(Path.of("/t/libcudnn_graph.so.9")));
        assertEquals(2, fake.calls.size());
        assertFalse(p.subLibraries().get(0).loaded());
        assertTrue(p.subLibraries().get(0).error().contains("Permission denied"), p.toString());

        // a child that gets through is asked once
        FakeRunner once = new FakeRunner().on("--sub /t/libcudnn_graph.so.9", FakeRunner.ok(aborted + "{\"event\":\"done\"}\n"));
        new ProbeRunner(once, List.of("java")).probe(Path.of("/t/libcudnn.so.9"), null,
                List.of(Path.of("/t/libcudnn_graph.so.9")));
        assertEquals(1, once.calls.size());
    }
}
