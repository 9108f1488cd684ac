package dev.cudnntool.host.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** #19 A10: LD_PRELOAD and /etc/ld.so.preload, read as ld.so reads them, and cudnn.preloaded. */
class PreloadTest {
    static final String TARGET = "/usr/local/cuda/lib64";

    static FileSystem fs() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        for (String dir : List.of(TARGET, "/opt/old/lib")) {
            Files.createDirectories(fs.getPath(dir));
            Files.write(fs.getPath(dir, "libcudnn.so.9"), ElfImages.cudnn("libcudnn.so.9"));
        }
        Files.write(fs.getPath("/opt/old/lib/libcudnn.so.8"), ElfImages.cudnn("libcudnn.so.8"));
        return fs;
    }

    @Test
    void entriesSplitAtSpacesAndColonsWithCommentsInTheFile() throws Exception {
        FileSystem fs = fs();
        TestHosts.write(fs.getPath("/etc/ld.so.preload"), "# audit\n/opt/old/lib/libcudnn.so.8 # old one\n\t/lib/none.so:libm.so.6\n");
        Host host = TestHosts.linux(fs, Map.of("LD_PRELOAD", " /opt/old/lib/libcudnn.so.9::libjemalloc.so.2 "), new FakeRunner());
        List<Preload.Entry> e = Preload.entries(host);
        assertEquals(List.of("/opt/old/lib/libcudnn.so.9", "libjemalloc.so.2", "/opt/old/lib/libcudnn.so.8", "/lib/none.so", "libm.so.6"),
                e.stream().map(Preload.Entry::raw).toList());
        assertEquals("LD_PRELOAD", e.get(0).source());
        assertEquals("/etc/ld.so.preload line 2", e.get(2).source());
        assertEquals("libcudnn.so.9", e.get(0).soname(), "read from the ELF's DT_SONAME");
        assertNull(e.get(3).file(), "a file the loader does not find");
    }

    @Test
    void aPreloadedCopyOfTheVerifiedMajorIsAnErrorAndWinsForEveryProgram() throws Exception {
        FileSystem fs = fs();
        Host host = TestHosts.linux(fs, Map.of("LD_PRELOAD", "/opt/old/lib/libcudnn.so.9", "LD_LIBRARY_PATH", TARGET), new FakeRunner());
        List<Finding> f = Preload.findings(host, fs.getPath(TARGET, "libcudnn.so.9"), 9);
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertEquals("cudnn.preloaded", f.get(0).id());
        assertTrue(f.get(0).message().contains("/opt/old/lib/libcudnn.so.9 is preloaded through LD_PRELOAD")
                && f.get(0).message().contains("instead of the copy in " + TARGET), f.get(0).message());
        assertTrue(f.get(0).fix().contains("remove /opt/old/lib/libcudnn.so.9 from LD_PRELOAD"), f.get(0).fix());
        // the model: a program with its own DT_RPATH to the target still gets the preloaded one
        ProgramLoader.Program p = new ProgramLoader.Program(null, List.of(fs.getPath(TARGET)), List.of(), List.of(), null);
        LoaderPath.Hit hit = ProgramLoader.resolve(host, LdSoCache.empty(), p, "libcudnn.so.9").orElseThrow();
        assertEquals(fs.getPath("/opt/old/lib/libcudnn.so.9"), hit.file());
        assertEquals(LoaderPath.Mechanism.PRELOAD, hit.place().mechanism());
    }

    @Test
    void theVerifiedCopyItselfIsInfoAnotherMajorOrAMissingFileAWarning() throws Exception {
        FileSystem fs = fs();
        TestHosts.write(fs.getPath("/etc/ld.so.preload"), "/opt/old/lib/libcudnn.so.8\n/opt/gone/libcudnn.so.9\n");
        Host host = TestHosts.linux(fs, Map.of("LD_PRELOAD", TARGET + "/libcudnn.so.9"), new FakeRunner());
        List<Finding> f = Preload.findings(host, fs.getPath(TARGET, "libcudnn.so.9"), 9);
        assertEquals(List.of(Severity.INFO, Severity.WARN, Severity.WARN), f.stream().map(Finding::severity).toList(), f.toString());
        assertTrue(f.get(1).fix().contains("/etc/ld.so.preload line 1"), f.get(1).fix());
        assertTrue(f.get(2).message().contains("finds no such file"), f.get(2).message());
        assertEquals(List.of(), Preload.findings(TestHosts.linux(fs(), Map.of(), new FakeRunner()), null, 0), "nothing preloaded");
    }

    /** Hostile input: huge, binary, separator-only; bounded, never an exception, every entry printable. */
    @TestFactory
    Stream<DynamicTest> hostilePreloadInputIsBounded() {
        Random r = new Random(19_10);
        return Stream.iterate(0, i -> i + 1).limit(40).map(i -> DynamicTest.dynamicTest("case " + i, () -> {
            FileSystem fs = fs();
            byte[] junk = new byte[r.nextInt(3) == 0 ? (2 << 20) : r.nextInt(4096)];
            for (int k = 0; k < junk.length; k++) {
                junk[k] = (byte) (r.nextInt(5) == 0 ? ':' : r.nextInt(4) == 0 ? '\n' : r.nextInt(256));
            }
            Files.createDirectories(fs.getPath("/etc"));
            Files.write(fs.getPath("/etc/ld.so.preload"), junk);
            String env = ":".repeat(r.nextInt(100)) + "libcudnn.so.9 ".repeat(r.nextInt(1000));
            Host host = TestHosts.linux(fs, Map.of("LD_PRELOAD", env), new FakeRunner());
            List<Preload.Entry> e = Preload.entries(host);
            assertTrue(e.size() <= Preload.MAX_ENTRIES, "bounded: " + e.size());
            for (Preload.Entry x : e) {
                assertTrue(x.raw().chars().noneMatch(ch -> ch < 0x20), "printable: " + x.raw());
            }
            Preload.findings(host, fs.getPath(TARGET, "libcudnn.so.9"), 9);
        }));
    }
}
