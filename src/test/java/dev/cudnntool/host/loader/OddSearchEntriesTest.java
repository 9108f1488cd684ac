package dev.cudnntool.host.loader;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * #35: a loader-cache or search-path entry may be '/', empty, relative or missing. A cache entry whose
 * path was '/' made verify exit 70 (NullPointerException in the search-path model); every such entry
 * is now either a folder the model can name or no entry at all.
 */
class OddSearchEntriesTest {
    @ParameterizedTest
    @ValueSource(strings = {"/", "", "lib", "/..", "//", "/usr/lib/../..", "/missing/libcudnn.so.9", "./libcudnn.so.9"})
    void aCacheEntryOfAnyShapeIsNamedOrIgnoredNeverACrash(String value) throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.2"), "12.2.0");
        Files.createDirectories(fs.getPath("/etc"));
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.<String[]>of(
                new String[] {"libcudnn.so.9", value}, new String[] {"libcudnn.so", value},
                new String[] {"", "/usr/lib"}), LdSoCache.x8664Flags()));
        TestHosts.write(fs.getPath("/etc/ld.so.conf"), "/\n\n" + value + "\ninclude \ninclude /\n");
        for (String ldPath : new String[] {"/", "", ":", "::/:lib:", value, "/missing:" + value}) {
            Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", ldPath), new FakeRunner());
            LdSoCache cache = LdSoCache.of(host);
            assertTrue(cache.entries().stream().allMatch(e -> e.path().getParent() != null && e.path().getFileName() != null),
                    "every cache entry names a file in a folder: " + cache.entries());
            LibrarySearchCheck.Result r = LibrarySearchCheck.check(host, fs.getPath("/usr/local/cuda-12.2/lib64"), 9,
                    CudnnVersion.of(9, 5, 1));
            assertNotNull(r.findings());
            assertFalse(LoaderPath.places(host, cache).stream().anyMatch(p -> p.dir() == null), "no place without a folder");
            LoaderPath.find(host, cache, "libcudnn.so.9", List.of(fs.getPath("/")), List.of())
                    .ifPresent(h -> assertNotNull(h.place().dir(), "a hit names its folder"));
        }
    }
}
