package dev.cudnntool.host;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.OsFamily;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * #30 item 5: CUDA 13 dropped Maxwell, Pascal and Volta (compute capability below 7.5), so no CUDA 13
 * build is recommended for such a GPU, whatever the support matrix holds for the release (here a
 * matrix that wrongly claims every GPU from 3.0 on). Seeded over compute capabilities.
 */
class Cuda13GpuRuleTest {
    private static final long SEED = 0x3005L;

    private static final List<CatalogueEntry> ARCHIVES = List.of(
            CatalogueEntry.of("cudnn-linux-x86_64-9.17.0.29_cuda13-archive.tar.xz", "1".repeat(64), 1L),
            CatalogueEntry.of("cudnn-linux-x86_64-9.17.0.29_cuda12-archive.tar.xz", "2".repeat(64), 1L));

    private static SupportMatrix generous() {
        return SupportMatrix.of(List.of(
                new SupportMatrix.Row("9.17.0", 13, List.of("13.0"), "580.65.06", null, List.of(), "3.0", "https://example.invalid/13", null),
                new SupportMatrix.Row("9.17.0", 12, List.of("12.9"), "525.60.13", null, List.of(), "3.0", "https://example.invalid/12", null)));
    }

    @TestFactory
    Stream<DynamicTest> noCuda13BuildForAGpuBelow75() {
        Random rnd = new Random(SEED);
        List<DynamicTest> out = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String cc = (3 + rnd.nextInt(10)) + "." + rnd.nextInt(10);
            out.add(DynamicTest.dynamicTest("compute capability " + cc, () -> {
                List<ReleaseFit.Row> rows = ReleaseFit.mark(ARCHIVES, OsFamily.LINUX, null, DriverInfo.NONE, generous(), null, cc);
                ReleaseFit.Row cuda13 = rows.get(0);
                ReleaseFit.Row cuda12 = rows.get(1);
                String[] p = cc.split("\\.");
                boolean old = Integer.parseInt(p[0]) < 7 || (Integer.parseInt(p[0]) == 7 && Integer.parseInt(p[1]) < 5);
                if (old) {
                    assertFalse(cuda13.recommended(), cc);
                    assertEquals(Boolean.FALSE, cuda13.gpuOk(), cc);
                    assertTrue(cuda13.why().contains("CUDA 13 dropped Maxwell, Pascal and Volta"), cuda13.why());
                    assertTrue(cuda12.recommended(), "the CUDA 12 build instead: " + cc);
                } else {
                    assertTrue(cuda13.recommended(), cc);
                    assertEquals(Boolean.TRUE, cuda13.gpuOk(), cc);
                }
            }));
        }
        return out.stream();
    }

    @Test
    void theRuleLivesInTheOneTableOfCudaFacts() {
        assertTrue(DriverMinimums.gpuDroppedBy(13, "7.0").isPresent());
        assertTrue(DriverMinimums.gpuDroppedBy(13, "6.1").isPresent());
        assertTrue(DriverMinimums.gpuDroppedBy(13, "7.5").isEmpty());
        assertTrue(DriverMinimums.gpuDroppedBy(13, "12.0").isEmpty());
        assertTrue(DriverMinimums.gpuDroppedBy(12, "5.0").isEmpty(), "CUDA 12 itself still builds for Maxwell");
        assertTrue(DriverMinimums.gpuDroppedBy(13, null).isEmpty());
    }

    @Test
    void verifyCallsACuda13CopyOnAVoltaGpuAnErrorEvenWhenTheMatrixRowListsIt() {
        var driver = new DriverInfo("/usr/bin/nvidia-smi", "580.65.06", "13.0",
                List.of(new NvidiaSmi.Gpu("Tesla V100", "580.65.06", "7.0")));
        var host = TestHosts.linux(TestHosts.unixFs(), Map.of(),
                new FakeRunner());
        var f = GpuSupport.findings(host, driver, "9.17.0", 13, generous(), Catalogue::empty);
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.get(0).message().contains("CUDA 13 dropped Maxwell, Pascal and Volta"), f.get(0).message());
        var cuda12 = GpuSupport.findings(host, driver, "9.17.0", 12, generous(), Catalogue::empty);
        assertTrue(cuda12.isEmpty(), "the CUDA 12 build of the same release runs on Volta: " + cuda12);
    }
}
