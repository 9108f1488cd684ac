package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * #31 item 5: one toolkit reached under several names (/usr/local/cuda, its versioned folder, a
 * CUDA_PATH naming either) is read once per search: {@code nvcc --version} runs once, not once a name.
 */
class ToolkitReadOnceTest {
    private static final String NVCC_12_2 = "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 12.2, V12.2.140\n";

    private static long nvccRuns(FakeRunner runner) {
        return runner.calls.stream().filter(c -> c.get(0).endsWith("nvcc") && c.contains("--version")).count();
    }

    @Test
    void aToolkitReachedThroughALinkRunsNvccOnce() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.write(fs.getPath("/usr/local/cuda-12.2/bin/nvcc"), "#!");
        Files.createSymbolicLink(fs.getPath("/usr/local/cuda"), fs.getPath("cuda-12.2"));
        FakeRunner runner = new FakeRunner().on("/nvcc --version", NVCC_12_2);
        Host host = TestHosts.linux(fs, Map.of("CUDA_HOME", "/usr/local/cuda-12.2"), runner);

        ToolkitLocator.Selection s = ToolkitLocator.locate(host, null, null);

        assertEquals(1, nvccRuns(runner), "three names, one toolkit, one nvcc run: " + runner.calls);
        assertEquals(1, s.found().size(), "still reported once: " + s.found());
        Toolkit chosen = s.chosen();
        assertEquals("CUDA_HOME", chosen.foundBy());
        assertEquals(fs.getPath("/usr/local/cuda-12.2"), chosen.root());
        assertEquals("12.2", chosen.version().toString());
        assertEquals("nvcc", chosen.versionSource());
    }

    @Test
    void twoToolkitsAreTwoReadsAndEachKeepsItsOwnVersion() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.write(fs.getPath("/usr/local/cuda-12.2/bin/nvcc"), "#!");
        TestHosts.write(fs.getPath("/usr/local/cuda-11.8/bin/nvcc"), "#!");
        Files.createSymbolicLink(fs.getPath("/usr/local/cuda"), fs.getPath("cuda-11.8"));
        String nvcc118 = "Cuda compilation tools, release 11.8, V11.8.89\n";
        FakeRunner runner = new FakeRunner().on("cuda-12.2/bin/nvcc --version", NVCC_12_2)
                .on("cuda-11.8/bin/nvcc --version", nvcc118).on("/usr/local/cuda/bin/nvcc --version", nvcc118);
        Host host = TestHosts.linux(fs, Map.of(), runner);

        ToolkitLocator.Selection s = ToolkitLocator.locate(host, null, null);

        assertEquals(2, nvccRuns(runner), runner.calls.toString());
        assertEquals(List.of("11.8", "12.2"), s.found().stream().map(t -> t.version().toString()).sorted().toList());
        assertEquals(fs.getPath("/usr/local/cuda-12.2"), s.chosen().root(), "the newest, as before: " + s.found());
        Toolkit eleven = s.found().stream().filter(t -> t.version().major() == 11).findFirst().orElseThrow();
        assertEquals(fs.getPath("/usr/local/cuda"), eleven.root(), "the first name read is kept: " + s.found());
    }

    @Test
    void aFolderWhoseContentGivesNoVersionIsStillNamedByItsFolderName() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.write(fs.getPath("/usr/local/cuda-12.2/bin/nvcc"), "#!");
        Files.createSymbolicLink(fs.getPath("/usr/local/cuda"), fs.getPath("cuda-12.2"));
        FakeRunner runner = new FakeRunner(); // nvcc does not start
        Host host = TestHosts.linux(fs, Map.of(), runner);

        ToolkitLocator.Selection s = ToolkitLocator.locate(host, null, null);

        assertEquals(1, nvccRuns(runner), runner.calls.toString());
        assertEquals(1, s.found().size(), s.found().toString());
        assertEquals(fs.getPath("/usr/local/cuda-12.2"), s.chosen().root(), "the name that gives a version is kept, as before");
        assertEquals("12.2", s.chosen().version().toString());
        assertEquals("folder name", s.chosen().versionSource());
    }

    @Test
    void eachSearchReadsAfresh() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.write(fs.getPath("/usr/local/cuda-12.2/bin/nvcc"), "#!");
        FakeRunner runner = new FakeRunner().on("/nvcc --version", NVCC_12_2);
        Host host = TestHosts.linux(fs, Map.of(), runner);
        ToolkitLocator.locate(host, null, null);
        ToolkitLocator.locate(host, null, null);
        assertEquals(2, nvccRuns(runner), "a toolkit may change between two commands' searches: " + runner.calls);
    }

    private static String version(String json) throws IOException {
        return ToolkitLocator.cudaVersionOf(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void versionJsonIsReadWithoutADataBindingMapper() throws IOException {
        assertEquals("12.4.1", version("{\"cuda\":{\"name\":\"CUDA SDK\",\"version\":\"12.4.1\"},\"cuda_cudart\":{\"version\":\"12.4.127\"}}"));
        assertEquals("12.2.20230823", version("{\"cuda_nvcc\":{\"version\":\"12.2.140\",\"x\":[1,{\"version\":\"9\"}]},"
                + "\"cuda\":{\"version\":\"12.2.20230823\"}}"), "other components' versions are skipped");
        assertEquals("12.2", version("{\"cuda\":{\"version\":12.2}}"), "a number is read as its text, as the mapper did");
        assertNull(version("{\"cuda_cudart\":{\"version\":\"12.4.127\"}}"));
        assertNull(version("{\"cuda\":{\"version\":{\"major\":12}}}"));
        assertNull(version("{\"cuda\":\"12.4\"}"));
        assertNull(version("[\"cuda\"]"));
        assertNull(version(""));
        assertThrows(IOException.class, () -> version("{\"cuda\":{\"name\":"));
    }
}
