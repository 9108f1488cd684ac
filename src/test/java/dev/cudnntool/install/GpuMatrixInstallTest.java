package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Arch;
import dev.cudnntool.Finding;
import dev.cudnntool.OsFamily;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import dev.cudnntool.host.ArchiveAdvice;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** #20 item 3: install checks the archive's release against the driver and the GPU by the support matrix row. */
class GpuMatrixInstallTest {
    @TempDir
    Path downloads;

    private List<Finding> dryRun(String smi, String gpuCc, String version, boolean force) throws Exception {
        try (Machine m = Machine.linux().toolkit("12.6.20240801").driver(smi).gpu("NVIDIA GeForce RTX 5090", "575.51.03", gpuCc).build()) {
            Path archive = ArchiveFixture.linux(version, "12").writeTo(downloads);
            return m.installer().run(new InstallRequest(archive, null, null, null, force, true), ReadProgress.NONE).findings();
        }
    }

    private static Finding find(List<Finding> findings, String id) {
        return findings.stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow(() -> new AssertionError(id + ": " + findings));
    }

    @Test
    void aReleaseWithoutTheGpuInItsMatrixIsAnErrorThatForceTurnsIntoAWarning() throws Exception {
        Finding f = find(dryRun(NvidiaSmiOutputs.R575, "12.0", "9.5.1.17", false), "cudnn.gpu-unsupported");
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.message().contains("cuDNN 9.5.1 for CUDA 12") && f.message().contains("12.0"), f.message());
        assertTrue(f.fix().contains("9.17.0"), f.fix());
        assertEquals(Severity.WARN, find(dryRun(NvidiaSmiOutputs.R575, "12.0", "9.5.1.17", true), "cudnn.gpu-unsupported").severity());
        assertTrue(dryRun(NvidiaSmiOutputs.R575, "8.6", "9.5.1.17", false).stream().noneMatch(x -> x.id().equals("cudnn.gpu-unsupported")));
    }

    @Test
    void theDriverMinimumIsTheMatrixRowOfTheGpu() throws Exception {
        // 9.10.2 on Blackwell needs the 12.8 row: 570.26 on Linux; driver 560 would do for an Ampere GPU (525.60.13)
        String r560 = NvidiaSmiOutputs.R535.replace("535.104.05", "560.35.03").replace("12.2", "12.6");
        Finding old = find(dryRun(r560, "12.0", "9.10.2.21", false), "driver.too-old");
        assertTrue(old.message().contains("older than 570.26") && old.message().contains("support matrix of cuDNN 9.10.2 for this GPU"),
                old.message());
        assertTrue(dryRun(r560, "8.6", "9.10.2.21", false).stream().noneMatch(x -> x.id().equals("driver.too-old")));
    }

    @Test
    void adviceSkipsReleasesWhoseMatrixLacksTheGpu() {
        DriverInfo volta = new DriverInfo("/usr/bin/nvidia-smi", "580.65.06", "13.0", List.of(new NvidiaSmi.Gpu("Tesla V100", "580.65.06", "7.0")));
        var small = Catalogue.of(List.of(
                CatalogueEntry.of("cudnn-linux-x86_64-9.17.0.29_cuda12-archive.tar.xz", "1".repeat(64), null),
                CatalogueEntry.of("cudnn-linux-x86_64-9.10.2.21_cuda12-archive.tar.xz", "2".repeat(64), null)));
        ArchiveAdvice.Pick pick = new ArchiveAdvice(() -> small, volta, SupportMatrix::bundled)
                .newest(OsFamily.LINUX, Arch.X86_64, 12);
        assertEquals("cudnn-linux-x86_64-9.10.2.21_cuda12-archive.tar.xz", pick.entry().orElseThrow().fileName(),
                "9.17.0's CUDA 12 build is 7.5+ only: " + pick.text());
        assertTrue(pick.text().contains("and compute capability 7.0"), pick.text());
        ArchiveAdvice.Pick none = new ArchiveAdvice(() -> small, new DriverInfo("/usr/bin/nvidia-smi", "580.65.06", "13.0",
                List.of(new NvidiaSmi.Gpu("Tesla K80", "580.65.06", "3.7"))), SupportMatrix::bundled)
                .newest(OsFamily.LINUX, Arch.X86_64, 12);
        assertTrue(none.entry().isEmpty() && none.text().contains("supports compute capability 3.7"), none.text());
        ArchiveAdvice.Pick kepler = ArchiveAdvice.bundled(new DriverInfo("/usr/bin/nvidia-smi", "580.65.06", "13.0",
                List.of(new NvidiaSmi.Gpu("Tesla K80", "580.65.06", "3.7")))).newest(OsFamily.LINUX, Arch.X86_64, 13);
        assertTrue(kepler.entry().isPresent(), "releases the matrix does not hold are not refused: " + kepler.text());
    }
}
