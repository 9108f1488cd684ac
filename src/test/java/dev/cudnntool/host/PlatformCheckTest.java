package dev.cudnntool.host;

import dev.cudnntool.host.loader.PeFile;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Arch;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.OsFamily;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PlatformCheckTest {
    static final ArchiveName WIN = ArchiveName.parse("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip");
    static final ArchiveName LIN = ArchiveName.parse("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz");
    static final ArchiveName SBSA = ArchiveName.parse("cudnn-linux-sbsa-8.9.5.30_cuda12-archive.tar.xz");

    private static Finding mismatch(List<Finding> fs) {
        return fs.stream().filter(f -> f.id().equals("platform.mismatch")).findFirst().orElseThrow(() -> new AssertionError(fs));
    }

    @Test
    void aWindowsZipInsideWsl2NamesTheLinuxArchive() {
        Finding f = mismatch(PlatformCheck.check(new Platform(OsFamily.LINUX, Arch.X86_64, 64, true), WIN));
        assertTrue(f.message().contains("WSL2"), f.message());
        assertEquals("download cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz from https://developer.download.nvidia.com/compute/"
                + "cudnn/redist/cudnn/linux-x86_64/cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz (the same release; the newest for"
                + " CUDA 12 is cudnn-linux-x86_64-9.27.0.42_cuda12-archive.tar.xz from https://developer.download.nvidia.com/compute/"
                + "cudnn/redist/cudnn/linux-x86_64/cudnn-linux-x86_64-9.27.0.42_cuda12-archive.tar.xz) instead", f.fix());
    }

    @Test
    void everyOtherMismatch() {
        assertTrue(mismatch(PlatformCheck.check(new Platform(OsFamily.WINDOWS, Arch.X86_64, 64, false), LIN)).fix()
                .contains("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip"));
        assertTrue(mismatch(PlatformCheck.check(new Platform(OsFamily.LINUX, Arch.X86_64, 64, false), SBSA)).fix()
                .contains("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz"));
        assertTrue(mismatch(PlatformCheck.check(new Platform(OsFamily.LINUX, Arch.AARCH64, 64, false), LIN)).fix()
                .contains("cudnn-linux-sbsa-8.9.5.30_cuda12-archive.tar.xz"));
        assertTrue(mismatch(PlatformCheck.check(new Platform(OsFamily.MACOS, Arch.AARCH64, 64, false), LIN)).message()
                .contains("no macOS build"));
        assertTrue(PlatformCheck.check(new Platform(OsFamily.LINUX, Arch.AARCH64, 64, false), SBSA).isEmpty());
        assertTrue(PlatformCheck.check(new Platform(OsFamily.LINUX, Arch.X86_64, 64, false), LIN).isEmpty());
    }

    @Test
    void a32BitJavaAndWslAreReported() {
        List<Finding> f = PlatformCheck.check(new Platform(OsFamily.WINDOWS, Arch.X86_64, 32, false), WIN);
        assertEquals("jvm.32bit", f.get(0).id());
        assertTrue(f.get(0).isError());
        assertEquals("platform.wsl", PlatformCheck.check(new Platform(OsFamily.LINUX, Arch.X86_64, 64, true), null).get(0).id());
    }

    @Test
    void wslIsDetectedFromProcVersionOrItsVariable() {
        FileSystem fs = TestHosts.unixFs();
        assertFalse(Platform.detect(TestHosts.linux(fs, Map.of(), new FakeRunner())).wsl());
        assertTrue(Platform.detect(TestHosts.linux(fs, Map.of("WSL_DISTRO_NAME", "Ubuntu"), new FakeRunner())).wsl());
        TestHosts.write(fs.getPath("/proc/version"), "Linux version 5.15.153.1-microsoft-standard-WSL2");
        assertTrue(Platform.detect(TestHosts.linux(fs, Map.of(), new FakeRunner())).wsl());
    }

    @Test
    void peReaderTellsMachineTypeAndFileVersion() throws IOException {
        FileSystem fs = TestHosts.windowsFs();
        Path x64 = fs.getPath("C:\\x64.dll");
        Files.write(x64, PeImages.dll(PeImages.X64, "8.9.5.30"));
        PeFile.Info i = PeFile.read(x64);
        assertTrue(i.x64());
        assertEquals("8.9.5.30", i.fileVersion());
        Path x86 = fs.getPath("C:\\x86.dll");
        Files.write(x86, PeImages.dll(PeImages.I386, null));
        assertEquals("x86 (32-bit)", PeFile.read(x86).machineName());
        assertEquals(null, PeFile.read(x86).fileVersion());
        Path text = fs.getPath("C:\\text.dll");
        Files.writeString(text, "this is not a DLL at all, only text pretending");
        assertThrows(IOException.class, () -> PeFile.read(text));
    }
}
