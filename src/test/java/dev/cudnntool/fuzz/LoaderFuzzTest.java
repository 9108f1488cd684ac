package dev.cudnntool.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.ElfFile;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.loader.PeFile;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The loader's files: ELF and PE images, /etc/ld.so.cache, /etc/ld.so.conf and its includes. */
class LoaderFuzzTest {
    @FuzzTest
    void elf(byte[] data) throws IOException {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path f = fs.getPath("/libcudnn.so.9");
            Files.write(f, data);
            Contract.holds(data.length, () -> ElfFile.damage(f));
            Contract.holds(data.length, () -> ElfFile.machine(f));
            Contract.holds(data.length, () -> ElfFile.read(f, true));
        }
    }

    @FuzzTest
    void pe(byte[] data) throws IOException {
        try (FileSystem fs = TestHosts.windowsFs()) {
            Path f = fs.getPath("C:\\cudnn64_9.dll");
            Files.write(f, data);
            Contract.holds(data.length, () -> PeFile.damage(f));
            Contract.holds(data.length, () -> PeFile.read(f));
            Contract.holds(data.length, () -> PeFile.exports(f));
        }
    }

    @FuzzTest
    void ldSoCache(byte[] data) throws IOException {
        try (FileSystem fs = TestHosts.unixFs()) {
            Files.createDirectories(fs.getPath("/etc"));
            Files.createDirectories(fs.getPath("/usr/local/cuda/lib64"));
            Files.write(fs.getPath("/etc/ld.so.cache"), data);
            Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/usr/local/cuda/lib64"), new FakeRunner());
            Contract.holds(data.length, () -> {
                LdSoCache cache = LdSoCache.of(host);
                LoaderPath.places(host, cache);
                LoaderPath.find(host, cache, "libcudnn.so.9", List.of(), List.of());
                for (LdSoCache.Entry e : cache.entries()) {
                    // what the cache yields is a library file by an absolute path, as the loader would open it
                    assertTrue(!e.name().isEmpty() && e.path().isAbsolute() && e.path().getParent() != null
                            && e.path().getFileName() != null, () -> "cache entry " + e);
                    cache.hasFolder(host, e.path().getParent());
                }
                return cache;
            });
        }
    }

    /** /etc/ld.so.conf, an included file and LD_LIBRARY_PATH, all from the input. */
    @FuzzTest
    void ldSoConf(FuzzedDataProvider data) throws IOException {
        String libraryPath = data.consumeString(256);
        String included = data.consumeString(2048);
        String conf = data.consumeRemainingAsString();
        try (FileSystem fs = TestHosts.unixFs()) {
            Files.createDirectories(fs.getPath("/etc/ld.so.conf.d"));
            Files.createDirectories(fs.getPath("/usr/local/cuda/lib64"));
            TestHosts.write(fs.getPath("/etc/ld.so.conf"), conf);
            TestHosts.write(fs.getPath("/etc/ld.so.conf.d/cuda.conf"), included);
            Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", libraryPath), new FakeRunner());
            Contract.holds(conf.length() + included.length(), () -> {
                LoaderPath.ldSoConf(host);
                for (LoaderPath.Place p : LoaderPath.places(host, LdSoCache.empty())) {
                    // only LD_LIBRARY_PATH may name a folder relative to the program's current folder
                    assertTrue(p.mechanism() == LoaderPath.Mechanism.LD_LIBRARY_PATH || p.dir().isAbsolute(), () -> "place " + p);
                }
                return LoaderPath.find(host, LdSoCache.empty(), "libcudnn.so.9", List.of(), List.of());
            });
        }
    }
}
