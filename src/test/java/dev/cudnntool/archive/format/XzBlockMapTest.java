package dev.cudnntool.archive.format;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.testing.ArchiveFixture;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tukaani.xz.SeekableFileInputStream;
import org.tukaani.xz.SeekableXZInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * The expansion-ratio check on multi-block .xz files judges an entry by the compressed bytes the
 * file's index assigns to it, not by what a decoder happens to have taken in: an entry that begins
 * inside a block already consumed was, before, measured against nothing and refused as a bomb.
 */
class XzBlockMapTest {
    private static final String NAME = "cudnn-linux-x86_64-8.9.5.30_cuda12-archive";

    @TempDir
    Path dir;

    /** The decoder a test asks for; JUnit makes a new instance per test. */
    private XzDecoders.Choice xz = XzDecoders.Choice.AUTO;

    /** A real-looking archive plus extra files of random bytes (they expand about 1:1) at odd offsets. */
    private byte[] tar(byte[] extra, int copies) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ArchiveFixture f = ArchiveFixture.linux("8.9.5.30", "12");
        Path plain = f.writeTo(dir.resolve("plain"));
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out);
             var in = new TarArchiveInputStream(
                     new XZInputStream(Files.newInputStream(plain)))) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            TarArchiveEntry e;
            while ((e = in.getNextEntry()) != null) {
                tar.putArchiveEntry(e);
                in.transferTo(tar);
                tar.closeArchiveEntry();
            }
            for (int i = 0; i < copies; i++) {
                TarArchiveEntry x = new TarArchiveEntry(NAME + "/lib/libcudnn_extra" + i + "_static.a");
                x.setSize(extra.length);
                tar.putArchiveEntry(x);
                tar.write(extra);
                tar.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    private static byte[] random(int size) {
        byte[] b = new byte[size];
        new Random(7).nextBytes(b);
        return b;
    }

    private ArchiveReport inspect(Path file, InspectionLimits limits) {
        return new ArchiveInspector(limits, xz).inspect(file, ArchiveName.parse(file.getFileName().toString()), null);
    }

    @Test
    void theMapFollowsTheIndexAndASingleBlockFileHasNone() throws Exception {
        byte[] data = random(3 << 20);
        Path multi = ParallelXzTest.multiBlock(dir.resolve("m.xz"), data, 1 << 20, 1);
        XzBlockMap map = XzBlockMap.read(multi);
        assertNotNull(map);
        try (SeekableXZInputStream index = new SeekableXZInputStream(new SeekableFileInputStream(multi.toFile()))) {
            for (int i = 0; i < index.getBlockCount(); i++) {
                assertEquals(index.getBlockCompPos(i), map.compressedAt(index.getBlockPos(i)), "start of block " + i);
            }
            long end = index.getBlockCompPos(2) + index.getBlockCompSize(2);
            assertEquals(end, map.compressedAt(data.length));
            assertEquals(end, map.compressedAt(data.length + 12345L), "past the end: the whole file");
            long mid = map.compressedAt((1 << 20) + (1 << 19));
            assertTrue(mid > index.getBlockCompPos(1) && mid < index.getBlockCompPos(2), "half-way through block 1");
        }
        assertNull(XzBlockMap.read(ParallelXzTest.multiBlock(dir.resolve("s.xz"), data, data.length, 1)));
        assertNull(XzBlockMap.read(Files.write(dir.resolve("junk.xz"), random(1000))));
    }

    /** "java": ParallelXz (block-granular counting before); "auto": liblzma's threaded decoder where present. */
    @ParameterizedTest
    @ValueSource(strings = {"java", "auto"})
    void entriesThatBeginInsideABlockAreJudgedByTheirOwnBytes(String decoder) throws Exception {
        xz = XzDecoders.Choice.parse(decoder);
        byte[] tar = tar(random(3 << 20), 3);
        Path file = ParallelXzTest.multiBlock(dir.resolve(decoder).resolve(NAME + ".tar.xz"), tar, 1 << 20, 1);
        // Random bytes expand about 1:1: a limit of 2 must hold for every entry, wherever it starts.
        ArchiveReport r = inspect(file, new InspectionLimits(10_000, 16L << 30, 2, 256 << 10));
        assertEquals(3, r.entries().stream().filter(i -> i.path().contains("libcudnn_extra")).count());
    }

    @ParameterizedTest
    @ValueSource(strings = {"java", "auto"})
    void anEntryOfZerosIsStillABombOnTheBlockParallelPaths(String decoder) throws Exception {
        xz = XzDecoders.Choice.parse(decoder);
        byte[] tar = tar(new byte[40 << 20], 1); // past the 25.6 MiB that 200 times the read-ahead allowance comes to
        Path file = ParallelXzTest.multiBlock(dir.resolve(decoder).resolve(NAME + ".tar.xz"), tar, 1 << 20, 1);
        ToolException e = assertThrows(ToolException.class, () -> inspect(file, InspectionLimits.DEFAULT));
        assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
        assertTrue(e.getMessage().contains("archive bomb"), e.getMessage());
    }
}
