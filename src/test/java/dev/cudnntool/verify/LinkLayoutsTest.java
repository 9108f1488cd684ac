package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 A8: links as toolkits really have them: loops, folders reached through lib64 or /usr/local/cuda, per-file links. */
class LinkLayoutsTest {
    static final String TK = "/usr/local/cuda-12.6";
    static final String REAL = TK + "/targets/x86_64-linux/lib";

    static FileSystem toolkit() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        LinkChecksTest.toolkit(fs); // lib64 -> targets/x86_64-linux/lib, complete cuDNN 9.5.1 with links
        Files.createSymbolicLink(fs.getPath("/usr/local/cuda"), fs.getPath("cuda-12.6"));
        return fs;
    }

    static List<Finding> errorsAndWarnings(Host host) {
        return new VerifyService(host, null).verify(null, null, null).findings().stream()
                .filter(f -> f.severity() != Severity.INFO && !f.id().startsWith("driver.") && !f.id().equals("cudnn.dependency-missing"))
                .toList(); // no driver, no cuBLASLt in these toolkits: not what is looked at here
    }

    @Test
    void theToolkitReachedThroughLinksIsOnTheSearchPathAndShadowsNothing() throws Exception {
        for (String entry : List.of("/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", TK + "/lib64", REAL,
                "/usr/local/cuda/lib64/", "/usr/local/cuda/lib64/../lib64")) {
            FileSystem fs = toolkit();
            for (String cuda : List.of("/usr/local/cuda", TK)) {
                Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", cuda, "LD_LIBRARY_PATH", entry), new FakeRunner());
                assertEquals(List.of(), errorsAndWarnings(host), "LD_LIBRARY_PATH=" + entry + " CUDA_PATH=" + cuda);
            }
        }
    }

    @Test
    void aLib64OfPerFileLinksIsTheSameCopyNotAShadow() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        LinkChecksTest.toolkit(fs);
        Path lib64 = fs.getPath(TK, "lib64");
        Files.delete(lib64);
        Files.createDirectories(lib64);
        try (var ds = Files.newDirectoryStream(fs.getPath(REAL))) {
            for (Path f : ds) {
                Files.createSymbolicLink(lib64.resolve(f.getFileName().toString()), fs.getPath("../targets/x86_64-linux/lib", f.getFileName().toString()));
            }
        }
        for (String path : List.of(REAL + ":" + TK + "/lib64", REAL)) {
            Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", path), new FakeRunner());
            assertEquals(List.of(), errorsAndWarnings(host), path);
        }
    }

    @Test
    void aLinkLoopIsSaidToBeALoop() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Host host = LinkChecksTest.toolkit(fs);
        Path lib = fs.getPath(REAL);
        Files.delete(lib.resolve("libcudnn_graph.so.9"));
        Files.delete(lib.resolve("libcudnn_graph.so.9.5.1"));
        Files.createSymbolicLink(lib.resolve("libcudnn_graph.so.9"), fs.getPath("libcudnn_graph.so.9.5.1"));
        Files.createSymbolicLink(lib.resolve("libcudnn_graph.so.9.5.1"), fs.getPath("libcudnn_graph.so.9"));
        List<Finding> f = errorsAndWarnings(host);
        Finding loop = f.stream().filter(x -> x.id().equals("cudnn.dangling-link")).findFirst().orElseThrow(() -> new AssertionError(f));
        assertTrue(loop.message().contains("loop") && loop.message().contains("libcudnn_graph.so.9 -> libcudnn_graph.so.9.5.1 -> libcudnn_graph.so.9"),
                loop.message());
        assertTrue(!loop.message().contains("does not exist"), loop.message());
        assertTrue(loop.fix().contains("rm " + lib.resolve("libcudnn_graph.so.9.5.1")) || loop.fix().contains("reinstall"), loop.fix());
    }
}
