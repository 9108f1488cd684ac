package dev.cudnntool.archive.format;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/** Multi-block .xz files (as multi-threaded xz writes them) are decoded in parallel, in order, intact. */
class ParallelXzTest {
    @TempDir
    Path dir;

    /** Writes {@code data} as an .xz of blocks of {@code blockSize} bytes, like xz -T. */
    static Path multiBlock(Path file, byte[] data, int blockSize, int preset) throws Exception {
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file); XZOutputStream xz = new XZOutputStream(out, new LZMA2Options(preset))) {
            for (int off = 0; off < data.length; off += blockSize) {
                xz.write(data, off, Math.min(blockSize, data.length - off));
                xz.endBlock();
            }
        }
        return file;
    }

    static byte[] data(int size) {
        byte[] d = new byte[size];
        Random r = new Random(42);
        for (int i = 0; i < size; i += 64) {
            byte b = (byte) r.nextInt(16); // compressible, not trivially so
            for (int j = i; j < Math.min(size, i + 64); j++) {
                d[j] = (byte) (b + (j & 3));
            }
        }
        return d;
    }

    @Test
    void decodesEveryBlockInOrder() throws Exception {
        byte[] d = data(5 << 20);
        Path f = multiBlock(dir.resolve("a.xz"), d, 300_000, 1);
        try (ParallelXz px = ParallelXz.open(f)) {
            assertNotNull(px, "17 blocks: decoded in parallel");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            px.transferTo(out);
            assertArrayEquals(d, out.toByteArray());
            assertEquals(Files.size(f) > 0, px.compressedConsumed() > 0);
            assertEquals(64, px.fileSha256().length());
        }
    }

    @Test
    void aSingleBlockOrALargeDictionaryStaysSequential() throws Exception {
        byte[] d = data(1 << 20);
        assertNull(ParallelXz.open(multiBlock(dir.resolve("one.xz"), d, d.length, 1)));
        assertNull(ParallelXz.open(multiBlock(dir.resolve("big-dict.xz"), d, 200_000, 9)), "-9 has a 64 MiB dictionary");
    }

    @Test
    void aDamagedBlockIsReportedAsADamagedArchive() throws Exception {
        ArchiveFixture f = ArchiveFixture.linux("8.9.5.30", "12");
        Path tar = dir.resolve("plain.tar");
        // Build the fixture's tar, then compress it in many blocks and flip bytes in the middle.
        Path xz = f.writeTo(dir);
        byte[] tarBytes;
        try (InputStream in = new XZInputStream(Files.newInputStream(xz))) {
            tarBytes = in.readAllBytes();
        }
        Files.write(tar, tarBytes);
        Path multi = multiBlock(dir.resolve("m").resolve(xz.getFileName()), tarBytes, 4096, 1);
        ArchiveInspector java = new ArchiveInspector(InspectionLimits.DEFAULT, XzDecoders.Choice.JAVA); // this class, not liblzma's own threads
        ArchiveReport ok = java.inspect(multi, ArchiveName.parse(xz.getFileName().toString()), null);
        assertTrue(ok.acceptable(), ok.findings().toString());
        byte[] bytes = Files.readAllBytes(multi);
        for (int i = bytes.length / 2; i < bytes.length / 2 + 8; i++) {
            bytes[i] ^= 0x55;
        }
        Files.write(multi, bytes);
        ToolException e = assertThrows(ToolException.class,
                () -> java.inspect(multi, ArchiveName.parse(xz.getFileName().toString()), null));
        assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    }
}
