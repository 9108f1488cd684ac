package dev.cudnntool.host.loader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 18 C (11, 13): ELF, PE, ld.so.cache and ld.so.conf files written by an attacker. Offsets
 * and sizes that wrap in 64 bits are damage, not a healthy file; a crafted cache or a loop of
 * includes ends in bounded work; a bad include line is a warning naming its file and line. The
 * timeouts are hang guards (each case takes milliseconds when fixed), not speed tests.
 */
class HostileLoaderFilesTest {
    static final Duration HANG = Duration.ofSeconds(60);

    final FileSystem fs = TestHosts.unixFs();
    final Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());

    @AfterEach
    void close() throws IOException {
        fs.close();
    }

    static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    Path write(String name, byte[] bytes) throws IOException {
        Path p = fs.getPath("/lib", name);
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
        return p;
    }

    @Test
    void aHealthyImageHasNoDamage() throws Exception {
        assertEquals(Optional.empty(), ElfFile.damage(write("ok.so", ElfImages.cudnn("libcudnn.so.9"))));
    }

    /** Offsets and sizes whose sum wraps past 2^63 into a negative number, which "fits" any file. */
    @Test
    void elfOffsetsAndSizesThatWrapAreDamage() throws Exception {
        byte[] good = ElfImages.cudnn("libcudnn.so.9");
        byte[] phoff = good.clone();
        le(phoff).putLong(32, Long.MAX_VALUE - 20);
        byte[] segment = good.clone();
        le(segment).putLong(64 + 8, 0x40).putLong(64 + 32, Long.MAX_VALUE);
        byte[] segmentNegative = good.clone();
        le(segmentNegative).putLong(64 + 8, 0x40).putLong(64 + 32, -0x40L);
        byte[] shoff = good.clone();
        le(shoff).putLong(40, Long.MAX_VALUE - 100);
        byte[] shoffNegative = good.clone();
        le(shoffNegative).putLong(40, -64L);
        int i = 0;
        for (byte[] bad : List.of(phoff, segment, segmentNegative, shoff, shoffNegative)) {
            Path f = write("bad" + i++ + ".so", bad);
            assertTrue(ElfFile.damage(f).isPresent(), f + " passed the damaged-file check");
        }
    }

    /** A section whose offset plus size wraps is not read as a table. */
    @Test
    void elfSectionsThatWrapAreRefusedByTheReader() throws Exception {
        byte[] b = ElfImages.cudnn("libcudnn.so.9");
        ByteBuffer f = le(b);
        long shoff = f.getLong(40);
        f.putLong((int) shoff + 128 + 24, Long.MAX_VALUE - 8).putLong((int) shoff + 128 + 32, 64);
        Path p = write("wrap.so", b);
        assertThrows(IOException.class, () -> ElfFile.read(p, true));
    }

    /** 20,000 symbols naming ever shorter tails of one 1 MB string: gigabytes of names before. */
    @Test
    void elfSymbolNamesAreBoundedInLengthAndNumber() throws Exception {
        char[] a = new char[1 << 20];
        Arrays.fill(a, 'a');
        int n = 20_000;
        List<String> names = new ArrayList<>();
        names.add(new String(a));
        for (int i = 1; i < n; i++) {
            names.add("x");
        }
        byte[] b = ElfImages.so("libx.so", List.of(), null, names);
        ByteBuffer f = le(b);
        long shoff = f.getLong(40);
        int dynsym = (int) f.getLong((int) shoff + 128 + 24);
        int longName = 1 + "libx.so".length() + 1;
        for (int i = 1; i <= n; i++) {
            f.putInt(dynsym + 24 * i, longName + i);
        }
        Path p = write("names.so", b);
        ElfFile.Info info = assertTimeoutPreemptively(HANG, () -> ElfFile.read(p, true));
        assertTrue(info.exports().stream().allMatch(s -> s.length() <= 4096), "no export name longer than 4096");
    }

    @Test
    void peSectionsAndNamesPastTheEndAreIoErrorsNotCrashes() throws Exception {
        byte[] dll = PeImages.dll(PeImages.X64, "9.5.1.17");
        Path ok = write("ok.dll", dll);
        assertTrue(PeFile.damage(ok).isEmpty());
        byte[] farHeader = dll.clone();
        le(farHeader).putInt(0x3C, -8); // 0xFFFFFFF8: far past any file
        Path far = write("far.dll", farHeader);
        assertTrue(PeFile.damage(far).isPresent());
        assertThrows(IOException.class, () -> PeFile.read(far));
        assertThrows(IOException.class, () -> PeFile.exports(far));

        // an export name whose address lies in the section's virtual size but past the end of the file
        byte[] names = dll.clone();
        ByteBuffer b = le(names);
        int opt = 0x80 + 24;
        int table = opt + 0xF0;
        b.putShort(opt, (short) 0x20b).putInt(opt + 112, 0x1100).putInt(opt + 116, 40);
        b.putInt(table + 8, 0x100000); // virtual size 1 MiB, raw size 0x200
        b.putInt(0x500 + 24, 1).putInt(0x500 + 32, 0x1180);
        b.putInt(0x580, 0x1000 + 0x10000);
        Path past = write("past.dll", names);
        assertThrows(IOException.class, () -> PeFile.exports(past));
    }

    /** 100,000 entries whose strings start one byte apart in 4 MB without a NUL: 2*10^11 byte reads before. */
    @Test
    void aCraftedCacheEndsInBoundedWork() throws Exception {
        int n = 100_000;
        int table = 48 + n * 24;
        byte[] data = new byte[table + (4 << 20)];
        ByteBuffer b = le(data);
        b.put(0, LdSoCache.NEW_MAGIC.getBytes(StandardCharsets.US_ASCII));
        b.putInt(20, n);
        for (int i = 0; i < n; i++) {
            b.putInt(48 + i * 24, LdSoCache.x8664Flags()).putInt(48 + i * 24 + 4, table + i).putInt(48 + i * 24 + 8, table + i + 1);
        }
        Arrays.fill(data, table, data.length, (byte) '/');
        Files.createDirectories(fs.getPath("/etc"));
        Files.write(fs.getPath("/etc/ld.so.cache"), data);
        LdSoCache cache = assertTimeoutPreemptively(HANG, () -> LdSoCache.of(host));
        assertTrue(cache.entries().isEmpty(), "no entry of a hostile cache is believed");
        data[data.length - 1] = 0; // now every string ends: ~4 MB names, 100,000 of them
        Files.write(fs.getPath("/etc/ld.so.cache"), data);
        LdSoCache terminated = assertTimeoutPreemptively(HANG, () -> LdSoCache.of(host));
        assertTrue(terminated.entries().isEmpty(), "names longer than any path are not believed");
    }

    @Test
    void aCacheWhoseOldFormatCountWrapsIsRefused() throws Exception {
        byte[] inner = LdSoCache.write(List.<String[]>of(new String[] {"libz.so.1", "/lib/libz.so.1"}), LdSoCache.x8664Flags());
        byte[] data = new byte[16 + inner.length];
        ByteBuffer b = le(data);
        b.put(0, LdSoCache.OLD_MAGIC.getBytes(StandardCharsets.US_ASCII));
        b.putInt(12, 0x15555556); // 16 + n * 12 wraps a 32-bit int to 16
        System.arraycopy(inner, 0, data, 16, inner.length);
        assertThrows(IOException.class, () -> LdSoCache.parse(host, data));
    }

    /** 30 files that each include all 30: 30^8 file reads before. */
    @Test
    void includeFanOutAndLoopsEndAndEveryFolderIsFoundOnce() throws Exception {
        TestHosts.write(fs.getPath("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\ninclude /etc/ld.so.conf\n");
        for (int i = 0; i < 30; i++) {
            TestHosts.write(fs.getPath("/etc/ld.so.conf.d/" + i + ".conf"), "include /etc/ld.so.conf.d/*.conf\n/opt/lib" + i + "\n");
        }
        List<LoaderPath.ConfLine> lines = assertTimeoutPreemptively(HANG, () -> LoaderPath.ldSoConfLines(host));
        for (int i = 0; i < 30; i++) {
            Path d = fs.getPath("/opt/lib" + i);
            assertEquals(1, lines.stream().filter(l -> l.dir().equals(d)).count(), d + " in " + lines.size() + " lines");
        }
    }

    @Test
    void aBadIncludePatternIsAWarningNamingFileAndLine() throws Exception {
        TestHosts.write(fs.getPath("/etc/ld.so.conf"), "# conf\ninclude /etc/ld.so.conf.d/[a.conf\n/opt/good\n");
        Files.createDirectories(fs.getPath("/etc/ld.so.conf.d"));
        List<LoaderPath.ConfLine> lines = LoaderPath.ldSoConfLines(host);
        assertEquals(List.of(fs.getPath("/opt/good")), lines.stream().map(LoaderPath.ConfLine::dir).toList());
        List<Finding> f = LoaderPath.confFindings(host);
        assertEquals(1, f.size(), f.toString());
        assertEquals("search-path.conf-skipped", f.get(0).id());
        assertEquals(Severity.WARN, f.get(0).severity());
        assertTrue(f.get(0).message().contains("/etc/ld.so.conf line 2"), f.get(0).message());
    }

    @Test
    void aConfFileOverTheCapIsSkippedWithAWarning() throws Exception {
        TestHosts.write(fs.getPath("/etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/big.conf"), "/opt/big\n" + "#".repeat(2 << 20) + "\n");
        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/small.conf"), "/opt/small\n");
        List<Path> dirs = LoaderPath.ldSoConf(host);
        assertEquals(List.of(fs.getPath("/opt/small")), dirs);
        List<Finding> f = LoaderPath.confFindings(host);
        assertTrue(f.stream().anyMatch(x -> x.message().contains("/etc/ld.so.conf.d/big.conf")), f.toString());
        assertFalse(f.stream().anyMatch(x -> x.message().contains("small.conf")), f.toString());
    }
}
