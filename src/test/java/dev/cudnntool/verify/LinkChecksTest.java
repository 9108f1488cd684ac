package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 A11: the development link libcudnn.so pointing at another major than the soname link. */
class LinkChecksTest {
    static final String TK = "/usr/local/cuda-12.6";
    static final String LIB = TK + "/lib64";

    static Host toolkit(FileSystem fs) throws Exception {
        TestHosts.linuxToolkit(fs.getPath(TK), "12.6.0");
        Path lib = fs.getPath(LIB);
        for (String base : CudnnComponents.libraries(9)) {
            CopyFinderTest.lib(lib, "lib" + base + ".so.9.5.1", CudnnComponents.linuxSoname(base, 9));
            Files.createSymbolicLink(lib.resolve("lib" + base + ".so"), fs.getPath(CudnnComponents.linuxSoname(base, 9)));
        }
        for (String h : CudnnComponents.headers(9)) {
            Files.writeString(fs.getPath(TK, "include", h), h.equals("cudnn_version.h")
                    ? ArchiveFixture.versionHeader(CudnnVersion.of(9, 5, 1)) : "/* */");
        }
        return TestHosts.linux(fs, Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB), new FakeRunner());
    }

    static List<Finding> devLinkFindings(Host host) {
        return new VerifyService(host, null).verify(null, null, null).findings().stream()
                .filter(f -> f.id().equals("cudnn.dev-link-mismatch")).toList();
    }

    @Test
    void healthyDevLinksSayNothing() throws Exception {
        assertEquals(List.of(), devLinkFindings(toolkit(TestHosts.unixFs())));
    }

    @Test
    void devLinkToTheOldMajorIsAnErrorWithTheExactLn() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Host host = toolkit(fs);
        Path lib = fs.getPath(LIB);
        CopyFinderTest.lib(lib, "libcudnn.so.8.9.7", "libcudnn.so.8");
        Files.delete(lib.resolve("libcudnn.so"));
        Files.createSymbolicLink(lib.resolve("libcudnn.so"), fs.getPath("libcudnn.so.8"));
        List<Finding> f = devLinkFindings(host);
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.get(0).message().contains("libcudnn.so -> libcudnn.so.8 (cuDNN 8)") && f.get(0).message().contains("cuDNN 9"),
                f.get(0).message());
        assertEquals("sudo ln -sfn libcudnn.so.9 " + TK + "/targets/x86_64-linux/lib/libcudnn.so", f.get(0).fix());
    }

    @Test
    void aDanglingDevLinkToAnotherMajorIsAMismatchToo() throws Exception {
        // #33 item 6: libcudnn.so -> libcudnn.so.8, and cuDNN 8 is gone
        FileSystem fs = TestHosts.unixFs();
        Host host = toolkit(fs);
        Path lib = fs.getPath(LIB);
        Files.delete(lib.resolve("libcudnn.so"));
        Files.createSymbolicLink(lib.resolve("libcudnn.so"), fs.getPath("libcudnn.so.8"));
        List<Finding> f = devLinkFindings(host);
        assertEquals(1, f.size(), f.toString());
        assertTrue(f.get(0).message().contains("libcudnn.so -> libcudnn.so.8 (cuDNN 8, no longer there: the link dangles)"),
                f.get(0).message());
        assertEquals("sudo ln -sfn libcudnn.so.9 " + TK + "/targets/x86_64-linux/lib/libcudnn.so", f.get(0).fix());
        assertEquals(Optional.of(9), LinkChecks.danglingMajor(lib.resolve("libcudnn_ops.so")), "the major where the chain ends");
    }
}
