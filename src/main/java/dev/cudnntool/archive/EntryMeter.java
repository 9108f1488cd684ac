package dev.cudnntool.archive;

import dev.cudnntool.Hex;
import dev.cudnntool.archive.format.EntryCursor;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.zip.CRC32;

/**
 * Hashes (and, for zips, CRC-checks) and counts one entry's bytes as whoever reads them reads
 * them; a failure to read is marked as damage to the archive. Subclasses add their limits.
 */
abstract class EntryMeter extends FilterInputStream {
    final MessageDigest md = Hex.newSha256();
    final CRC32 crc;
    long count;

    EntryMeter(InputStream in, boolean withCrc) {
        super(in);
        this.crc = withCrc ? new CRC32() : null;
    }

    /** Called after every read that returned bytes; throws to stop the read. */
    abstract void counted(int n) throws IOException;

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = in.read(b, off, len);
        } catch (IOException e) {
            throw new ArchiveDamaged(e);
        }
        if (n > 0) {
            md.update(b, off, n);
            if (crc != null) {
                crc.update(b, off, n);
            }
            count += n;
            counted(n);
        }
        return n;
    }

    @Override
    public void close() {
        // the archive's stream stays open for the next entry
    }

    /** Marks an I/O failure of reading the archive, as opposed to one of the sink writing it out. */
    static final class ArchiveDamaged extends IOException {
        private static final long serialVersionUID = 1L;
        ArchiveDamaged(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
