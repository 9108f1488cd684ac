package dev.cudnntool.archive.format;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.catalogue.CatalogueTest;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.testing.ArchiveFixture;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Collections;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipFile;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Red-team cases for the zip reader of today's commits ({@link ParallelZip}, {@link ZipEntryInput},
 * {@link ZipDataOffsets}, {@link ArchiveDigest}): each one an input the reader once handled worse
 * than it must.
 */
class RedTeamZipTest {
    @TempDir
    Path dir;

    /**
     * The archive named through a symbolic link (a download folder that links elsewhere): the
     * file hashed and read is the link's target, so the identity kept must be the target's too,
     * not the link's, which does not change when the target is replaced.
     */
    @Test
    void aFileReplacedBehindASymbolicLinkWhileItIsReadIsRefused() throws Exception {
        Path real = ArchiveFixture.windows("8.9.5.30", "12").writeTo(Files.createDirectories(dir.resolve("real")));
        Path link = Files.createSymbolicLink(Files.createDirectories(dir.resolve("downloads")).resolve(real.getFileName()), real);
        ArchiveName name = ArchiveName.parse(link.getFileName().toString());
        Path replacement = ArchiveFixture.windows("8.9.5.30", "12").replace("include/cudnn.h", "/* another */\n")
                .writeAs(dir.resolve("sub").resolve(real.getFileName()));
        try (ArchiveDigest early = ArchiveDigest.start(link)) {
            String hashed = early.await();
            Files.move(replacement, real, StandardCopyOption.REPLACE_EXISTING); // the target replaced, the link kept
            Files.setLastModifiedTime(real, FileTime.fromMillis(1_000_000));
            ToolException e = assertThrows(ToolException.class,
                    () -> new ArchiveInspector().withDigest(early).inspect(link, name, null),
                    "bytes hashed before the replacement must not be reported as the installed archive's checksum");
            assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
            assertTrue(e.getMessage().contains("changed while it was being read"), e.getMessage());
            assertFalse(hashed.equals(CatalogueTest.sha256(real)));
        }
    }

    private static ToolException refused(Path zip) {
        return ZipReadingTest.refused(zip);
    }

    /** The central directory record of the entry whose name ends with {@code suffix}. */
    private static int cen(byte[] zip, String suffix) {
        ByteBuffer b = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = zip.length - 46; i >= 0; i--) {
            if (b.getInt(i) == 0x02014b50 && new String(zip, i + 46, b.getShort(i + 28) & 0xffff).endsWith(suffix)) {
                return i;
            }
        }
        throw new AssertionError("no central directory record for " + suffix);
    }

    /**
     * Damage the second zip reader finds in the directory as a whole (here a local header offset far
     * beyond the file, which commons-compress refuses while opening) belongs to no entry the first
     * walk happened to see last: the message must not blame an intact library.
     */
    @Test
    void damageFoundBeforeAnyEntryIsReadBlamesNoInnocentEntry() throws Exception {
        Path zip = ArchiveFixture.windows("8.9.5.30", "12").writeTo(dir);
        byte[] b = Files.readAllBytes(zip);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(cen(b, "bin/cudnn64_8.dll") + 42, -1);
        Files.write(zip, b);
        String m = refused(zip).getMessage();
        assertTrue(m.contains("is damaged"), m);
        assertTrue(!m.contains(" at entry '") || m.contains("at entry 'cudnn-windows-x86_64-8.9.5.30_cuda12-archive/bin/cudnn64_8.dll'"),
                "names the broken entry or none: " + m);
    }

    /**
     * Rewritten in place (same inode, same size) after it was hashed, its modification time set
     * back as any owner of the file may: the bytes read are not the bytes hashed. The change time
     * (which nobody but the kernel sets) tells.
     */
    @Test
    void aFileRewrittenInPlaceWithItsModificationTimeSetBackIsRefused() throws Exception {
        Path zip = ArchiveFixture.windows("8.9.5.30", "12").writeTo(dir);
        ArchiveName name = ArchiveName.parse(zip.getFileName().toString());
        FileTime mtime = Files.getLastModifiedTime(zip);
        byte[] b = Files.readAllBytes(zip);
        int cen = cen(b, "include/cudnn.h");
        try (ArchiveDigest early = ArchiveDigest.start(zip)) {
            String hashed = early.await();
            Thread.sleep(20); // a change time later than the first
            try (FileChannel ch = FileChannel.open(zip, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {(byte) ~b[cen + 12]}), cen + 12); // the entry's time: still a good zip
            }
            Files.setLastModifiedTime(zip, mtime);
            ToolException e = assertThrows(ToolException.class,
                    () -> new ArchiveInspector().withDigest(early).inspect(zip, name, null),
                    "other bytes than those hashed must not be reported under the hash");
            assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
            assertTrue(e.getMessage().contains("changed while it was being read"), e.getMessage());
            assertFalse(hashed.equals(CatalogueTest.sha256(zip)));
        }
    }

    /**
     * Central directory records that share one entry's bytes (the "overlapping files" zip bomb):
     * each record's ratio is honest, yet the file expands once per record. {@code ZipFile} reads
     * such a zip, and so did the reader once it read by the directory instead of front to back; no
     * zip tool writes one, so it is refused before anything is inflated.
     */
    @Test
    void entriesThatShareTheSameBytesAreRefused() throws Exception {
        Path zip = ArchiveFixture.windows("8.9.5.30", "12").writeTo(dir);
        byte[] b = Files.readAllBytes(zip);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int eocd = b.length - 22;
        assertEquals(0x06054b50, bb.getInt(eocd));
        int cen = cen(b, "bin/cudnn64_8.dll");
        int len = 46 + (bb.getShort(cen + 28) & 0xffff) + (bb.getShort(cen + 30) & 0xffff) + (bb.getShort(cen + 32) & 0xffff);
        byte[] copy = Arrays.copyOfRange(b, cen, cen + len);
        copy[46 + (bb.getShort(cen + 28) & 0xffff) - 5] = 'X'; // ...cudnn64_X.dll, the same local header and bytes
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(b, 0, eocd);
        out.write(copy);
        byte[] end = Arrays.copyOfRange(b, eocd, b.length);
        ByteBuffer eb = ByteBuffer.wrap(end).order(ByteOrder.LITTLE_ENDIAN);
        eb.putShort(8, (short) (eb.getShort(8) + 1));
        eb.putShort(10, (short) (eb.getShort(10) + 1));
        eb.putInt(12, eb.getInt(12) + len);
        out.write(end);
        Files.write(zip, out.toByteArray());
        try (ZipFile z = new ZipFile(zip.toFile())) {
            assertEquals(1, Collections.list(z.entries()).stream().filter(e -> e.getName().endsWith("bin/cudnn64_X.dll")).count(),
                    "java.util.zip reads the second record");
        }
        String m = refused(zip).getMessage();
        assertTrue(m.contains("is damaged") && m.contains("overlap"), m);
    }

    // ---- a multi-block .xz whose index lies -------------------------------------------------

    private static long[] varint(byte[] b, int at) {
        long v = 0;
        for (int i = 0; ; i++) {
            int x = b[at + i] & 0xff;
            v |= (long) (x & 0x7f) << (7 * i);
            if ((x & 0x80) == 0) {
                return new long[] {v, i + 1};
            }
        }
    }

    private static void putVarint(byte[] b, int at, long v, int len) {
        for (int i = 0; i < len; i++, v >>>= 7) {
            b[at + i] = (byte) ((v & 0x7f) | (i < len - 1 ? 0x80 : 0));
        }
        assertEquals(0, v, "the forged size keeps its length");
    }

    /**
     * An index that moves most of block 1's compressed bytes onto block 0, which holds an entry of
     * zeros (totals unchanged, its CRC recomputed): the block map believes it while the entry is
     * read, so the entry passes the per-entry ratio check (which the same archive with its true
     * index fails). What still holds, and is asserted here under both decoders: the decoder checks
     * the index against the blocks at the stream's end, so the archive is refused as damaged and
     * nothing is installed; what a lying index can make the reader expand stays within the ratio
     * times the file's size (the map never attributes more than the file holds).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"auto", "java"})
    void aMultiBlockXzWhoseIndexLiesIsRefusedAsDamagedInTheEnd(String decoder) throws Exception {
        String top = "cudnn-linux-x86_64-8.9.5.30_cuda12-archive";
        Random r = new Random(3);
        byte[] small = new byte[20_000];
        byte[] noise = new byte[1_500_000];
        r.nextBytes(small);
        r.nextBytes(noise);
        ByteArrayOutputStream bo = new ByteArrayOutputStream();
        XZOutputStream xz = new XZOutputStream(bo, new LZMA2Options(1));
        var tar = new TarArchiveOutputStream(xz);
        for (Object[] e : new Object[][] {{"small.bin", small}, {"zeros.bin", new byte[64 << 20]}, {"noise.bin", noise}}) {
            var entry = new TarArchiveEntry(top + "/" + e[0]);
            entry.setSize(((byte[]) e[1]).length);
            tar.putArchiveEntry(entry);
            tar.write((byte[]) e[1]);
            tar.closeArchiveEntry();
            if (e[0].equals("zeros.bin")) {
                tar.flush();
                xz.endBlock();
            }
        }
        tar.finish();
        xz.finish();
        byte[] f = bo.toByteArray();
        ByteBuffer fb = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
        long indexSize = ((fb.getInt(f.length - 12 + 4) & 0xffffffffL) + 1) * 4;
        int index = (int) (f.length - 12 - indexSize);
        long[] records = varint(f, index + 1);
        assertEquals(2, records[0]);
        int rec0 = index + 1 + (int) records[1];
        long[] unpadded0 = varint(f, rec0);
        int rec1 = rec0 + (int) unpadded0[1] + (int) varint(f, rec0 + (int) unpadded0[1])[1];
        long[] unpadded1 = varint(f, rec1);
        putVarint(f, rec0, unpadded0[0] + 1_400_000, (int) unpadded0[1]);
        putVarint(f, rec1, unpadded1[0] - 1_400_000, (int) unpadded1[1]);
        int crcAt = (int) (index + indexSize - 4);
        CRC32 crc = new CRC32();
        crc.update(f, index, crcAt - index);
        fb.putInt(crcAt, (int) crc.getValue());
        Path archive = Files.write(Files.createDirectories(dir.resolve(decoder)).resolve(top + ".tar.xz"), f);
        String m = ZipReadingTest.refused(archive, XzDecoders.Choice.parse(decoder)).getMessage();
        assertTrue(m.contains("is damaged") && m.contains("nothing was installed"), m);
    }
}
