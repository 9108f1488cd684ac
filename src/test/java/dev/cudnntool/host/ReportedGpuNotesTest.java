package dev.cudnntool.host;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.ReportedFacts;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * #30 item 2's rest: third-party facts that bear on verify's and install's GPU check ({@link GpuSupport}) are
 * {@code cudnn.gpu-reported} notes, "reported (not NVIDIA's word)" with their source, and never change a finding's
 * severity on their own authority.
 */
class ReportedGpuNotesTest {
    private static final Host HOST = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());

    private static DriverInfo gpu(String name, String cc) {
        return new DriverInfo("/usr/bin/nvidia-smi", "575.51.03", "12.9", List.of(new NvidiaSmi.Gpu(name, "575.51.03", cc)));
    }

    private static List<Finding> notes(List<Finding> all) {
        return all.stream().filter(f -> f.is(FindingId.CUDNN_GPU_REPORTED)).toList();
    }

    @Test
    void aClaimThatBearsOnThePascalIsANoteWithItsSourceNeverAnError() {
        List<Finding> all = GpuSupport.findings(HOST, gpu("NVIDIA GeForce GTX 1080", "6.1"), "9.11.0", 12);
        List<Finding> notes = notes(all);
        assertEquals(1, notes.size(), all.toString());
        Finding n = notes.get(0);
        assertEquals(Severity.INFO, n.severity());
        assertTrue(n.message().startsWith("reported (not NVIDIA's word): cuDNN 9.11.0 for CUDA 12"), n.message());
        assertTrue(n.message().contains("source: ") && n.message().contains("GTX 1080 (compute capability 6.1)"), n.message());
        ReportedFacts.Fact fact = ReportedFacts.bundled().about("9.11.0.98", 12).get(0);
        assertTrue(n.message().contains(fact.source()), n.message());
        List<Finding> without = GpuSupport.findings(HOST, gpu("NVIDIA GeForce GTX 1080", "6.1"), "9.11.0", 12,
                SupportMatrix.bundled(), ReportedFacts.none(), Catalogue::bundled);
        assertEquals(without, all.stream().filter(f -> !f.is(FindingId.CUDNN_GPU_REPORTED)).toList(),
                "the note adds nothing else and changes no other finding");
    }

    @Test
    void aTuringOrAnotherReleaseGetsNoNote() {
        assertEquals(List.of(), notes(GpuSupport.findings(HOST, gpu("NVIDIA GeForce RTX 2080", "7.5"), "9.11.0", 12)));
        assertEquals(List.of(), notes(GpuSupport.findings(HOST, gpu("NVIDIA GeForce GTX 1080", "6.1"), "9.10.2", 12)));
        assertEquals(List.of(), notes(GpuSupport.findings(HOST, gpu("NVIDIA GeForce GTX 1080", "6.1"), "9.11.0", 11)));
        assertEquals(List.of(), notes(GpuSupport.findings(HOST, DriverInfo.NONE, "9.11.0", 12)), "no driver, nothing checked");
    }

    @Test
    void aTranscriptionOfARowNvidiasMatrixLacksIsANote() {
        List<Finding> all = GpuSupport.findings(HOST, gpu("NVIDIA GeForce RTX 3090", "8.6"), "9.1.1", 12);
        List<Finding> notes = notes(all);
        assertEquals(1, notes.size(), all.toString());
        assertTrue(notes.get(0).message().contains("does not hold this release"), notes.get(0).message());
        assertTrue(all.stream().noneMatch(f -> f.severity() == Severity.ERROR), all.toString());
    }

    /** Seeded: whatever the claim says, findings other than the notes are those without any reported fact. */
    @TestFactory
    Stream<DynamicTest> aClaimNeverRaisesOrLowersAFinding() {
        Random r = new Random(30_25);
        String[] releases = {"9.11.0", "9.10.2", "9.5.1", "9.17.0", "9.27.0", "8.9.7"};
        String[] ccs = {"3.7", "5.0", "6.1", "7.0", "7.5", "8.6", "9.0", "12.0"};
        return Stream.generate(() -> {
            String release = releases[r.nextInt(releases.length)];
            int cuda = r.nextBoolean() ? 12 : r.nextBoolean() ? 11 : 13;
            String cc = ccs[r.nextInt(ccs.length)];
            String bound = ccs[r.nextInt(ccs.length)];
            return DynamicTest.dynamicTest(release + " cuda" + cuda + " cc" + cc + " claim<" + bound, () -> {
                ReportedFacts claim = ReportedFacts.parse(("{\"schema\":1,\"rows\":[{\"release\":\"" + release + "\",\"cuda\":" + cuda
                        + ",\"kind\":\"third-party-claim\",\"says\":\"dropped GPUs below " + bound + "\",\"belowComputeCapability\":\""
                        + bound + "\",\"source\":\"example.org/claim\",\"quote\":\"q\"}]}").getBytes(StandardCharsets.UTF_8));
                DriverInfo d = gpu("GPU", cc);
                List<Finding> with = GpuSupport.findings(HOST, d, release, cuda, SupportMatrix.bundled(), claim, Catalogue::bundled);
                List<Finding> without = GpuSupport.findings(HOST, d, release, cuda, SupportMatrix.bundled(), ReportedFacts.none(),
                        Catalogue::bundled);
                assertEquals(without, with.stream().filter(f -> !f.is(FindingId.CUDNN_GPU_REPORTED)).toList());
                boolean below = CudaVersion.parse(cc).get().compareTo(CudaVersion.parse(bound).get()) < 0;
                assertEquals(below ? 1 : 0, notes(with).size(), with.toString());
                notes(with).forEach(n -> assertTrue(n.severity() == Severity.INFO && n.message().contains("example.org/claim")
                        && n.message().startsWith("reported (not NVIDIA's word)"), n.message()));
            });
        }).limit(40);
    }
}
