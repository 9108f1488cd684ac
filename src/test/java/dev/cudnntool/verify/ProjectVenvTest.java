package dev.cudnntool.verify;

import dev.cudnntool.diagnosis.CopyFinder;
import dev.cudnntool.diagnosis.CudnnCopy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 A15: a project's .venv (venv, uv, poetry in-project) is searched although it is not activated. */
class ProjectVenvTest {
    @Test
    void aDotVenvInTheCurrentFolderOrAParentIsSearched() throws Exception {
        FileSystem fs = Jimfs.newFileSystem(Configuration.unix().toBuilder().setAttributeViews("basic", "posix")
                .setWorkingDirectory("/home/me/proj/src/pkg").build());
        String site = "/home/me/proj/.venv/lib/python3.12/site-packages";
        CopyFinderTest.lib(fs.getPath(site, "nvidia/cudnn/lib"), "libcudnn.so.9", "libcudnn.so.9");
        Host host = TestHosts.linux(fs, Map.of("PATH", "/usr/bin"), new FakeRunner());
        assertEquals(List.of(), CopyFinder.find(host, null, List.of()), "no pyvenv.cfg: not a virtual environment");

        TestHosts.write(fs.getPath("/home/me/proj/.venv/pyvenv.cfg"), "home = /usr/bin\nuv = 0.5.0\n");
        List<CudnnCopy> copies = CopyFinder.find(host, null, List.of());
        assertEquals(1, copies.size(), copies.toString());
        assertEquals(site + "/nvidia/cudnn/lib/libcudnn.so.9", copies.get(0).path());
        assertEquals(CudnnCopy.Origin.PIP, copies.get(0).origin());
    }

    @Test
    void windowsProjectVenvKeepsItsPackagesInLib() throws Exception {
        FileSystem fs = Jimfs.newFileSystem(Configuration.windows().toBuilder().setAttributeViews("basic")
                .setWorkingDirectory("C:\\work\\proj").build());
        TestHosts.write(fs.getPath("C:\\work\\proj\\.venv\\pyvenv.cfg"), "home = C:\\Python312\n");
        TestHosts.write(fs.getPath("C:\\work\\proj\\.venv\\Lib\\site-packages\\nvidia\\cudnn\\bin\\cudnn64_9.dll"), "MZ");
        Host host = TestHosts.windows(fs, Map.of("PATH", "C:\\Windows"), new FakeRunner());
        List<CudnnCopy> copies = CopyFinder.find(host, null, List.of());
        assertEquals(1, copies.size(), copies.toString());
        assertTrue(copies.get(0).path().endsWith("\\.venv\\Lib\\site-packages\\nvidia\\cudnn\\bin\\cudnn64_9.dll"), copies.get(0).path());
    }
}
