package dev.cudnntool.archive.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** #30 item 5: the NVIDIA rows of shared/data/support-matrix-found added to the bundled matrix (8.2.2, 8.3.0), pinned. */
class SupportMatrixFoundRowsTest {
    private static final SupportMatrix M = SupportMatrix.bundled();

    @Test
    void cudnn822ReadsAsItsPage() {
        assertEquals(3, M.rows("8.2.2", 11).size());
        assertEquals(1, M.rows("8.2.2", 10).size());
        SupportMatrix.Fit f = M.fit("8.2.2", 11, new int[] {11, 4}, "3.5", false);
        assertEquals(Boolean.TRUE, f.toolkitOk());
        assertEquals(Boolean.TRUE, f.gpuOk());
        assertEquals("470", f.driverMinimum());
        assertTrue(f.source().contains("cudnn-822"), f.source());
        assertEquals("450", M.fit("8.2.2", 11, new int[] {11, 1}, null, true).driverMinimum());
        assertEquals(Boolean.FALSE, M.fit("8.2.2", 11, null, "3.0", false).gpuOk(), "SM 3.5 and later for CUDA 11");
        assertEquals(Boolean.TRUE, M.fit("8.2.2", 10, null, "3.0", false).gpuOk(), "SM 3.0 and later for CUDA 10.2");
    }

    @Test
    void cudnn830ReadsAsItsPdf() {
        assertEquals(4, M.rows("8.3.0", 11).size());
        assertEquals("495", M.fit("8.3.0", 11, new int[] {11, 5}, null, false).driverMinimum());
        assertEquals(Boolean.FALSE, M.fit("8.3.0", 11, new int[] {11, 6}, null, false).toolkitOk());
        assertTrue(M.rows("8.3.0", 10).isEmpty(), "its CUDA 10.2 cells were cut off in the stored copy: not guessed");
    }
}
