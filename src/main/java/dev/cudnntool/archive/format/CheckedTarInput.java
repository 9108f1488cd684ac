package dev.cudnntool.archive.format;

import java.io.IOException;
import java.io.InputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarUtils;

/**
 * A tar reader that refuses a header whose checksum is wrong, as {@code tar -t} does (commons-compress
 * reads such a header as if it were fine). Every header record is checked, including those of long
 * names and pax headers; the extension records of an old GNU sparse header carry no checksum and are
 * recognised by the "is extended" flag of the record before them. Zero records (the end marker) have
 * no checksum either.
 */
final class CheckedTarInput extends TarArchiveInputStream {
    /** Offset of the "is extended" flag in an old GNU sparse header, and in each extension record. */
    private static final int GNU_SPARSE_EXTENDED = 482;
    private static final int SPARSE_RECORD_EXTENDED = 504;
    private static final int TYPE_FLAG = 156;

    private boolean extensionNext;

    CheckedTarInput(InputStream in, int blockSize) {
        super(in, blockSize);
    }

    @Override
    protected byte[] readRecord() throws IOException {
        byte[] record = super.readRecord();
        if (record == null || isEOFRecord(record)) {
            return record;
        }
        if (extensionNext) {
            extensionNext = record[SPARSE_RECORD_EXTENDED] != 0;
            return record;
        }
        if (!checksumMatches(record)) {
            throw new IOException("the tar header at byte " + (getBytesRead() - record.length)
                    + " has a wrong checksum (tar -t refuses it too)");
        }
        extensionNext = record[TYPE_FLAG] == 'S' && record[GNU_SPARSE_EXTENDED] != 0;
        return record;
    }

    /** A checksum field that is not even octal digits is a wrong checksum, not a program error. */
    static boolean checksumMatches(byte[] record) {
        try {
            return TarUtils.verifyCheckSum(record);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
