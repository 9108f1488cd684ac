package dev.cudnntool.archive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.ArchiveFormat;
import dev.cudnntool.archive.name.ArchiveName;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 20 item 6: the usual mistakes told apart before an archive's name is judged. */
class ArchiveFileTest {
    private final FileSystem unix = Jimfs.newFileSystem(Configuration.unix());
    private final FileSystem windows = Jimfs.newFileSystem(Configuration.windows());

    private static ToolException refused(Path p) {
        return assertThrows(ToolException.class, () -> ArchiveFile.name(p));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/home/me/cudnn.zip", "/home/me/cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz",
            "/home/me/TensorRT-10.0.1.6.Linux.x86_64-gnu.cuda-12.4.tar.gz", "/home/me/notes.txt"})
    void aMissingFileIsExit2WhateverItsName(String path) {
        ToolException e = refused(unix.getPath(path));
        assertEquals(ExitCode.USAGE, e.exitCode(), e.getMessage());
        assertEquals("archive " + path + " does not exist", e.getMessage());
        assertTrue(e.fix().contains("cudnn releases"), e.fix());
    }

    @Test
    void theUnpackedArchiveFolderIsToldToPassTheArchiveOrVerifyThePrefix() throws Exception {
        Path top = windows.getPath("C:\\Users\\me\\Downloads\\cudnn-windows-x86_64-9.5.1.17_cuda12-archive");
        Files.createDirectories(top.resolve("include"));
        Files.writeString(top.resolve("include").resolve("cudnn_version.h"), "#define CUDNN_MAJOR 9");
        for (Path p : new Path[] {top, top.getParent()}) { // the folder itself, or the one it was unpacked into
            ToolException e = refused(p);
            assertEquals(ExitCode.USAGE, e.exitCode());
            assertTrue(e.getMessage().contains("is a folder holding an unpacked cuDNN archive, not the archive"), e.getMessage());
            assertTrue(e.fix().contains("cudnn verify --prefix " + p), e.fix());
        }
    }

    @Test
    void anotherFolderIsAFolder() throws Exception {
        Path d = Files.createDirectories(unix.getPath("/home/me/stuff"));
        Files.writeString(d.resolve("readme.txt"), "x");
        ToolException e = refused(d);
        assertEquals(ExitCode.USAGE, e.exitCode());
        assertEquals("/home/me/stuff is a folder, not an archive", e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "torch-2.5.1-cp311-cp311-manylinux1_x86_64.whl | is a Python wheel, but not NVIDIA's cuDNN wheel | install it with pip",
        "nvidia_cublas_cu12-12.4.5.8-py3-none-manylinux2014_x86_64.whl | is a Python wheel, but not NVIDIA's cuDNN wheel | nvidia_cudnn_cuNN wheel",
        "cudnn-local-repo-ubuntu2204-9.5.1_1.0-1_amd64.deb | local apt repository of cuDNN | sudo dpkg -i cudnn-local-repo-ubuntu2204-9.5.1_1.0-1_amd64.deb",
        "cudnn-local-repo-rhel9-9.5.1-1.0-1.x86_64.rpm | local dnf/yum repository of cuDNN | sudo dnf install cudnn",
        "libcudnn9-cuda-12_9.5.1.17-1_amd64.deb | is a Debian package | sudo apt-get install ./libcudnn9-cuda-12_9.5.1.17-1_amd64.deb",
        "cudnn_9.5.1_windows.exe | NVIDIA's Windows installer of cuDNN | run it",
        "TensorRT-10.0.1.6.Linux.x86_64-gnu.cuda-12.4.tar.gz | is a TensorRT file | cudnn releases",
        "cuda_12.4.0_550.54.14_linux.run | is a CUDA toolkit file | install the toolkit",
        "cuda_cudart-linux-x86_64-12.4.127-archive.tar.xz | is a CUDA toolkit file | install the toolkit",
        "libcublas-linux-x86_64-12.4.5.8-archive.tar.xz | is NVIDIA's libcublas archive, not cuDNN's | cudnn releases",
    })
    void cudnnInAnotherFormOrAnotherProductGetsItsOwnMessage(String name, String says, String fix) throws Exception {
        Path f = Files.createDirectories(unix.getPath("/home/me")).resolve(name);
        Files.write(f, new byte[] {1, 2, 3});
        ToolException e = refused(f);
        assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode(), e.getMessage());
        assertTrue(e.getMessage().startsWith("'" + name + "' "), e.getMessage());
        assertTrue(e.getMessage().contains(says), e.getMessage());
        assertTrue(e.fix().contains(fix), e.fix());
        assertTrue(!e.getMessage().contains("\n") && !e.fix().contains("\n"), "one line");
    }

    @Test
    void aCudnnArchiveNameIsParsedAndAStrangeOneStillGetsThePattern() throws Exception {
        Path home = Files.createDirectories(unix.getPath("/home/me"));
        Path good = Files.write(home.resolve("cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz"), new byte[] {1});
        assertEquals("9.5.1.17", ArchiveFile.name(good).version().toString());
        Path odd = Files.write(home.resolve("cudnn.zip"), new byte[] {1});
        ToolException e = refused(odd);
        assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
        assertTrue(e.getMessage().contains("is not a cuDNN archive name"), e.getMessage());
    }

    /** Issue 20 item 7: NVIDIA's cuDNN wheel is no longer refused with a pip hint but read as a source. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "nvidia_cudnn_cu12-9.5.1.17-py3-none-manylinux2014_x86_64.whl | 9.5.1.17 | 12 | LINUX",
        "nvidia_cudnn_cu13-9.12.0.46-py3-none-win_amd64.whl | 9.12.0.46 | 13 | WINDOWS",
        "nvidia_cudnn_cu13-9.24.0.43-py3-none-manylinux_2_27_x86_64.whl | 9.24.0.43 | 13 | LINUX",
    })
    void nvidiasCudnnWheelIsASource(String name, String version, int cuda, String os) throws Exception {
        Path f = Files.write(Files.createDirectories(unix.getPath("/home/me")).resolve(name), new byte[] {'P', 'K'});
        ArchiveName n = ArchiveFile.name(f);
        assertEquals(version, n.version().toString());
        assertEquals(cuda, n.cudaVariant().major());
        assertEquals(os, n.os().name());
        assertEquals(ArchiveFormat.WHEEL, n.format());
    }
}
