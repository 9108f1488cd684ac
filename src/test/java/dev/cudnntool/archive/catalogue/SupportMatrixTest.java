package dev.cudnntool.archive.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bundled support matrix against rows checked by hand against NVIDIA's pages (the URL in each row), and its
 * reader against hostile files.
 */
class SupportMatrixTest {
    private static final SupportMatrix M = SupportMatrix.bundled();
    private static final List<String> UP_TO_HOPPER = List.of("5.0", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0");
    private static final List<String> TURING_ON = List.of("7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0");

    private static SupportMatrix.Row row(String release, int cuda, String toolkit) {
        List<SupportMatrix.Row> rows = M.rows(release, cuda).stream().filter(r -> r.toolkits().contains(toolkit)).toList();
        assertEquals(1, rows.size(), release + " CUDA " + cuda + " toolkit " + toolkit + ": " + rows);
        return rows.get(0);
    }

    private static void pinned(SupportMatrix.Row r, List<String> toolkits, String linux, String windows, List<String> cc, String page) {
        assertEquals(toolkits, r.toolkits(), r.toString());
        assertEquals(linux, r.driverLinux(), r.toString());
        assertEquals(windows, r.driverWindows(), r.toString());
        assertEquals(cc, r.computeCapabilities(), r.toString());
        assertTrue(r.source().startsWith(page), r.source());
    }

    @Test
    void aDozenRowsCheckedByHandAgainstNvidiasPages() {
        List<String> t12all = List.of("12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6", "12.8", "12.9");
        List<String> t12to6 = List.of("12.0", "12.1", "12.2", "12.3", "12.4", "12.5", "12.6");
        List<String> t11 = List.of("11.0", "11.1", "11.2", "11.3", "11.4", "11.5", "11.6", "11.7");
        String docs = "https://docs.nvidia.com/deeplearning/";
        // 9.10.2 for CUDA 12.x: Blackwell needs 12.8+ and 570.26 / 570.65; up to Hopper 12.0-12.9 and 525.60.13 / 527.41
        assertEquals(2, M.rows("9.10.2", 12).size());
        pinned(M.rows("9.10.2", 12).get(0), List.of("12.8", "12.9"), "570.26", "570.65",
                List.of("5.0", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"), docs + "cudnn/latest/");
        pinned(M.rows("9.10.2", 12).get(1), t12all, "525.60.13", "527.41", UP_TO_HOPPER, docs + "cudnn/latest/");
        pinned(row("9.10.2", 11, "11.8"), List.of("11.8"), "450.80.02", "452.39", UP_TO_HOPPER, docs + "cudnn/latest/");
        // 9.17.0: CUDA 13 build needs 580.65.06 on Linux (N/A on Windows); its CUDA 12 build is Turing (7.5) and newer only
        pinned(row("9.17.0", 13, "13.0"), List.of("13.0", "13.1"), "580.65.06", null, TURING_ON, docs + "sdk/cudnn-support-matrix/");
        pinned(row("9.17.0", 12, "12.4"), t12all, "525.60.13", "527.41", TURING_ON, docs + "sdk/cudnn-support-matrix/");
        pinned(row("9.5.1", 12, "12.6"), t12to6, "525.60.13", "527.41", UP_TO_HOPPER, docs + "cudnn/backend/v9.5.1/");
        pinned(row("9.5.1", 11, "11.8"), List.of("11.8"), "450.80.02", "452.39", UP_TO_HOPPER, docs + "cudnn/backend/v9.5.1/");
        pinned(row("9.5.0", 11, "11.4"), t11, "450.80.02", "452.39", UP_TO_HOPPER, docs + "cudnn/v9.5.0/");
        pinned(row("9.0.0", 12, "12.3"), List.of("12.3"), "525.60.13", "527.41", UP_TO_HOPPER, docs + "cudnn/backend/v9.0.0/");
        pinned(row("9.0.0", 12, "12.1"), List.of("12.0", "12.1", "12.2"), "525.60.13", "527.41", UP_TO_HOPPER,
                docs + "cudnn/backend/v9.0.0/");
        pinned(row("8.9.5", 12, "12.2"), List.of("12.0", "12.1", "12.2"), "525.60.13", "527.41", UP_TO_HOPPER,
                docs + "cudnn/archives/cudnn-895/");
        pinned(row("8.9.6", 11, "11.8"), List.of("11.0", "11.1", "11.2", "11.3", "11.4", "11.5", "11.6", "11.7", "11.8"),
                "450.80.02", "452.39", UP_TO_HOPPER, docs + "cudnn/archives/cudnn-896/");
        pinned(row("8.9.1", 12, "12.1"), List.of("12.0", "12.1"), "525.60.13", "527.41", UP_TO_HOPPER,
                docs + "cudnn/archives/cudnn-891/");
        for (SupportMatrix.Row r : M.all()) {
            assertTrue(r.source().startsWith("https://docs.nvidia.com/deeplearning/"), "every row names NVIDIA's page: " + r);
        }
    }

    private static void old(SupportMatrix.Row r, List<String> toolkits, String driver, String from, String page) {
        assertEquals(toolkits, r.toolkits(), r.toString());
        assertEquals(driver, r.driverLinux(), r.toString());
        assertEquals(driver, r.driverWindows(), "old pages have one driver column for both OSes: " + r);
        assertEquals(from, r.computeCapabilityFrom(), r.toString());
        assertTrue(r.source().startsWith(page), r.source());
    }

    @Test
    void rowsOfOldPagesCheckedByHand() {
        String archives = "https://docs.nvidia.com/deeplearning/cudnn/archives/";
        // cudnn-803: "cuDNN 8.0.2 - 8.0.3": CUDA 11.0 SM 3.5 and later r450; 10.2 SM 3.0 and later r440; 10.1 Update 2 r418.39
        old(row("8.0.3", 11, "11.0"), List.of("11.0"), "450", "3.5", archives + "cudnn-803/");
        old(row("8.0.2", 10, "10.2"), List.of("10.2"), "440", "3.0", archives + "cudnn-803/");
        old(row("8.0.2", 10, "10.1"), List.of("10.1"), "418.39", "3.0", archives + "cudnn-803/");
        // cudnn-822, table of 8.2.0 and 8.2.1: 11.3 r465; 11.2 update 1 "r460, r455, r450" and 11.1, 11.0: the lowest, r450
        old(row("8.2.1", 11, "11.3"), List.of("11.3"), "465", "3.5", archives + "cudnn-822/");
        old(row("8.2.0", 11, "11.2"), List.of("11.2", "11.1", "11.0"), "450", "3.5", archives + "cudnn-822/");
        // cudnn-840 and cudnn-850 point to CUDA's compatibility document instead of a driver column
        old(row("8.4.0", 11, "11.6"), List.of("11.6", "11.5", "11.4", "11.3", "11.2", "11.1", "11.0"), null, "3.5",
                archives + "cudnn-840/");
        old(row("8.5.0", 11, "11.7"), List.of("11.7", "11.6", "11.5", "11.4", "11.3", "11.2", "11.1", "11.0"), null, "3.5",
                archives + "cudnn-850/");
        assertTrue(M.rows("8.5.0", 10).isEmpty(), "the 8.5.0 PDF's excerpt ends before its CUDA 10.2 row: not invented");
        // cudnn_760: 7.5.1 with CUDA 10.1.105, r418.39; Turing (7.5), Volta (7.x), Xavier (7.2), Pascal (6.x), Maxwell (5.x), Kepler (3.x)
        SupportMatrix.Row r751 = row("7.5.1", 10, "10.1");
        assertEquals(List.of("7.5", "7.0", "7.2", "6.0", "5.0", "3.0"), r751.computeCapabilities());
        assertEquals("418.39", r751.driverLinux());
        assertTrue(r751.supportsGpu("3.7") && r751.supportsGpu("6.1") && !r751.supportsGpu("8.0"), "x.x means every minor, not later majors");
        assertEquals("410.48", row("7.5.0", 10, "10.0").driverLinux());
        assertTrue(M.rows("7.5.0", 10).stream().noneMatch(r -> r.hasToolkit(10, 1)), "7.5.0's table has no CUDA 10.1 row");
        // what the tool makes of them
        assertNull(M.fit("8.4.0.27", 11, new int[] {11, 6}, "8.6", false).driverMinimum(), "none published: the CUDA major's minimum decides");
        assertEquals(false, M.fit("8.2.1.32", 11, null, "3.0", false).gpuOk(), "CUDA 11 builds start at SM 3.5");
        assertEquals(true, M.fit("8.2.1.32", 10, null, "3.0", false).gpuOk());
        assertEquals("450", M.fit("8.2.1.32", 11, new int[] {11, 1}, null, false).driverMinimum());
    }

    @Test
    void aReleaseWhosePageWasNotReadHasNoRows() {
        assertTrue(M.rows("9.1.0", 12).isEmpty(), "9.1.0's page lost its toolkit and GPU columns: not invented");
        assertTrue(M.rows("9.27.0.42", 13).isEmpty());
        assertFalse(M.fit("9.27.0.42", 13, null, "7.0", false).known());
        assertNull(M.fit("9.27.0.42", 13, null, "7.0", false).gpuOk());
    }

    @Test
    void theRowThatFitsDecidesGpuToolkitAndDriver() {
        // Blackwell on 9.10.2's CUDA 12 build: only with 12.8+, and then 570.26 / 570.65
        SupportMatrix.Fit blackwell = M.fit("9.10.2.21", 12, null, "12.0", false);
        assertEquals(true, blackwell.gpuOk());
        assertEquals("570.26", blackwell.driverMinimum());
        assertEquals("570.65", M.fit("9.10.2.21", 12, null, "10.0", true).driverMinimum());
        SupportMatrix.Fit on124 = M.fit("9.10.2.21", 12, new int[] {12, 4}, "12.0", false);
        assertEquals(true, on124.toolkitOk());
        assertEquals(false, on124.gpuOk(), "Blackwell is not in the 12.0-12.9 row");
        assertTrue(on124.why().contains("needs toolkit 12.8–12.9"), on124.why());
        assertEquals("525.60.13", M.fit("9.10.2.21", 12, null, "8.6", false).driverMinimum());
        assertEquals("525.60.13", M.fit("9.10.2.21", 12, null, null, false).driverMinimum(), "no GPU: the lowest row");
        // 9.17.0 dropped Maxwell, Pascal and Volta
        SupportMatrix.Fit volta = M.fit("9.17.0.29", 12, null, "7.0", false);
        assertEquals(false, volta.gpuOk());
        assertTrue(volta.why().contains("7.5–12.0"), volta.why());
        assertEquals(true, M.fit("9.17.0.29", 12, null, "8.7", false).gpuOk(), "Orin runs the 8.6 code (binary compatibility)");
        assertEquals(true, M.fit("9.5.1.17", 12, null, "5.2", false).gpuOk(), "Maxwell 5.2 runs 5.0 code");
        assertEquals(false, M.fit("9.5.1.17", 12, null, "12.0", false).gpuOk(), "no Blackwell before 9.7");
        assertEquals(false, M.fit("9.5.1.17", 12, null, "3.7", false).gpuOk(), "Kepler");
        // CUDA 13 on Windows: N/A on the page
        assertNull(M.fit("9.17.0.29", 13, null, null, true).driverMinimum());
        assertEquals("580.65.06", M.fit("9.17.0.29", 13, null, null, false).driverMinimum());
        // toolkit minors
        assertEquals(false, M.fit("8.9.5.30", 12, new int[] {12, 4}, null, false).toolkitOk());
        assertEquals(true, M.fit("9.5.1.17", 12, new int[] {12, 4}, null, false).toolkitOk());
    }

    @Test
    void aReleaseItDoesNotHoldIsRefusedOnlyWhenTheReleasesAroundItSayTheSame() {
        assertTrue(M.droppedBefore("8.9.7.29", 12, "12.0").orElseThrow().contains("8.9.6 and 9.0.0"), "between two without Blackwell");
        assertTrue(M.droppedBefore("9.27.0.42", 12, "7.0").orElseThrow().contains("9.17.0"), "Volta was dropped by 9.17.0");
        assertTrue(M.droppedBefore("9.27.0.42", 12, "13.0").isEmpty(), "a GPU newer than 9.17.0 knows may come later");
        assertTrue(M.droppedBefore("9.27.0.42", 12, "8.6").isEmpty());
        assertTrue(M.droppedBefore("9.7.0.66", 12, "12.0").isEmpty(), "9.5.1 lacks Blackwell but 9.10.2 has it");
        assertTrue(M.droppedBefore("9.5.1.17", 12, "12.0").isEmpty(), "a release it holds says so itself (gpuOk)");
        assertTrue(M.droppedBefore("9.27.0.42", 12, null).isEmpty());
        assertTrue(M.droppedBefore("8.9.0.131", 11, "3.7").isEmpty(), "8.5.0 before it supports Kepler");
    }

    @Test
    void aReleaseBetweenOneThatSupportsTheGpuAndOneThatDoesNotIsNotKnown() {
        assertTrue(M.droppedBetween("8.9.0.131", 11, "3.7").orElseThrow().contains("8.5.0 (CUDA 11) supports compute capability 3.7"
                + " and 8.9.1 does not"));
        assertTrue(M.droppedBetween("8.9.0.131", 11, "8.6").isEmpty(), "both sides support Ampere");
        assertTrue(M.droppedBetween("8.9.5.30", 11, "3.7").isEmpty(), "a release it holds says so itself");
        assertTrue(M.droppedBetween("9.27.0.42", 12, "7.0").isEmpty(), "nothing newer is held: droppedBefore decides");
        assertTrue(M.droppedBetween("9.12.0.46", 12, "7.0").orElseThrow().contains("9.10.2"), "Volta: 9.10.2 has it, 9.17.0 not");
        assertTrue(M.droppedBetween("8.9.0.131", 11, null).isEmpty());
    }

    private static SupportMatrix parse(String json) {
        return SupportMatrix.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static final String GOOD_ROW = "{\"release\":\"9.5.1\",\"cuda\":12,\"toolkits\":[\"12.0\"],\"driverLinux\":\"525.60.13\","
            + "\"driverWindows\":\"527.41\",\"computeCapabilities\":[\"9.0\"],\"source\":\"https://docs.nvidia.com/x\"}";

    /** A row of an old page: a driver branch for both OSes (or none), and "SM 3.5 and later". */
    private static final String OLD_ROW = "{\"release\":\"8.2.1\",\"cuda\":11,\"toolkits\":[\"11.3\"],\"driverLinux\":\"465\","
            + "\"driverWindows\":null,\"computeCapabilities\":[],\"computeCapabilityFrom\":\"3.5\",\"source\":\"https://docs.nvidia.com/y\"}";

    @Test
    void anOldPagesRowNamesTheLowestComputeCapabilityAndMayLackADriverMinimum() {
        SupportMatrix m = parse("{\"schema\":1,\"rows\":[" + OLD_ROW + "," + OLD_ROW.replace("\"465\"", "null")
                .replace("11.3", "11.2") + "]}");
        assertEquals(2, m.all().size());
        SupportMatrix.Row r = m.all().get(0);
        assertEquals(List.of(), r.computeCapabilities());
        assertEquals("3.5 and later", r.computeRange());
        assertTrue(r.supportsGpu("3.5") && r.supportsGpu("3.7") && r.supportsGpu("8.6") && r.supportsGpu("9.0"));
        assertFalse(r.supportsGpu("3.0"), "Kepler 3.0 is below SM 3.5");
        assertEquals("465", m.fit("8.2.1.32", 11, new int[] {11, 3}, "8.6", false).driverMinimum(), "the branch is the minimum");
        assertNull(m.fit("8.2.1.32", 11, new int[] {11, 2}, "8.6", false).driverMinimum(), "the page publishes none");
        assertNull(m.fit("8.2.1.32", 11, null, null, true).driverMinimum(), "none for Windows");
        SupportMatrix.Fit kepler = m.fit("8.2.1.32", 11, null, "3.0", false);
        assertEquals(false, kepler.gpuOk());
        assertTrue(kepler.why().contains("3.5 and later, not 3.0"), kepler.why());
        assertThrows(IllegalArgumentException.class, () -> new SupportMatrix.Row("8.2.1", 11, List.of("11.3"), "465", null,
                List.of("8.6"), "3.5", "https://docs.nvidia.com/y", null), "both a list and a lowest");
    }

    @Test
    void theReaderRefusesWhatIsNotTheMatrixShape() {
        assertEquals(1, parse("{\"schema\":1,\"rows\":[" + GOOD_ROW + "]}").all().size());
        String[] bad = {
            "[]", "{\"schema\":2,\"rows\":[]}", "{\"schema\":1}", "{\"schema\":1,\"rows\":[1]}",
            "{\"schema\":1,\"rows\":[" + GOOD_ROW.replace("\"12.0\"]", "\"11.8\"]") + "]}", // toolkit of another CUDA
            "{\"schema\":1,\"rows\":[" + GOOD_ROW.replace("525.60.13", "latest") + "]}",
            "{\"schema\":1,\"rows\":[" + GOOD_ROW.replace("https://docs.nvidia.com/x", "file:///etc/passwd") + "]}",
            "{\"schema\":1,\"rows\":[" + GOOD_ROW.replace("\"cuda\":12", "\"cuda\":1e9") + "]}",
            "{\"schema\":1,\"rows\":[" + GOOD_ROW.replace("[\"9.0\"]", "[]") + "]}",
            "{\"schema\":1,\"schema\":1,\"rows\":[]}",
            "{\"schema\":1,\"rows\":[]} {}",
            "{\"schema\":1,\"rows\":[],\"x\":" + "[".repeat(20) + "]".repeat(20) + "}",
            "{\"schema\":1,\"rows\":[" + GOOD_ROW.replace("\"cuda\":12", "\"cuda\":99999999999999999999999") + "]}",
            "{\"schema\":1,\"rows\":[" + GOOD_ROW.replace("\"cuda\":12", "\"cuda\":12,\"computeCapabilityFrom\":\"3.5\"") + "]}",
            "{\"schema\":1,\"rows\":[" + OLD_ROW.replace("\"3.5\"", "\"and later\"") + "]}",
            "{\"schema\":1,\"rows\":[" + OLD_ROW.replace("\"computeCapabilities\":[],", "") + "]}",
        };
        for (String b : bad) {
            assertThrows(IllegalArgumentException.class, () -> parse(b), b);
        }
        byte[] huge = new byte[SmallJson.MAX_BYTES + 1];
        assertThrows(IllegalArgumentException.class, () -> SupportMatrix.parse(huge));
    }
}
