package dev.cudnntool.archive.format;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveHardeningTest;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.ArchiveItem;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.archive.catalogue.CatalogueTest;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.testing.ArchiveFixture;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.apache.commons.compress.archivers.zip.Zip64Mode;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The zip reader's own entry input ({@link ZipEntryInput}), the second reader that finds where
 * each entry's bytes begin ({@link ZipDataOffsets}) and the early digest ({@link ArchiveDigest}):
 * the same bytes as {@link ZipFile} gives, and every way the bytes on disk can be wrong.
 */
class ZipReadingTest {
    @TempDir
    Path dir;

    /** Stored and deflated entries; sizes around the 1 MiB piece the reader reads, an empty one. */
    private Path mixedZip() throws IOException {
        return mixedZip(3 * (1 << 20) + 17, 120_000);
    }

    /** The same entries with smaller noise and text: what a one-byte-at-a-time read can cover in a second. */
    private Path mixedZip(int noiseBytes, int textLines) throws IOException {
        Random r = new Random(42);
        byte[] noise = new byte[noiseBytes];
        r.nextBytes(noise);
        byte[] text = "cudnnStatus_t cudnnCreate(cudnnHandle_t *handle);\n".repeat(textLines).getBytes();
        Path zip = dir.resolve("mixed.zip");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
            put(out, "deflated-noise", noise, ZipEntry.DEFLATED);
            put(out, "deflated-text", text, ZipEntry.DEFLATED);
            put(out, "stored-noise", noise, ZipEntry.STORED);
            put(out, "stored-empty", new byte[0], ZipEntry.STORED);
            put(out, "deflated-empty", new byte[0], ZipEntry.DEFLATED);
            put(out, "deflated-one", new byte[] {7}, ZipEntry.DEFLATED);
        }
        return zip;
    }

    private static void put(ZipOutputStream out, String name, byte[] bytes, int method) throws IOException {
        ZipEntry e = withMethod(new ZipEntry(name), bytes, method);
        out.putNextEntry(e);
        out.write(bytes);
        out.closeEntry();
    }

    /** The method set; a stored entry also gets the CRC and sizes a zip writer needs in advance. */
    private static <E extends ZipEntry> E withMethod(E e, byte[] bytes, int method) {
        e.setMethod(method);
        if (method == ZipEntry.STORED) {
            CRC32 crc = new CRC32();
            crc.update(bytes);
            e.setCrc(crc.getValue());
            e.setSize(bytes.length);
            e.setCompressedSize(bytes.length);
        }
        return e;
    }

    private static List<ZipEntry> directory(Path zip) throws IOException {
        try (ZipFile z = new ZipFile(zip.toFile())) {
            return new ArrayList<>(Collections.list(z.entries()));
        }
    }

    private static byte[] readAll(InputStream in, int piece) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[piece];
        int n;
        while ((n = in.read(buf)) >= 0) {
            assertTrue(n > 0, "a read of a non-empty buffer returns bytes or the end, never 0");
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    @Test
    void everyEntryReadsAsZipFileReadsItWhateverTheReadersPieceSize() throws Exception {
        // Entries of 700 KB and 1.3 MB: each still crosses the reader's 64 KiB buffer a dozen times and
        // more in every piece size (the 3 MB ones took 9 s a run in one-byte reads).
        Path zip = mixedZip(700_000 + 17, 26_000);
        List<ZipEntry> entries = directory(zip);
        long[] offsets = ZipDataOffsets.of(zip, entries, Files.size(zip));
        try (ZipFile z = new ZipFile(zip.toFile())) {
            for (int i = 0; i < entries.size(); i++) {
                ZipEntry e = entries.get(i);
                byte[] expected = z.getInputStream(e).readAllBytes();
                for (int piece : new int[] {1, 7, 4096, 1 << 20, 5 << 20}) {
                    try (InputStream in = new ZipEntryInput(zip, offsets[i], e.getCompressedSize(), e.getMethod(),
                            ByteBuffer.allocateDirect(64 << 10))) {
                        assertArrayEquals(expected, readAll(in, piece), e.getName() + " read in pieces of " + piece);
                    }
                }
            }
        }
    }

    @Test
    void aFullBufferIsFilledBeforeAReadReturns() throws Exception {
        Path zip = mixedZip();
        List<ZipEntry> entries = directory(zip);
        long[] offsets = ZipDataOffsets.of(zip, entries, Files.size(zip));
        ZipEntry text = entries.get(1);
        try (InputStream in = new ZipEntryInput(zip, offsets[1], text.getCompressedSize(), text.getMethod(),
                ByteBuffer.allocateDirect(4096))) {
            assertEquals(1 << 20, in.read(new byte[1 << 20]), "1 MiB asked, 1 MiB given, although the input comes in 4 KiB");
        }
    }

    @Test
    void aCutOrDamagedDeflateStreamIsAnErrorNeverShortContent() throws Exception {
        Path zip = mixedZip();
        List<ZipEntry> entries = directory(zip);
        long[] offsets = ZipDataOffsets.of(zip, entries, Files.size(zip));
        ZipEntry text = entries.get(1);
        try (InputStream in = new ZipEntryInput(zip, offsets[1], text.getCompressedSize() / 2, text.getMethod(),
                ByteBuffer.allocateDirect(4096))) {
            assertThrows(EOFException.class, () -> readAll(in, 1 << 16), "half the compressed bytes");
        }
        byte[] bytes = Files.readAllBytes(zip);
        for (int i = 0; i < 64; i++) {
            bytes[(int) offsets[1] + 2 + i] ^= (byte) 0xA5;
        }
        Path damaged = Files.write(dir.resolve("damaged.zip"), bytes);
        try (InputStream in = new ZipEntryInput(damaged, offsets[1], text.getCompressedSize(), text.getMethod(),
                ByteBuffer.allocateDirect(4096))) {
            assertThrows(ZipException.class, () -> readAll(in, 1 << 16), "garbage in the deflate stream");
        }
        assertThrows(ZipException.class, () -> new ZipEntryInput(zip, offsets[1], 10, 12, ByteBuffer.allocateDirect(16)),
                "bzip2 (method 12) is not read");
    }

    @Test
    void theTwoReadersMustAgreeOnEveryEntry() throws Exception {
        Path zip = mixedZip();
        List<ZipEntry> entries = directory(zip);
        ZipEntry other = new ZipEntry(entries.get(2));
        other.setCrc(entries.get(2).getCrc() ^ 1);
        entries.set(2, other);
        ZipException e = assertThrows(ZipException.class, () -> ZipDataOffsets.of(zip, entries, Files.size(zip)));
        assertTrue(e.getMessage().contains("disagree on entry 3"), e.getMessage());
        List<ZipEntry> fewer = directory(zip).subList(0, 2);
        assertTrue(assertThrows(ZipException.class, () -> ZipDataOffsets.of(zip, fewer, Files.size(zip)))
                .getMessage().contains("count"));
    }

    // ---- the same, through the inspector: one line, exit 3 ----------------------------------

    private Path fixtureZip() {
        return ArchiveFixture.windows("8.9.5.30", "12").writeTo(dir);
    }

    /** The archive is refused as damaged or unsafe: exit 3, one line. */
    static ToolException refused(Path zip) {
        return refused(zip, XzDecoders.Choice.AUTO);
    }

    static ToolException refused(Path zip, XzDecoders.Choice xz) {
        ToolException e = assertThrows(ToolException.class, () -> new ArchiveInspector(InspectionLimits.DEFAULT, xz).inspect(zip,
                ArchiveName.parse(zip.getFileName().toString()), null));
        assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode(), e.getMessage());
        ArchiveHardeningTest.assertOneLine(e.getMessage());
        return e;
    }

    /** The central directory record of {@code name}'s entry. */
    private static int cen(byte[] zip, String name) {
        byte[] n = name.getBytes();
        for (int i = zip.length - 46; i >= 0; i--) {
            ByteBuffer b = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
            if (b.getInt(i) == 0x02014b50 && (b.getShort(i + 28) & 0xffff) == n.length
                    && Arrays.equals(zip, i + 46, i + 46 + n.length, n, 0, n.length)) {
                return i;
            }
        }
        throw new AssertionError("no central directory record for " + name);
    }

    private static int loc(byte[] zip, String name) {
        return ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN).getInt(cen(zip, name) + 42);
    }

    private static final String DLL = "cudnn-windows-x86_64-8.9.5.30_cuda12-archive/bin/cudnn_cnn_infer64_8.dll";

    @Test
    void aLocalHeaderWithoutItsSignatureIsDamage() throws Exception {
        Path zip = fixtureZip();
        byte[] b = Files.readAllBytes(zip);
        b[loc(b, DLL)] = 'X';
        Files.write(zip, b);
        String m = refused(zip).getMessage();
        assertTrue(m.contains("bad signature") && m.contains("damaged at entry '" + DLL + "'"), m);
    }

    @Test
    void anEntryWhoseBytesWouldLieBeyondTheFileIsDamage() throws Exception {
        Path zip = fixtureZip();
        byte[] b = Files.readAllBytes(zip);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(loc(b, DLL) + 28, (short) 0xffff); // extra length
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(loc(b, DLL) + 26, (short) 0xffff); // name length
        Files.write(zip, b);
        String m = refused(zip).getMessage();
        assertTrue(m.contains("damaged at entry '" + DLL + "'"), "the entry's bytes would start past the end: " + m);
    }

    @Test
    void anEncryptedEntryIsRefused() throws Exception {
        Path zip = fixtureZip();
        byte[] b = Files.readAllBytes(zip);
        b[cen(b, DLL) + 8] |= 1; // general purpose bit 0: encrypted
        Files.write(zip, b);
        String m = refused(zip).getMessage();
        assertTrue(m.contains("encrypted"), m);
    }

    @Test
    void aFlippedByteInsideALibrarysDataIsDamageNamingTheEntry() throws Exception {
        Path zip = fixtureZip();
        byte[] b = Files.readAllBytes(zip);
        int at = loc(b, DLL) + 30 + DLL.length() + 40;
        b[at] ^= 0x5a;
        b[at + 1] ^= 0x5a;
        Files.write(zip, b);
        String m = refused(zip).getMessage();
        assertTrue(m.contains("cudnn_cnn_infer64_8.dll"), m);
    }

    /**
     * Some zip writers put zip64 fields on every entry, needed or not: both readers must read them
     * alike, or a good archive would be refused as damaged. Written with zip64 on every entry,
     * local headers and central directory, with and without data descriptors (stored and deflated).
     */
    @Test
    void aZipWithZip64FieldsOnEveryEntryReadsAsZipFileReadsIt() throws Exception {
        Path plain = fixtureZip();
        for (boolean stored : new boolean[] {false, true}) {
            Path zip64 = dir.resolve(stored ? "stored" : "deflated").resolve(plain.getFileName());
            Files.createDirectories(zip64.getParent());
            try (ZipFile in = new ZipFile(plain.toFile());
                 var out = new ZipArchiveOutputStream(zip64.toFile())) {
                out.setUseZip64(Zip64Mode.Always);
                for (ZipEntry e : Collections.list(in.entries())) {
                    byte[] bytes = in.getInputStream(e).readAllBytes();
                    out.putArchiveEntry(withMethod(new ZipArchiveEntry(e.getName()),
                            bytes, stored ? ZipEntry.STORED : ZipEntry.DEFLATED));
                    out.write(bytes);
                    out.closeArchiveEntry();
                }
            }
            ArchiveReport r = new ArchiveInspector().inspect(zip64, ArchiveName.parse(zip64.getFileName().toString()), null);
            assertTrue(r.acceptable(), r.findings().toString());
            int compared = 0;
            try (ZipFile z = new ZipFile(zip64.toFile())) {
                for (ArchiveItem item : r.entries()) {
                    ZipEntry e = z.getEntry(item.path());
                    if (e != null && !e.isDirectory()) {
                        assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                                .digest(z.getInputStream(e).readAllBytes())), item.sha256(), item.path());
                        compared++;
                    }
                }
            }
            assertEquals(ArchiveFixture.windows("8.9.5.30", "12").fileCount(), compared, "every file's bytes compared");
        }
    }

    // ---- the early digest ------------------------------------------------------------------

    @Test
    void anEarlyDigestGivesTheFilesChecksumAndOneOfAnotherFileIsIgnored() throws Exception {
        Path zip = fixtureZip();
        String sha = CatalogueTest.sha256(zip);
        ArchiveName name = ArchiveName.parse(zip.getFileName().toString());
        try (ArchiveDigest early = ArchiveDigest.start(zip)) {
            assertEquals(sha, new ArchiveInspector().withDigest(early).inspect(zip, name, null).archive().sha256());
        }
        Path other = Files.write(dir.resolve("other.bin"), new byte[] {1, 2, 3});
        try (ArchiveDigest wrong = ArchiveDigest.start(other)) {
            assertEquals(sha, new ArchiveInspector().withDigest(wrong).inspect(zip, name, null).archive().sha256(),
                    "a digest of another file is never taken for this one's");
        }
    }

    @Test
    void aFileReplacedAfterItWasHashedIsRefused() throws Exception {
        Path zip = fixtureZip();
        ArchiveName name = ArchiveName.parse(zip.getFileName().toString());
        Path replacement = ArchiveFixture.windows("8.9.5.30", "12").replace("include/cudnn.h", "/* another */\n")
                .writeAs(dir.resolve("sub").resolve(zip.getFileName()));
        try (ArchiveDigest early = ArchiveDigest.start(zip)) {
            String hashed = early.await();
            Files.move(replacement, zip, StandardCopyOption.REPLACE_EXISTING); // another inode, same name
            Files.setLastModifiedTime(zip, FileTime.fromMillis(1_000_000));
            ToolException e = assertThrows(ToolException.class,
                    () -> new ArchiveInspector().withDigest(early).inspect(zip, name, null));
            assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
            assertTrue(e.getMessage().contains("changed while it was being read"), e.getMessage());
            assertFalse(hashed.equals(CatalogueTest.sha256(zip)), "the bytes hashed are not the bytes now there");
        }
    }

    @Test
    void theDigestIsTheSha256OfTheWholeFile() throws Exception {
        byte[] big = new byte[(3 << 20) + 5];
        new Random(1).nextBytes(big);
        Path f = Files.write(dir.resolve("big.bin"), big);
        try (ArchiveDigest d = ArchiveDigest.start(f)) {
            assertEquals(CatalogueTest.sha256(f), d.await());
            assertTrue(d.unchanged());
        }
    }
}
