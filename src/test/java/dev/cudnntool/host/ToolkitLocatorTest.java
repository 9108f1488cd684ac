package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolkitLocatorTest {
    static final String PF = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA";
    static final ArchiveName WIN12 = ArchiveName.parse("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip");
    static final ArchiveName WIN11 = ArchiveName.parse("cudnn-windows-x86_64-8.9.5.30_cuda11-archive.zip");

    private static FileSystem windowsWithTwoToolkits() {
        FileSystem fs = TestHosts.windowsFs();
        TestHosts.toolkit(fs.getPath(PF, "v11.8"), "11.8.20220929");
        TestHosts.toolkit(fs.getPath(PF, "v12.2"), "12.2.20230823");
        return fs;
    }

    @Test
    void eachRuleInOrderAndWhichOneChose() throws Exception {
        FileSystem fs = windowsWithTwoToolkits();
        Host viaOption = TestHosts.windows(fs, Map.of("CUDA_PATH", PF + "\\v12.2"), new FakeRunner());
        ToolkitLocator.Selection s = ToolkitLocator.locate(viaOption, fs.getPath(PF, "v11.8"), WIN11);
        assertEquals("--cuda-path", s.chosen().foundBy());
        assertEquals("11.8", s.chosen().version().toString());
        assertEquals(2, s.found().size(), "every toolkit found is reported: " + s.found());

        assertEquals("CUDA_PATH", ToolkitLocator.locate(viaOption, null, WIN12).chosen().foundBy());
        Host home = TestHosts.windows(fs, Map.of("CUDA_HOME", PF + "\\v12.2"), new FakeRunner());
        assertEquals("CUDA_HOME", ToolkitLocator.locate(home, null, WIN12).chosen().foundBy());

        // Only versioned variables: the newest of the archive's major wins, not simply the newest.
        Host versioned = TestHosts.windows(fs, Map.of("CUDA_PATH_V11_8", PF + "\\v11.8", "CUDA_PATH_V12_2", PF + "\\v12.2"), new FakeRunner());
        assertEquals("CUDA_PATH_V11_8", ToolkitLocator.locate(versioned, null, WIN11).chosen().foundBy());
        assertEquals("CUDA_PATH_V12_2", ToolkitLocator.locate(versioned, null, WIN12).chosen().foundBy());

        Host usual = TestHosts.windows(fs, Map.of(), new FakeRunner());
        Toolkit t = ToolkitLocator.locate(usual, null, WIN11).chosen();
        assertEquals("usual location", t.foundBy());
        assertEquals(fs.getPath(PF, "v11.8"), t.root());
    }

    @Test
    void linuxUsualPlacesAndTheLinkToTheVersionedFolder() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.2"), "12.2.20230823");
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-11.8"), "11.8.20220929");
        Files.createSymbolicLink(fs.getPath("/usr/local/cuda"), fs.getPath("cuda-12.2"));
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
        ToolkitLocator.Selection s = ToolkitLocator.locate(host, null,
                ArchiveName.parse("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz"));
        assertEquals(fs.getPath("/usr/local/cuda"), s.chosen().root());
        assertEquals(2, s.found().size(), "/usr/local/cuda and cuda-12.2 are one toolkit: " + s.found());
        ToolkitLocator.Selection eleven = ToolkitLocator.locate(host, null,
                ArchiveName.parse("cudnn-linux-x86_64-8.9.5.30_cuda11-archive.tar.xz"));
        assertEquals(fs.getPath("/usr/local/cuda-11.8"), eleven.chosen().root());
    }

    @Test
    void versionFromVersionJsonThenVersionTxtThenNvcc() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.toolkit(fs.getPath("/opt/a"), "12.4.1");
        TestHosts.write(fs.getPath("/opt/b/version.txt"), "CUDA Version 10.2.89\n");
        TestHosts.write(fs.getPath("/opt/c/bin/nvcc"), "#!");
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner().on("/opt/c/bin/nvcc --version",
                "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 11.8, V11.8.89\n"));
        assertEquals("version.json", ToolkitLocator.read(host, fs.getPath("/opt/a"), "t").versionSource());
        assertEquals("12.4", ToolkitLocator.read(host, fs.getPath("/opt/a"), "t").version().toString());
        assertEquals("10.2", ToolkitLocator.read(host, fs.getPath("/opt/b"), "t").version().toString());
        Toolkit c = ToolkitLocator.read(host, fs.getPath("/opt/c"), "t");
        assertEquals("nvcc", c.versionSource());
        assertEquals("11.8", c.version().toString());
        TestHosts.write(fs.getPath("/opt/d/include/x.h"), "");
        assertNull(ToolkitLocator.read(host, fs.getPath("/opt/d"), "t").version());
    }

    @Test
    void missingToolkitSaysHowToGetOne() {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        ToolkitLocator.Selection s = ToolkitLocator.locate(host, null, DriverCheckTest.CUDA12);
        assertNull(s.chosen());
        Finding f = s.findings().get(0);
        assertEquals("toolkit.missing", f.id());
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.fix().contains("--prefix DIR"), f.fix());
        ToolkitLocator.Selection bad = ToolkitLocator.locate(host, host.path("/nowhere"), DriverCheckTest.CUDA12);
        assertEquals("toolkit.missing", bad.findings().get(0).id());
        assertTrue(bad.findings().get(0).message().contains("/nowhere"));
    }

    @Test
    void majorMismatchUnsupportedMinorAndOk() {
        FileSystem fs = windowsWithTwoToolkits();
        Host host = TestHosts.windows(fs, Map.of(), new FakeRunner());
        Toolkit twelve = ToolkitLocator.read(host, fs.getPath(PF, "v12.2"), "CUDA_PATH");
        List<Finding> mismatch = ToolkitLocator.checkAgainst(twelve, WIN11);
        assertEquals("toolkit.cuda-major-mismatch", mismatch.get(0).id());
        assertTrue(mismatch.get(0).fix().contains("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip"), mismatch.get(0).fix());
        assertEquals("toolkit.ok", ToolkitLocator.checkAgainst(twelve, WIN12).get(0).id());
        TestHosts.toolkit(fs.getPath(PF, "v12.4"), "12.4.1");
        Toolkit newer = ToolkitLocator.read(host, fs.getPath(PF, "v12.4"), "CUDA_PATH");
        Finding minor = ToolkitLocator.checkAgainst(newer, WIN12).get(0);
        assertEquals("toolkit.unsupported-minor", minor.id());
        assertEquals(Severity.WARN, minor.severity());
        assertTrue(minor.message().contains("12.0 to 12.2"), minor.message());
    }
}
