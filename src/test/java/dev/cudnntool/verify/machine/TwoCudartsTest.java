package dev.cudnntool.verify.machine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 B17: two CUDA runtimes reachable by one program (cudnn.two-cudarts). */
class TwoCudartsTest {
    private static CudnnCopy winner(String path) {
        return new CudnnCopy(path, 9, "9.5.1", CudnnCopy.Origin.PATH, true, null, List.of());
    }

    @Test
    void runtimesOfTwoMajorsOnTheSearchPathAreNamedWithWhatPutThemThere() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.write(fs.getPath("/usr/local/cuda-12.6/lib64/libcudart.so.12"), "x");
        TestHosts.write(fs.getPath("/usr/local/cuda-13.0/lib64/libcudart.so.13"), "x");
        Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/usr/local/cuda-12.6/lib64:/usr/local/cuda-13.0/lib64"),
                new FakeRunner());
        List<Finding> f = TwoCudarts.findings(host, List.of(winner("/opt/cudnn/lib/libcudnn.so.9")));
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).is(FindingId.CUDNN_TWO_CUDARTS));
        assertEquals(Severity.WARN, f.get(0).severity());
        assertTrue(f.get(0).message().contains("libcudart.so.12 (/usr/local/cuda-12.6/lib64, LD_LIBRARY_PATH) and libcudart.so.13"
                + " (/usr/local/cuda-13.0/lib64, LD_LIBRARY_PATH)"), f.get(0).message());
        assertTrue(f.get(0).fix().contains("keep one CUDA major"), f.get(0).fix());
        assertEquals(List.of(), TwoCudarts.findings(host, List.of()), "no cuDNN a program gets: nothing to say");
    }

    @Test
    void oneMajorOrWindowsNamesAreToldApart() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.write(fs.getPath("/usr/local/cuda-12.6/lib64/libcudart.so.12"), "x");
        Host one = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/usr/local/cuda-12.6/lib64"), new FakeRunner());
        assertEquals(List.of(), TwoCudarts.findings(one, List.of(winner("/x/libcudnn.so.9"))));

        FileSystem win = TestHosts.windowsFs();
        TestHosts.write(win.getPath("C:\\cuda11\\bin\\cudart64_110.dll"), "MZ");
        TestHosts.write(win.getPath("C:\\cuda12\\bin\\cudart64_12.dll"), "MZ");
        Host w = TestHosts.windows(win, Map.of("PATH", "C:\\cuda11\\bin;C:\\cuda12\\bin"), new FakeRunner());
        List<Finding> f = TwoCudarts.findings(w, List.of(new CudnnCopy("C:\\cuda12\\bin\\cudnn64_9.dll", 9, null,
                CudnnCopy.Origin.PATH, true, null, List.of())));
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("cudart64_110.dll (C:\\cuda11\\bin, PATH") && f.get(0).message().contains("cudart64_12.dll"),
                f.get(0).message());
    }

    @Test
    void toolkitsSideBySideInTheSystemFoldersAreNotTwoRuntimesInOneProcess() throws Exception {
        // #33 A5: each major registered with the system loader (a distribution's libcudart12 and libcudart13 packages);
        // a program gets only the major it asks for, so nothing is said.
        FileSystem fs = TestHosts.unixFs();
        TestHosts.write(fs.getPath("/usr/lib/x86_64-linux-gnu/libcudart.so.12"), "x");
        TestHosts.write(fs.getPath("/lib64/libcudart.so.13"), "x");
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
        assertEquals(List.of(), TwoCudarts.findings(host, List.of(winner("/opt/cudnn/lib/libcudnn.so.9")), List.of()));
        // one of them forced onto every program through LD_LIBRARY_PATH: that is one process with both
        TestHosts.write(fs.getPath("/opt/cuda-12/lib64/libcudart.so.12"), "x");
        Host forced = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/opt/cuda-12/lib64"), new FakeRunner());
        List<Finding> f = TwoCudarts.findings(forced, List.of(winner("/opt/cudnn/lib/libcudnn.so.9")), List.of());
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("/opt/cuda-12/lib64, LD_LIBRARY_PATH") && f.get(0).message().contains("libcudart.so.13"),
                f.get(0).message());
    }

    @Test
    void aTorchCuda13WheelWithACuda12RuntimeOnLdLibraryPathIsTwoCudarts() throws Exception {
        // #33 A6: torch's own runtime is in nvidia/cu13/lib; LD_LIBRARY_PATH, searched before torch's DT_RUNPATH, holds CUDA 12's
        FileSystem fs = TestHosts.unixFs();
        Path site = fs.getPath("/home/me/venv/lib/python3.12/site-packages");
        TestHosts.write(site.resolve("torch/lib/libtorch_cuda.so"), "x");
        TestHosts.write(site.resolve("nvidia/cu13/lib/libcudart.so.13"), "x");
        TestHosts.write(fs.getPath("/usr/local/cuda-12.6/lib64/libcudart.so.12"), "x");
        Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/usr/local/cuda-12.6/lib64"), new FakeRunner());
        List<Finding> f = TwoCudarts.findings(host, List.of(), List.of(site));
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.WARN, f.get(0).severity());
        assertTrue(f.get(0).message().contains("CUDA 13 runtime (" + site.resolve("nvidia/cu13/lib/libcudart.so.13"))
                && f.get(0).message().contains("/usr/local/cuda-12.6/lib64/libcudart.so.12"), f.get(0).message());
        assertTrue(f.get(0).fix().contains("/usr/local/cuda-12.6/lib64 off LD_LIBRARY_PATH"), f.get(0).fix());
        // the same environment without the CUDA 12 folder on LD_LIBRARY_PATH: one runtime, nothing to say
        Host clean = TestHosts.linux(fs, Map.of(), new FakeRunner());
        assertEquals(List.of(), TwoCudarts.findings(clean, List.of(), List.of(site)));
    }
}
