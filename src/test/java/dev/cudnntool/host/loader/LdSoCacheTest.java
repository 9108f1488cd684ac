package dev.cudnntool.host.loader;

import dev.cudnntool.host.Host;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LdSoCacheTest {
    @Test
    void readsTheNewFormatAndLooksUpByNameAndCpu() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
        TestHosts.write(fs.getPath("/etc/x"), "");
        Files.write(fs.getPath("/etc/ld.so.cache"), LdSoCache.write(List.of(
                new String[] {"libcudnn.so.9", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9"},
                new String[] {"libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1"}), LdSoCache.x8664Flags()));
        LdSoCache cache = LdSoCache.of(host);
        assertEquals(2, cache.entries().size());
        assertEquals(fs.getPath("/lib/x86_64-linux-gnu/libz.so.1"), cache.lookup("libz.so.1", Arch.X86_64).orElseThrow().path());
        assertTrue(cache.lookup("libz.so.1", Arch.AARCH64).isEmpty(), "an x86-64 entry is not an arm64 library");
        assertTrue(cache.lookup("libnvrtc.so.12", Arch.X86_64).isEmpty());
        assertTrue(cache.hasFolder(host, fs.getPath("/usr/lib/x86_64-linux-gnu")));
    }

    @Test
    void readsTheOldFormatWithTheNewOneAppended() throws Exception {
        byte[] modern = LdSoCache.write(List.<String[]>of(new String[] {"libz.so.1", "/usr/lib/libz.so.1"}), LdSoCache.x8664Flags());
        ByteBuffer old = ByteBuffer.allocate(16 + 12 + 4).order(ByteOrder.LITTLE_ENDIAN); // one entry, aligned to 8
        old.put("ld.so-1.7.0\0".getBytes(StandardCharsets.US_ASCII)).putInt(1);
        byte[] both = new byte[old.capacity() + modern.length];
        System.arraycopy(old.array(), 0, both, 0, old.capacity());
        System.arraycopy(modern, 0, both, old.capacity(), modern.length);
        // New-format string offsets count from the new header, as the writer made them.
        ByteBuffer b = ByteBuffer.wrap(both).order(ByteOrder.LITTLE_ENDIAN);
        FileSystem fs = TestHosts.unixFs();
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
        LdSoCache cache = LdSoCache.parse(host, b.array());
        assertEquals(fs.getPath("/usr/lib/libz.so.1"), cache.lookup("libz.so.1", Arch.X86_64).orElseThrow().path());
    }

    @Test
    void garbageAndAMissingFileAreAnEmptyCache() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
        assertTrue(LdSoCache.of(host).entries().isEmpty());
        TestHosts.write(fs.getPath("/etc/ld.so.cache"), "glibc-ld.so.cache1.1 but nothing else");
        assertTrue(LdSoCache.of(host).entries().isEmpty());
    }

    /** This machine's own cache, as ldconfig wrote it: libc is in it. */
    @Test
    void readsThisMachinesCache() {
        assumeTrue(Files.isRegularFile(Path.of("/etc/ld.so.cache")), "no /etc/ld.so.cache here");
        Host host = new Host(FileSystems.getDefault(), Map.of(), OsFamily.LINUX, Arch.fromJvm(System.getProperty("os.arch")), 64,
                new FakeRunner());
        LdSoCache cache = LdSoCache.of(host);
        assertFalse(cache.entries().isEmpty());
        Path libc = cache.lookup("libc.so.6", host.arch()).orElseThrow().path();
        assertTrue(Files.exists(libc), libc.toString());
    }
}
