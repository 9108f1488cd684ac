package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Arch;
import dev.cudnntool.Finding;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.ArchiveAdvice;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** #20 item 2: the advice of a CUDA-major mismatch names an archive NVIDIA published, with its URL. */
class MismatchAdviceTest {
    private static final Pattern NAMED = Pattern.compile("download (cudnn-linux-x86_64-(\\d+)\\.(\\d+)\\.\\d+\\.\\d+_cuda13-archive\\.tar\\.xz)"
            + " from (\\S+)");

    @TempDir
    Path downloads;

    private Finding mismatch(String smi) throws Exception {
        try (Machine m = Machine.linux().toolkit("13.0.20250801").driver(smi).build()) {
            Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(downloads);
            InstallOutcome o = m.installer().run(new InstallRequest(archive, null, null, null, false, true), ReadProgress.NONE);
            return o.findings().stream().filter(f -> f.id().equals("toolkit.cuda-major-mismatch")).findFirst()
                    .orElseThrow(() -> new AssertionError(o.findings()));
        }
    }

    @Test
    void onCuda13TheFixNamesACatalogued912OrNewerBuildAndItsUrl() throws Exception {
        Finding f = mismatch(NvidiaSmiOutputs.R580);
        assertFalse(f.fix().contains("9.5.1.17_cuda13"), "9.5.1 has no CUDA 13 build: " + f.fix());
        Matcher m = NAMED.matcher(f.fix());
        assertTrue(m.find(), f.fix());
        int major = Integer.parseInt(m.group(2));
        int minor = Integer.parseInt(m.group(3));
        assertTrue(major > 9 || major == 9 && minor >= 12, f.fix());
        CatalogueEntry named = Catalogue.bundled().lookup(m.group(1)).orElseThrow(() -> new AssertionError("not catalogued: " + f.fix()));
        assertEquals(named.url().orElseThrow(), m.group(4));
        assertEquals(Catalogue.bundled().select("linux", Set.of("x86_64"), 13, null).get(0), named,
                "the newest CUDA 13 build for linux/x86_64");
        assertTrue(f.fix().endsWith("or pass --cuda-path to a CUDA 12.x toolkit"), f.fix());
    }

    @Test
    void aDriverTooOldForCuda13IsToldNoBuildFitsIt() throws Exception {
        Finding f = mismatch(NvidiaSmiOutputs.R535);
        assertTrue(f.fix().startsWith("no cuDNN build for CUDA 13 on linux/x86_64 fits driver 535.104.05 (CUDA 13 needs 580.65.06"),
                f.fix());
        assertFalse(f.fix().contains("_cuda13-archive"), f.fix());
    }

    @Test
    void noCatalogueEntryForThatPlatformSaysSoAndTheSameReleaseIsPreferredWhenItExists() {
        Catalogue small = Catalogue.of(List.of(
                CatalogueEntry.of("cudnn-linux-x86_64-9.13.0.50_cuda12-archive.tar.xz", "1".repeat(64), null),
                CatalogueEntry.of("cudnn-linux-x86_64-9.13.0.50_cuda13-archive.tar.xz", "2".repeat(64), null).withRedist(true),
                CatalogueEntry.of("cudnn-linux-x86_64-9.14.0.64_cuda13-archive.tar.xz", "3".repeat(64), null)));
        ArchiveAdvice advice = new ArchiveAdvice(() -> small, DriverInfo.NONE);
        assertEquals("NVIDIA has published no cuDNN build for CUDA 13 on linux/sbsa (none in the built-in catalogue)",
                advice.newest(OsFamily.LINUX, Arch.SBSA, 13).text());
        assertEquals("cudnn-linux-x86_64-9.14.0.64_cuda13-archive.tar.xz from NVIDIA's cuDNN archive page"
                        + " (https://developer.nvidia.com/rdp/cudnn-archive, after signing in) (the newest cuDNN for CUDA 13 on linux/x86_64)",
                advice.newest(OsFamily.LINUX, Arch.X86_64, 13).text());
        ArchiveAdvice.Pick same = advice.sameOrNewest("cudnn-linux-x86_64-9.13.0.50_cuda13-archive.tar.xz", OsFamily.LINUX, Arch.X86_64, 13);
        assertEquals("cudnn-linux-x86_64-9.13.0.50_cuda13-archive.tar.xz", same.entry().orElseThrow().fileName());
        assertTrue(same.text().startsWith("cudnn-linux-x86_64-9.13.0.50_cuda13-archive.tar.xz from https://developer.download.nvidia.com/"
                + "compute/cudnn/redist/cudnn/linux-x86_64/cudnn-linux-x86_64-9.13.0.50_cuda13-archive.tar.xz"), same.text());
        assertTrue(same.text().contains("the newest for CUDA 13 is cudnn-linux-x86_64-9.14.0.64_cuda13"), same.text());
        assertEquals("cudnn-linux-x86_64-9.14.0.64_cuda13-archive.tar.xz",
                advice.sameOrNewest(ArchiveName.parse("cudnn-linux-x86_64-9.5.1.17_cuda13-archive.tar.xz").canonicalName(),
                        OsFamily.LINUX, Arch.X86_64, 13).entry().orElseThrow().fileName(), "a release that does not exist is never named");
    }
}
