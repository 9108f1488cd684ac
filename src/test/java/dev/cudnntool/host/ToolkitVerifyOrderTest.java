package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #33 item 4: verify's toolkit order (the nvcc on PATH before /usr/local/cuda) and toolkit.env-mismatch. */
class ToolkitVerifyOrderTest {
    private static Path nvcc(Path toolkit) throws Exception {
        Path n = toolkit.resolve("bin/nvcc");
        Files.writeString(n, "#!/bin/sh\n");
        return n;
    }

    @Test
    void theNvccOnPathComesBeforeUsrLocalCudaAndIsReadWithoutRunningIt() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.toolkit(fs.getPath("/usr/local/cuda-13.0"), "13.0.48");
        Files.createSymbolicLink(fs.getPath("/usr/local/cuda"), fs.getPath("/usr/local/cuda-13.0"));
        Path tk = TestHosts.toolkit(fs.getPath("/opt/cuda-12.6"), "12.6.77");
        nvcc(tk);
        // PATH reaches nvcc through a link folder; the toolkit is found from the real path
        Files.createDirectories(fs.getPath("/home/me/bin"));
        Files.createSymbolicLink(fs.getPath("/home/me/bin/nvcc"), tk.resolve("bin/nvcc"));
        FakeRunner runner = new FakeRunner();
        Host host = TestHosts.linux(fs, Map.of("PATH", "/usr/bin:/home/me/bin"), runner);
        ToolkitLocator.Selection s = ToolkitLocator.locateForVerify(host, null);
        assertEquals(tk, s.chosen().root());
        assertEquals("nvcc on PATH", s.chosen().foundBy());
        assertEquals("12.6", s.chosen().version().toString().substring(0, 4));
        assertEquals("version.json", s.chosen().versionSource());
        assertTrue(runner.calls.isEmpty(), "nothing is run: " + runner.calls);
        // install keeps today's order: /usr/local/cuda
        assertEquals(fs.getPath("/usr/local/cuda"), ToolkitLocator.locate(host, null, null).chosen().root());
        // CUDA_HOME still comes first
        Host home = TestHosts.linux(fs, Map.of("PATH", "/home/me/bin", "CUDA_HOME", "/usr/local/cuda-13.0"), runner);
        assertEquals("CUDA_HOME", ToolkitLocator.locateForVerify(home, null).chosen().foundBy());
    }

    @Test
    void cudaHomeCudaPathAndNvccNamingDifferentToolkitsIsAWarningNamingAllThree() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.toolkit(fs.getPath("/usr/local/cuda-11.8"), "11.8.89");
        TestHosts.toolkit(fs.getPath("/usr/local/cuda-12.6"), "12.6.77");
        nvcc(TestHosts.toolkit(fs.getPath("/usr/local/cuda-13.0"), "13.0.48"));
        Host host = TestHosts.linux(fs, Map.of("CUDA_HOME", "/usr/local/cuda-11.8", "CUDA_PATH", "/usr/local/cuda-12.6",
                "PATH", "/usr/local/cuda-13.0/bin:/usr/bin"), new FakeRunner());
        List<Finding> f = ToolkitLocator.locateForVerify(host, null).findings().stream()
                .filter(x -> x.is(FindingId.TOOLKIT_ENV_MISMATCH)).toList();
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.WARN, f.get(0).severity());
        String m = f.get(0).message();
        assertTrue(m.contains("3 different CUDA toolkits") && m.contains("CUDA_PATH=/usr/local/cuda-12.6 (CUDA 12.6)")
                && m.contains("CUDA_HOME=/usr/local/cuda-11.8 (CUDA 11.8)")
                && m.contains("the nvcc on PATH (/usr/local/cuda-13.0/bin/nvcc) (CUDA 13.0)"), m);
        assertTrue(f.get(0).fix().contains("CUDA_HOME"), f.get(0).fix());
        // install's locate says nothing of it
        assertTrue(ToolkitLocator.locate(host, null, null).findings().stream().noneMatch(x -> x.is(FindingId.TOOLKIT_ENV_MISMATCH)));
    }

    @Test
    void oneToolkitNamedThreeWaysOrAWrapperScriptIsNoMismatch() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        nvcc(TestHosts.toolkit(fs.getPath("/usr/local/cuda-12.6"), "12.6.77"));
        Files.createSymbolicLink(fs.getPath("/usr/local/cuda"), fs.getPath("/usr/local/cuda-12.6"));
        Host same = TestHosts.linux(fs, Map.of("CUDA_HOME", "/usr/local/cuda", "CUDA_PATH", "/usr/local/cuda-12.6",
                "PATH", "/usr/local/cuda/bin"), new FakeRunner());
        assertTrue(ToolkitLocator.locateForVerify(same, null).findings().stream().noneMatch(x -> x.is(FindingId.TOOLKIT_ENV_MISMATCH)));
        // /usr/local/bin/nvcc, a script that execs a toolkit's nvcc: its folder above is no toolkit, so it names none
        TestHosts.toolkit(fs.getPath("/opt/cuda-13.0"), "13.0.48");
        Files.createDirectories(fs.getPath("/usr/local/bin"));
        Files.writeString(fs.getPath("/usr/local/bin/nvcc"), "#!/bin/sh\nexec /usr/local/cuda-12.6/bin/nvcc \"$@\"\n");
        Host wrapper = TestHosts.linux(fs, Map.of("CUDA_HOME", "/usr/local/cuda-12.6", "PATH", "/usr/local/bin"), new FakeRunner());
        assertTrue(ToolkitLocator.locateForVerify(wrapper, null).findings().stream().noneMatch(x -> x.is(FindingId.TOOLKIT_ENV_MISMATCH)));
        assertTrue(ToolkitLocator.nvccOnPath(wrapper).isEmpty());
    }
}
