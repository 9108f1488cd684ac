package dev.cudnntool.archive.name;

import dev.cudnntool.Arch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ArchiveNameTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // every name in facts §1: file, version, os, arch, variant, format, scheme
            "cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip, 8.9.5.30, windows, x86_64, 12, zip, modern",
            "cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz, 8.9.5.30, linux, x86_64, 12, tar.xz, modern",
            "cudnn-linux-sbsa-8.9.5.30_cuda12-archive.tar.xz, 8.9.5.30, linux, sbsa, 12, tar.xz, modern",
            "cudnn-linux-x86_64-8.3.3.40_cuda11.5-archive.tar.xz, 8.3.3.40, linux, x86_64, 11.5, tar.xz, modern",
            "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip, 9.1.0.70, windows, x86_64, 12, zip, modern",
            "cudnn-windows-x86_64-9.13.0.50_cuda13-archive.zip, 9.13.0.50, windows, x86_64, 13, zip, modern",
            "cudnn-linux-aarch64-8.9.5.30_cuda12-archive.tar.xz, 8.9.5.30, linux, aarch64, 12, tar.xz, modern",
            "cudnn-linux-ppc64le-8.9.5.29_cuda11-archive.tar.xz, 8.9.5.29, linux, ppc64le, 11, tar.xz, modern",
            "cudnn-windows-x86_64-8.9.5.30_cuda11-archive.zip, 8.9.5.30, windows, x86_64, 11, zip, modern",
            "cudnn-linux-x86_64-8.4.1.50_cuda10.2-archive.tar.xz, 8.4.1.50, linux, x86_64, 10.2, tar.xz, modern",
            "cudnn-10.2-linux-x64-v7.6.5.32.tgz, 7.6.5.32, linux, x86_64, 10.2, tgz, legacy",
            "cudnn-11.4-linux-x64-v8.2.4.15.tgz, 8.2.4.15, linux, x86_64, 11.4, tgz, legacy",
            "cudnn-11.2-windows-x64-v8.1.1.33.zip, 8.1.1.33, windows, x86_64, 11.2, zip, legacy",
            "cudnn-11.2-windows-x64-v8.1.0.77.zip, 8.1.0.77, windows, x86_64, 11.2, zip, legacy",
            "cudnn-10.2-windows10-x64-v7.6.5.32.zip, 7.6.5.32, windows, x86_64, 10.2, zip, legacy",
            "cudnn-9.0-windows7-x64-v7.6.4.38.zip, 7.6.4.38, windows, x86_64, 9.0, zip, legacy",
            "cudnn-10.2-linux-x64-v7.6.5.32.solitairetheme8, 7.6.5.32, linux, x86_64, 10.2, tgz, legacy",
            "cudnn-windows-x86_64-8.9.5.30_cuda12-archive (1).zip, 8.9.5.30, windows, x86_64, 12, zip, modern",
            "CUDNN-WINDOWS-X86_64-8.9.5.30_CUDA12-ARCHIVE.ZIP, , , , , , ",
            "cudnn-windows-x86_64-8.9.5.30_cuda12-archive.ZIP, 8.9.5.30, windows, x86_64, 12, zip, modern",
            "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.TAR.XZ, 9.5.1.17, linux, x86_64, 12, tar.xz, modern",
            "cudnn-windows-x86-64-8.9.5.30-cuda12-archive.zip, 8.9.5.30, windows, x86_64, 12, zip, modern",
    })
    void parsesPublishedNames(String file, String version, String os, String arch, String variant,
                              String format, String scheme) {
        if (version == null) {
            // NVIDIA never upper-cases the name itself; only extensions are accepted in upper case.
            assertThrows(ToolException.class, () -> ArchiveName.parse(file));
            return;
        }
        ArchiveName n = ArchiveName.parse(file);
        assertEquals(version, n.version().toString());
        assertEquals(os, n.os().label());
        assertEquals(arch, n.arch().label());
        assertEquals(variant, n.cudaVariant().toString());
        assertEquals(format, n.format().label());
        assertEquals(scheme, n.scheme().label());
    }

    @Test
    void variantWithMinorKeepsBothParts() {
        CudaVariant v = ArchiveName.parse("cudnn-linux-x86_64-8.3.3.40_cuda11.5-archive.tar.xz").cudaVariant();
        assertEquals(11, v.major());
        assertEquals(5, v.minor());
        assertNull(ArchiveName.parse("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz").cudaVariant().minor());
    }

    @Test
    void blogTypoIsAcceptedWithAWarningNamingNvidiasSpelling() {
        ArchiveName n = ArchiveName.parse("cudnn-windows-x86-64-8.9.5.30-cuda12-archive.zip");
        assertEquals("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip", n.canonicalName());
        assertEquals("archive.name-typo", n.warnings().get(0).id());
        assertTrue(n.warnings().get(0).message().contains("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip"));
    }

    @Test
    void browserCopyAndRenamedTgzAreNoted() {
        ArchiveName copy = ArchiveName.parse("cudnn-windows-x86_64-8.9.5.30_cuda12-archive (1).zip");
        assertEquals("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip", copy.canonicalName());
        assertEquals("archive.browser-copy", copy.warnings().get(0).id());
        ArchiveName sol = ArchiveName.parse("cudnn-10.2-linux-x64-v7.6.5.32.solitairetheme8");
        assertEquals("archive.renamed-tgz", sol.warnings().get(0).id());
        assertEquals("cudnn-10.2-linux-x64-v7.6.5.32.tgz", sol.canonicalName());
    }

    @Test
    void namesTheMatchingLinuxArchive() {
        ArchiveName n = ArchiveName.parse("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip");
        assertEquals("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz", n.linuxEquivalent(Arch.X86_64));
        assertEquals("cudnn-windows-x86_64-8.9.5.30_cuda12-archive", n.expectedTopFolder());
        assertEquals("cuda", ArchiveName.parse("cudnn-10.2-linux-x64-v7.6.5.32.tgz").expectedTopFolder());
    }

    @Test
    void stripsFolders() {
        assertEquals("8.9.5.30", ArchiveName.parse("C:\\Users\\me\\Downloads\\cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip")
                .version().toString());
        assertEquals("8.9.5.30", ArchiveName.parse("/tmp/cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz")
                .version().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "cudnn.zip",
            "cudnn-windows-x86_64-8.9.5_cuda12-archive.zip",          // three-part version
            "cudnn-windows-x86_64-8.9.5.30-archive.zip",              // no CUDA variant
            "cudnn-macos-x86_64-8.9.5.30_cuda12-archive.zip",         // no such platform
            "cudnn-windows-x86_64-8.9.5.30_cuda12-archive.rar",       // unknown extension
            "cudnn-windows-x86_64-8.9.5.30_cuda12-archive.7z",
            "cudnn-linux-x86_64-8.9.5.30_cuda12.tar.xz",              // no -archive
            "cudnn-local-repo-ubuntu2204-8.9.5.30_1.0-1_amd64.deb",   // a .deb installer
            "cudnn-11.2-windows-x64-8.1.0.77.zip",                    // legacy without v
            "cudnn-linux-x86_64-8.9.5.30_cudaXX-archive.tar.xz",
            "",
            "libcudnn8_8.9.5.30-1+cuda12.2_amd64.deb",
            "cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip.part",
    })
    void rejectsEverythingElseWithPatternAndExample(String file) {
        ToolException e = assertThrows(ToolException.class, () -> ArchiveName.parse(file));
        assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
        assertTrue(e.getMessage().contains("cudnn-<platform>-<M.m.p.b>_cuda<NN>-archive"), e.getMessage());
        assertTrue(e.getMessage().contains("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz"), e.getMessage());
    }
}
