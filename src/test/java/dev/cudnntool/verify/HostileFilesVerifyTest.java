package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.CopyFinder;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18 C and D (10, 12, 14, 18): files and numbers written by an attacker reach verify, the
 * toolkit reader and the manifest reader. Never an OutOfMemoryError or exit 70, never a hang (the
 * timeouts are hang guards, not speed tests: each case takes milliseconds when fixed).
 */
class HostileFilesVerifyTest {
    static final Duration HANG = Duration.ofSeconds(60);
    static final long HUGE = 3L << 30; // sparse: no disk and no memory, but larger than any Java array

    @TempDir
    Path dir;

    final List<Path> fifos = new ArrayList<>();

    /** Opening a FIFO for reading and writing never blocks, and releases a reader stuck in open(). */
    @AfterEach
    void releaseFifos() throws IOException {
        for (Path f : fifos) {
            new RandomAccessFile(f.toFile(), "rw").close(); // opened and closed: any reader blocked on it returns
        }
    }

    Path fifo(Path p) throws Exception {
        assumeTrue(!System.getProperty("os.name").startsWith("Windows"), "FIFOs are a POSIX thing");
        Files.createDirectories(p.getParent());
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assumeTrue(mk.waitFor() == 0, "mkfifo available");
        fifos.add(p);
        return p;
    }

    static void sparse(Path p, long size) throws IOException {
        Files.createDirectories(p.getParent());
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.setLength(size);
        }
    }

    Host realLinux(Map<String, String> env) {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "a Linux file system");
        return TestHosts.linux(FileSystems.getDefault(), env, new FakeRunner());
    }

    /** A prefix install of cuDNN 9 on the real file system: ELF images and headers. */
    Path prefix(String version) throws Exception {
        Path p = dir.resolve("cudnn");
        Path lib = p.resolve("lib");
        Files.createDirectories(lib);
        for (String base : CudnnComponents.libraries(9)) {
            String soname = CudnnComponents.linuxSoname(base, 9);
            Files.write(lib.resolve(soname), base.equals("cudnn") ? ElfImages.cudnn(soname)
                    : ElfImages.so(soname, List.of("libc.so.6"), "$ORIGIN", List.of("internal_" + base)));
        }
        Path inc = p.resolve("include");
        Files.createDirectories(inc);
        for (String h : CudnnComponents.headers(9)) {
            Files.writeString(inc.resolve(h), h.equals("cudnn_version.h") ? ArchiveFixture.versionHeader(CudnnVersion.parse(version))
                    : "/* " + h + " */\n");
        }
        return p;
    }

    // item 10

    @Test
    void aHugeVersionHeaderIsNotReadIntoMemory() throws Exception {
        Host host = realLinux(Map.of());
        Path p = prefix("9.5.1");
        Path h = p.resolve("include/cudnn_version.h");
        Files.delete(h);
        sparse(h, HUGE);
        sparse(p.resolve("include/cudnn.h"), HUGE);
        VerifyReport r = assertTimeoutPreemptively(HANG, () -> new VerifyService(host, null).verify(null, p, null, true));
        assertTrue(r.findings().stream().noneMatch(f -> f.message().contains("OutOfMemory")), r.findings().toString());
    }

    @Test
    void aHugeHeaderOfAnotherCopyIsNotReadIntoMemory() throws Exception {
        Path other = dir.resolve("other");
        Files.createDirectories(other.resolve("lib"));
        Files.write(other.resolve("lib/libcudnn.so.9"), ElfImages.cudnn("libcudnn.so.9"));
        sparse(other.resolve("include/cudnn_version.h"), HUGE);
        Host host = realLinux(Map.of("LD_LIBRARY_PATH", other.resolve("lib").toString()));
        List<CudnnCopy> copies = assertTimeoutPreemptively(HANG, () -> CopyFinder.find(host, null, List.of()));
        assertEquals(1, copies.size(), copies.toString());
        VerifyReport r = assertTimeoutPreemptively(HANG, () -> new VerifyService(host, null).verify(null, null, null, true));
        assertFalse(r.copies().isEmpty());
    }

    @Test
    void aHugeVersionJsonIsNotReadIntoMemory() throws Exception {
        Host host = realLinux(Map.of());
        Path tk = dir.resolve("cuda-12.6");
        TestHosts.toolkit(tk, "12.6.0");
        sparse(tk.resolve("version.json"), HUGE);
        assertEquals(new CudaVersion(12, 6), ToolkitLocator.read(host, tk, "test").version(), "from the folder's name");
    }

    // item 12

    @Test
    void aFifoNamedLikeTheLibraryInTheTargetNeverHangsVerify() throws Exception {
        Host host = realLinux(Map.of());
        Path p = prefix("9.5.1");
        Path main = p.resolve("lib/libcudnn.so.9");
        Files.delete(main);
        fifo(main);
        Path graph = p.resolve("lib/libcudnn_graph.so.9");
        Files.delete(graph);
        fifo(graph);
        VerifyReport r = assertTimeoutPreemptively(HANG, () -> new VerifyService(host, null).verify(null, p, null, true));
        assertFalse(r.ok(), "a FIFO is not a library: " + r.findings());
    }

    @Test
    void aFifoOnLdLibraryPathNeverHangsVerify() throws Exception {
        Path lib = dir.resolve("evil/lib");
        fifo(lib.resolve("libcudnn.so.9"));
        fifo(lib.resolve("libcudnn.so.9.5.1"));
        fifo(dir.resolve("evil/include/cudnn_version.h"));
        Host host = realLinux(Map.of("LD_LIBRARY_PATH", lib.toString()));
        assertTimeoutPreemptively(HANG, () -> new VerifyService(host, null).verify(null, null, null, true));
    }

    @Test
    void aManifestThatIsAFifoOrADeviceIsAUsageError() throws Exception {
        Path f = fifo(dir.resolve("redistrib.json"));
        ToolException e = assertTimeoutPreemptively(HANG, () -> assertThrows(ToolException.class,
                () -> ChecksumExpectation.fromManifest(f, "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz")));
        assertEquals(ExitCode.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
        Path zero = Path.of("/dev/zero");
        assumeTrue(Files.exists(zero));
        ToolException z = assertTimeoutPreemptively(HANG, () -> assertThrows(ToolException.class,
                () -> ChecksumExpectation.fromManifest(zero, "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz")));
        assertEquals(ExitCode.USAGE, z.exitCode());
        Path big = dir.resolve("big.json");
        sparse(big, HUGE);
        ToolException b = assertThrows(ToolException.class,
                () -> ChecksumExpectation.fromManifest(big, "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz"));
        assertEquals(ExitCode.USAGE, b.exitCode());
        assertTrue(b.getMessage().contains("larger than"), b.getMessage());
    }

    // item 14

    @Test
    void versionNumbersOfMoreThanNineDigitsAreNotVersionsAndNeverCrash() {
        assertEquals(Optional.empty(), CudaVersion.fromNvcc("Cuda compilation tools, release 12345678901.2, V1.2.3"));
        assertEquals(Optional.empty(), CudaVersion.fromNvcc("release 12.99999999999"));
        assertEquals(Optional.empty(), CudaVersion.parse("99999999999.1"));
        assertEquals(Optional.empty(), CudaVersion.fromVersionTxt("CUDA Version 10.22222222222.89"));
        assertEquals(Optional.of(new CudaVersion(12, 2)), CudaVersion.fromNvcc("release 12.2, V12.2.140"));
        assertTrue(NvidiaSmi.compareVersions("99999999999.10", "535.104.05") > 0);
        assertTrue(NvidiaSmi.compareVersions("535.00000000000000000104.05", "535.54.03") > 0);
        assertEquals(0, NvidiaSmi.compareVersions("0535.104.05", "535.104.05"));
        assertTrue(NvidiaSmi.compareVersions("535.54.03", "535.104.05") < 0);
    }

    @Test
    void nvccOutputWithAHugeVersionFallsBackToTheFolderName() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path tk = fs.getPath("/usr/local/cuda-12.4");
            Files.createDirectories(tk.resolve("bin"));
            Files.writeString(tk.resolve("bin/nvcc"), "#!/bin/sh\n");
            Host host = TestHosts.linux(fs, Map.of(), new FakeRunner().on("nvcc --version",
                    "Cuda compilation tools, release 123456789012.4, V123456789012.4.1\n"));
            assertEquals(new CudaVersion(12, 4), ToolkitLocator.read(host, tk, "test").version());
        }
    }

    // item 18

    @Test
    void anEmptyLdLibraryPathEntryIsTheCurrentFolderAndSaidSo() throws Exception {
        for (String value : List.of(":/opt/x", "/opt/x:", "/opt/x::/opt/y")) {
            try (FileSystem fs = TestHosts.unixFs()) {
                Path cwd = fs.getPath("").toAbsolutePath();
                Files.createDirectories(cwd);
                Files.write(cwd.resolve("libcudnn.so.9"), ElfImages.cudnn("libcudnn.so.9"));
                Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", value, "PATH", "/usr/bin"), new FakeRunner());
                List<CudnnCopy> copies = CopyFinder.find(host, null, List.of());
                assertEquals(List.of(cwd.resolve("libcudnn.so.9").toString()), copies.stream().map(CudnnCopy::path).toList(), value);
                VerifyReport r = assertTimeoutPreemptively(HANG, () -> new VerifyService(host, null).verify(null, null, null, true));
                Finding f = r.findings().stream().filter(x -> x.id().equals("search-path.current-dir")).findFirst()
                        .orElseThrow(() -> new AssertionError(value + ": " + r.findings()));
                assertEquals(Severity.WARN, f.severity());
                assertTrue(f.message().contains("LD_LIBRARY_PATH has an empty entry, which means the current folder"), f.message());
                assertTrue(r.copies().stream().anyMatch(c -> c.path().equals(cwd.resolve("libcudnn.so.9").toString())), value);
            }
        }
    }

    @Test
    void noEmptyEntryNoWarning() throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/opt/x:/opt/y", "PATH", "/usr/bin"), new FakeRunner());
            VerifyReport r = new VerifyService(host, null).verify(null, null, null, false);
            assertTrue(r.findings().stream().noneMatch(x -> x.id().equals("search-path.current-dir")), r.findings().toString());
        }
    }
}
