package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** #29 item 5: Host.realPath and Host.sameFile, the one way to resolve real paths and compare files (jimfs, both OSes). */
class RealPathsTest {
    private static Host host(boolean windows) {
        FileSystem fs = windows ? TestHosts.windowsFs() : TestHosts.unixFs();
        return windows ? TestHosts.windows(fs, Map.of(), new FakeRunner()) : TestHosts.linux(fs, Map.of(), new FakeRunner());
    }

    private static Path dir(Host h) throws Exception {
        Path d = h.path(h.windows() ? "C:\\cudnn\\bin" : "/opt/cudnn/lib");
        Files.createDirectories(d);
        return d;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aLinkIsTheSameFileAsWhatItLeadsTo(boolean windows) throws Exception {
        Host h = host(windows);
        Path d = dir(h);
        Path file = Files.writeString(d.resolve("libcudnn.so.9.5.1"), "x");
        Path link = Files.createSymbolicLink(d.resolve("libcudnn.so.9"), file.getFileName());
        Path chain = Files.createSymbolicLink(d.resolve("libcudnn.so"), link.getFileName());
        Path dirLink = Files.createSymbolicLink(d.getParent().resolve("lib64"), d);
        assertEquals(file.toRealPath(), h.realPath(chain));
        assertEquals(file.toRealPath(), h.realPath(dirLink.resolve("libcudnn.so.9")));
        assertTrue(h.sameFile(chain, file));
        assertTrue(h.sameFile(dirLink.resolve("libcudnn.so"), link));
        assertTrue(h.sameFile(file, file));
        assertFalse(h.sameFile(file, Files.writeString(d.resolve("other"), "x")), "two files with the same bytes are two files");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void hardLinksAreTwoCopies(boolean windows) throws Exception {
        Host h = host(windows);
        Path d = dir(h);
        Path file = Files.writeString(d.resolve("a.so"), "x");
        Path hard = Files.createLink(d.resolve("b.so"), file);
        assertTrue(Files.isSameFile(file, hard), "the file system calls them one file");
        assertFalse(h.sameFile(file, hard), "a loader sees two copies: installed and removed apart");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void missingDanglingAndLoopsFallBackToTheAbsoluteNormalPath(boolean windows) throws Exception {
        Host h = host(windows);
        Path d = dir(h);
        Path missing = d.resolve("sub").resolve("..").resolve("gone.so");
        assertEquals(d.resolve("gone.so").toAbsolutePath(), h.realPath(missing));
        assertTrue(h.sameFile(missing, d.resolve("gone.so")), "one missing path named twice is one path");
        Path dangling = Files.createSymbolicLink(d.resolve("dangling.so"), d.resolve("nowhere.so"));
        assertEquals(dangling.toAbsolutePath(), h.realPath(dangling));
        assertFalse(h.sameFile(dangling, d.resolve("nowhere.so")), "a dangling link leads to no file");
        Path a = d.resolve("loop-a");
        Path b = d.resolve("loop-b");
        Files.createSymbolicLink(a, b);
        Files.createSymbolicLink(b, a);
        assertEquals(a.toAbsolutePath(), h.realPath(a));
        assertFalse(h.sameFile(a, b));
        assertTrue(h.sameFile(a, a));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void caseCountsOnlyOffWindows(boolean windows) throws Exception {
        Host h = host(windows);
        Path d = dir(h);
        Path upper = d.resolve("CUDNN64_9.DLL");
        Path lower = d.resolve("cudnn64_9.dll");
        assertEquals(windows, h.sameFile(upper, lower));
        assertEquals(windows, RealPaths.sameFile(upper, lower, true) && windows);
        assertFalse(RealPaths.sameFile(h.path(windows ? "C:\\x\\A" : "/x/A"), h.path(windows ? "C:\\x\\B" : "/x/B"), true));
    }
}
