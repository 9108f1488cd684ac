package dev.cudnntool.archive.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.zip.ZipException;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;

/**
 * A zip that a reader going front to back (local headers, as {@code unzip} streams, {@code pip}'s
 * and the JDK's {@code ZipInputStream} do) reads as the central directory says, byte for byte. Each
 * local header names the entry the directory names, with its method, flags and (without a data
 * descriptor) its CRC and sizes; a data descriptor, where there is one, agrees too. And the file is
 * one archive and nothing else: the first entry starts at byte 0, each entry starts where the one
 * before it ends, the central directory right after the last, the end records right after it, and
 * the end record's comment reaches exactly to the end of the file and holds no zip record. So a
 * second archive prepended, appended or hidden in the comment, which one reader would take and
 * another not, is refused: two readers would install different bytes.
 */
final class ZipAgreement {
    private static final int LOC = 0x04034b50;
    private static final int DESCRIPTOR = 0x08074b50;
    private static final int END = 0x06054b50;
    private static final int END64 = 0x06064b50;
    private static final int END64_LOCATOR = 0x07064b50;
    private static final long MASK32 = 0xffffffffL;

    private ZipAgreement() {
    }

    /**
     * @param second  the entries as commons-compress read them, in the directory's order
     * @param offsets each entry's data offset, as {@link ZipDataOffsets} found it
     */
    static void check(FileChannel ch, long fileSize, List<ZipArchiveEntry> second, long[] offsets) throws IOException {
        Integer[] byPlace = new Integer[second.size()];
        for (int i = 0; i < byPlace.length; i++) {
            byPlace[i] = i;
        }
        Arrays.sort(byPlace, Comparator.comparingLong(i -> second.get(i).getLocalHeaderOffset()));
        long next = 0;
        for (int i : byPlace) {
            ZipArchiveEntry e = second.get(i);
            long at = e.getLocalHeaderOffset();
            if (at != next) {
                throw next == 0 ? new ZipException("it holds " + at + " byte(s) before its first entry (another archive or"
                        + " data put in front of it)") : new ZipDataOffsets.Damaged(e.getName(), "its local header lies "
                        + (at - next) + " byte(s) after the end of the entry before it (bytes no reader of the directory sees)");
            }
            next = agree(ch, fileSize, e, offsets[i]);
        }
        End end = end(ch, fileSize);
        if (end.entries != second.size()) {
            throw new ZipException("its end record counts " + end.entries + " entries, its central directory " + second.size());
        }
        if (end.cenOffset != next) {
            throw new ZipException("its central directory does not follow its last entry (" + Math.abs(end.cenOffset - next)
                    + " byte(s) apart: another archive or data inside it)");
        }
        if (end.cenOffset + end.cenSize != end.afterCen) {
            throw new ZipException("its end records do not follow its central directory (another archive or data inside it)");
        }
    }

    /** Checks the entry's local header (and data descriptor) against the directory; returns where the entry ends. */
    private static long agree(FileChannel ch, long fileSize, ZipArchiveEntry e, long dataOffset) throws IOException {
        long at = e.getLocalHeaderOffset();
        ByteBuffer h = read(ch, at, 30, fileSize);
        if (h.getInt(0) != LOC) {
            throw new ZipDataOffsets.Damaged(e.getName(), "invalid LOC header (bad signature)");
        }
        int flags = Short.toUnsignedInt(h.getShort(6));
        int method = Short.toUnsignedInt(h.getShort(8));
        long crc = Integer.toUnsignedLong(h.getInt(14));
        long csize = Integer.toUnsignedLong(h.getInt(18));
        long usize = Integer.toUnsignedLong(h.getInt(22));
        int nameLen = Short.toUnsignedInt(h.getShort(26));
        int extraLen = Short.toUnsignedInt(h.getShort(28));
        byte[] name = new byte[nameLen];
        read(ch, at + 30, nameLen, fileSize).get(name);
        if (!Arrays.equals(name, e.getRawName())) {
            throw disagree(e, "its local header names another file");
        }
        if (method != e.getMethod()) {
            throw disagree(e, "its local header gives another compression method");
        }
        boolean descriptor = (flags & 8) != 0;
        if (descriptor != e.getGeneralPurposeBit().usesDataDescriptor()) {
            throw disagree(e, "its local header and directory record disagree on a data descriptor");
        }
        if (dataOffset != at + 30 + nameLen + extraLen) {
            throw disagree(e, "its data does not start where its local header ends");
        }
        if (csize == MASK32 || usize == MASK32) { // the zip64 extra field holds the sizes
            long[] z = zip64Sizes(read(ch, at + 30 + nameLen, extraLen, fileSize), usize == MASK32, csize == MASK32);
            usize = usize == MASK32 ? z[0] : usize;
            csize = csize == MASK32 ? z[1] : csize;
        }
        long dataEnd = dataOffset + e.getCompressedSize();
        if (!descriptor) {
            if (crc != e.getCrc() || csize != e.getCompressedSize() || usize != e.getSize()) {
                throw disagree(e, "its local header gives another CRC or size");
            }
            return dataEnd;
        }
        if ((crc != 0 && crc != e.getCrc()) || (csize != 0 && csize != e.getCompressedSize()) || (usize != 0 && usize != e.getSize())) {
            throw disagree(e, "its local header gives another CRC or size");
        }
        return dataEnd + descriptorLength(ch, fileSize, e, dataEnd);
    }

    /** The length of the data descriptor at {@code at} that agrees with the directory: with or without its signature, 4- or 8-byte sizes. */
    private static long descriptorLength(FileChannel ch, long fileSize, ZipArchiveEntry e, long at) throws IOException {
        ByteBuffer d = read(ch, at, (int) Math.min(24, Math.max(0, fileSize - at)), fileSize);
        for (int sig : new int[] {4, 0}) {
            if (sig == 4 && (d.limit() < 4 || d.getInt(0) != DESCRIPTOR)) {
                continue;
            }
            for (int width : new int[] {4, 8}) {
                int len = sig + 4 + 2 * width;
                if (d.limit() < len || Integer.toUnsignedLong(d.getInt(sig)) != e.getCrc()) {
                    continue;
                }
                long c = width == 4 ? Integer.toUnsignedLong(d.getInt(sig + 4)) : d.getLong(sig + 4);
                long u = width == 4 ? Integer.toUnsignedLong(d.getInt(sig + 8)) : d.getLong(sig + 12);
                if (c == e.getCompressedSize() && u == e.getSize()) {
                    return len;
                }
            }
        }
        throw disagree(e, "its data descriptor gives another CRC or size than its directory record");
    }

    private static long[] zip64Sizes(ByteBuffer extra, boolean hasU, boolean hasC) throws ZipException {
        for (int p = 0; p + 4 <= extra.limit(); ) {
            int id = Short.toUnsignedInt(extra.getShort(p));
            int len = Short.toUnsignedInt(extra.getShort(p + 2));
            if (p + 4 + len > extra.limit()) {
                break;
            }
            if (id == 1) {
                long[] out = {-1, -1};
                int q = p + 4;
                if (hasU && q + 8 <= p + 4 + len) {
                    out[0] = extra.getLong(q);
                    q += 8;
                }
                if (hasC && q + 8 <= p + 4 + len) {
                    out[1] = extra.getLong(q);
                }
                return out;
            }
            p += 4 + len;
        }
        throw new ZipException("a local header's zip64 sizes are missing");
    }

    private record End(long entries, long cenOffset, long cenSize, long afterCen) {
    }

    /** The end record whose comment reaches exactly to the end of the file (and its zip64 records). */
    private static End end(FileChannel ch, long fileSize) throws IOException {
        int tail = (int) Math.min(fileSize, 22 + 0xffff);
        ByteBuffer t = read(ch, fileSize - tail, tail, fileSize);
        for (int p = tail - 22; p >= 0; p--) {
            if (t.getInt(p) != END || p + 22 + Short.toUnsignedInt(t.getShort(p + 20)) != tail) {
                continue;
            }
            for (int q = p + 22; q + 4 <= tail; q++) {
                if (t.get(q) == 'P' && t.get(q + 1) == 'K' && t.get(q + 2) >= 1 && t.get(q + 2) <= 8 && t.get(q + 3) >= 1
                        && t.get(q + 3) <= 8) {
                    throw new ZipException("its comment holds a zip record (another archive hidden in it)");
                }
            }
            long endAt = fileSize - tail + p;
            long entries = Short.toUnsignedInt(t.getShort(p + 10));
            long cenSize = Integer.toUnsignedLong(t.getInt(p + 12));
            long cenOffset = Integer.toUnsignedLong(t.getInt(p + 16));
            boolean masked = entries == 0xffff || cenSize == MASK32 || cenOffset == MASK32;
            ByteBuffer loc = endAt >= 20 ? read(ch, endAt - 20, 20, fileSize) : null;
            if (loc == null || loc.getInt(0) != END64_LOCATOR) { // no zip64 records (some writers add them when not needed)
                if (masked) {
                    throw new ZipException("its zip64 end locator is missing");
                }
                return new End(entries, cenOffset, cenSize, endAt);
            }
            long end64 = loc.getLong(8);
            ByteBuffer z = read(ch, end64, 56, fileSize);
            if (z.getInt(0) != END64 || end64 + 12 + z.getLong(4) != endAt - 20) {
                throw new ZipException("its zip64 end record does not lie right before its locator");
            }
            return new End(entries == 0xffff ? z.getLong(32) : entries, cenOffset == MASK32 ? z.getLong(48) : cenOffset,
                    cenSize == MASK32 ? z.getLong(40) : cenSize, end64);
        }
        throw new ZipException("its end record is not at the end of the file (bytes or another archive after it)");
    }

    private static ZipDataOffsets.Damaged disagree(ZipArchiveEntry e, String why) {
        return new ZipDataOffsets.Damaged(e.getName(), why + " (a reader of local headers would install other bytes)");
    }

    private static ByteBuffer read(FileChannel ch, long at, int len, long fileSize) throws IOException {
        if (at < 0 || len < 0 || at + len > fileSize) {
            throw new ZipException("a zip record lies outside the file");
        }
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                throw new ZipException("a zip record lies outside the file");
            }
        }
        return b.flip();
    }
}
