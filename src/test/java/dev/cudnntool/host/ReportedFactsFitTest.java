package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.ReportedFacts;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** #30 item 5: third-party facts are shown as reported, never as NVIDIA's word, and never refuse or recommend. */
class ReportedFactsFitTest {
    static final List<CatalogueEntry> ARCHIVES = List.of(
            CatalogueEntry.of("cudnn-linux-x86_64-9.11.0.98_cuda12-archive.tar.xz", "1".repeat(64), null),
            CatalogueEntry.of("cudnn-linux-x86_64-9.10.2.21_cuda12-archive.tar.xz", "2".repeat(64), null));

    @Test
    void theBundledTableHoldsOnlyThirdPartyFactsEachWithItsSourceAndQuote() {
        List<ReportedFacts.Fact> all = ReportedFacts.bundled().all();
        assertEquals(3, all.size(), all.toString());
        for (ReportedFacts.Fact f : all) {
            assertTrue(f.kind().startsWith("third-party-"), f.toString());
            assertFalse(f.source().isBlank() || f.quote().isBlank(), f.toString());
            assertEquals("reported", f.strength());
            assertTrue(f.line().startsWith("reported (not NVIDIA's word): cuDNN " + f.release()), f.line());
        }
        ReportedFacts.Fact t = ReportedFacts.bundled().about("9.1.1.17", 12).get(0);
        assertEquals("third-party-transcription", t.kind());
        assertTrue(t.source().contains("mxochicale"), t.source());
        assertTrue(ReportedFacts.bundled().about("9.1.1.17", 11).isEmpty(), "the transcription is of the CUDA 12 row only");
        assertEquals("7.5", ReportedFacts.bundled().about("9.11.0.98", 12).get(0).belowComputeCapability());
    }

    @Test
    void aClaimMakesAReleaseTheMatrixLacksNotKnownForTheGpuNeverRefused() {
        List<ReleaseFit.Row> pascal = ReleaseFit.mark(ARCHIVES, OsFamily.LINUX, null, DriverInfo.NONE, SupportMatrix.empty(),
                ReportedFacts.bundled(), null, "6.1");
        ReleaseFit.Row r911 = pascal.get(0);
        assertEquals(Boolean.TRUE, r911.gpuUncertain(), r911.toString());
        assertNotEquals(Boolean.FALSE, r911.gpuOk(), "a reported claim never says no on its own");
        assertFalse(r911.recommended());
        assertTrue(r911.why().contains("reported (not NVIDIA's word)") && r911.why().contains("conda-forge"), r911.why());
        assertTrue(pascal.get(1).recommended(), "9.10.2 is recommended as before");
        assertNull(pascal.get(1).reported());

        List<ReleaseFit.Row> ampere = ReleaseFit.mark(ARCHIVES, OsFamily.LINUX, null, DriverInfo.NONE, SupportMatrix.empty(),
                ReportedFacts.bundled(), null, "8.6");
        assertTrue(ampere.get(0).recommended(), "a GPU the claim does not touch: the release is recommended as without it");
        assertNull(ampere.get(0).gpuUncertain());
        assertEquals(1, ampere.get(0).reported().size(), "the claim is still shown, as a note");

        List<ReleaseFit.Row> without = ReleaseFit.mark(ARCHIVES, OsFamily.LINUX, null, DriverInfo.NONE, SupportMatrix.empty(),
                ReportedFacts.none(), null, "6.1");
        assertTrue(without.get(0).recommended(), "the claim alone made the difference, and only towards 'not known'");
    }

    @Test
    void nvidiasMatrixStandsOverAClaimAboutTheSameRelease() {
        SupportMatrix matrix = SupportMatrix.parse(("{\"schema\":1,\"rows\":[{\"release\":\"9.11.0\",\"cuda\":12,"
                + "\"toolkits\":[\"12.0\",\"12.9\"],\"driverLinux\":\"525.60.13\",\"driverWindows\":\"527.41\","
                + "\"computeCapabilities\":[\"5.0\",\"6.0\",\"6.1\",\"7.0\",\"7.5\",\"8.0\",\"8.6\",\"8.9\",\"9.0\"],"
                + "\"source\":\"https://example.invalid/matrix\"}]}").getBytes(StandardCharsets.UTF_8));
        ReleaseFit.Row r = ReleaseFit.mark(ARCHIVES.subList(0, 1), OsFamily.LINUX, null, DriverInfo.NONE, matrix,
                ReportedFacts.bundled(), null, "6.1").get(0);
        assertEquals(Boolean.TRUE, r.gpuOk());
        assertNull(r.gpuUncertain());
        assertTrue(r.recommended());
        assertEquals(1, r.reported().size(), "shown beside NVIDIA's word as a note");
    }

    @Test
    void theReaderRefusesNvidiaKindsAndBadRows() {
        String ok = "{\"release\":\"9.1.1\",\"cuda\":12,\"kind\":\"third-party-transcription\",\"says\":\"x\",\"source\":\"s\","
                + "\"quote\":\"q\"}";
        assertEquals(1, ReportedFacts.parse(("{\"schema\":1,\"rows\":[" + ok + "]}").getBytes(StandardCharsets.UTF_8)).all().size());
        for (String bad : new String[] {ok.replace("third-party-transcription", "nvidia-support-matrix"),
            ok.replace("9.1.1", "9.1"), ok.replace(",\"source\":\"s\"", ""), ok.replace("\"q\"", "\"\\u0007\""),
            ok.replace("\"says\":\"x\"", "\"says\":\"x\",\"belowComputeCapability\":\"seven\"")}) {
            assertThrows(IllegalArgumentException.class,
                    () -> ReportedFacts.parse(("{\"schema\":1,\"rows\":[" + bad + "]}").getBytes(StandardCharsets.UTF_8)), bad);
        }
    }
}
