package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.DeniedFolders;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 A9: NVIDIA's Debian layout, headers through /etc/alternatives, a dangling alternative, an unreadable cudnn_version.h. */
class HeaderFilesTest {
    static final String MULTI = "/usr/include/x86_64-linux-gnu";

    /** NVIDIA's libcudnn9-cuda-12 and libcudnn9-dev-cuda-12 as dpkg lays them out, alternatives made. */
    static FileSystem debian() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Path lib = fs.getPath("/usr/lib/x86_64-linux-gnu");
        for (String base : CudnnComponents.libraries(9)) {
            CopyFinderTest.lib(lib, "lib" + base + ".so.9.5.1", CudnnComponents.linuxSoname(base, 9));
        }
        Files.createDirectories(fs.getPath(MULTI));
        Files.createDirectories(fs.getPath("/etc/alternatives"));
        for (String h : CudnnComponents.headers(9)) {
            String v9 = h.replace(".h", "_v9.h");
            Files.writeString(fs.getPath(MULTI, v9), h.equals("cudnn_version.h") ? ArchiveFixture.versionHeader(CudnnVersion.of(9, 5, 1)) : "/* */");
            String alt = "libcudnn_" + h.replace(".h", "_h");
            Files.createSymbolicLink(fs.getPath("/etc/alternatives", alt), fs.getPath(MULTI, v9));
            Files.createSymbolicLink(fs.getPath("/usr/include", h), fs.getPath("/etc/alternatives", alt));
        }
        return fs;
    }

    static VerifyReport verify(FileSystem fs) {
        Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/usr/lib/x86_64-linux-gnu"), new FakeRunner());
        return new VerifyService(host, null).verify(null, host.path("/usr"), null);
    }

    static List<Finding> id(VerifyReport r, String id) {
        return r.findings().stream().filter(f -> f.id().equals(id)).toList();
    }

    @Test
    void nvidiasDebianLayoutIsCompleteWithItsVersion() throws Exception {
        VerifyReport r = verify(debian());
        assertEquals(List.of(), id(r, "cudnn.incomplete"), r.findings().toString());
        assertEquals(List.of(), id(r, "cudnn.dangling-link"));
        assertEquals(CudnnVersion.of(9, 5, 1), r.cudnn().headerVersion());
        assertTrue(r.ok(), r.findings().toString());
        // the headers only under Debian's names (no alternatives made yet) still count
        FileSystem fs = debian();
        for (String h : CudnnComponents.headers(9)) {
            Files.delete(fs.getPath("/usr/include", h));
        }
        VerifyReport plain = verify(fs);
        assertEquals(List.of(), id(plain, "cudnn.incomplete"), plain.findings().toString());
        assertEquals(CudnnVersion.of(9, 5, 1), plain.cudnn().headerVersion());
    }

    @Test
    void aDanglingAlternativeIsSaidAsSuchNotAsLacks() throws Exception {
        FileSystem fs = debian();
        Files.delete(fs.getPath("/etc/alternatives/libcudnn_cudnn_version_h"));
        Files.createSymbolicLink(fs.getPath("/etc/alternatives/libcudnn_cudnn_version_h"), fs.getPath(MULTI, "cudnn_version_v8.h"));
        VerifyReport r = verify(fs);
        Finding f = id(r, "cudnn.dangling-link").stream().findFirst().orElseThrow(() -> new AssertionError(r.findings()));
        assertTrue(f.message().contains("/usr/include/cudnn_version.h is a link to a file that does not exist (/usr/include/cudnn_version.h"
                + " -> /etc/alternatives/libcudnn_cudnn_version_h -> " + MULTI + "/cudnn_version_v8.h)")
                && f.message().contains("the alternative libcudnn_cudnn_version_h still points at a cuDNN that was removed"), f.message());
        assertTrue(f.fix().contains("update-alternatives --config libcudnn_cudnn_version_h"), f.fix());
        assertTrue(id(r, "cudnn.incomplete").stream().noneMatch(x -> x.message().contains("cudnn_version.h")), r.findings().toString());
    }

    @Test
    void anUnreadableVersionHeaderIsReported() throws Exception {
        FileSystem fs = DeniedFolders.wrap(debian(), MULTI + "/cudnn_version_v9.h");
        VerifyReport r = verify(fs);
        Finding f = id(r, "cudnn.unreadable").stream().findFirst().orElseThrow(() -> new AssertionError(r.findings()));
        assertEquals(Severity.WARN, f.severity());
        assertTrue(f.message().contains("/usr/include/cudnn_version.h (" + MULTI + "/cudnn_version_v9.h) cannot be read"), f.message());
        assertEquals("sudo chmod a+r " + MULTI + "/cudnn_version_v9.h", f.fix());
    }
}
