package dev.cudnntool.archive.format;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * The decompressed bytes of a gzip file as {@code gzip -d} reads it: every member one after the
 * other (a tgz made with {@code cat a.gz b.gz}, or by a parallel gzip), then nothing but zero bytes
 * (padding a tape or a download tool added, which gzip ignores too). Any other byte after a member
 * is refused: data hidden behind the archive is not NVIDIA's. Each member is read by its own
 * decoder over one input that supports mark and reset, so each decoder hands back what it read
 * past its member's end; the input never sees a byte twice (see {@link EntryCursor}).
 */
final class GzipMembers extends InputStream {
    private final InputStream in;
    private GzipCompressorInputStream member;
    private boolean end;

    GzipMembers(InputStream compressed) throws IOException {
        this.in = compressed.markSupported() ? compressed : new BufferedInputStream(compressed);
        this.member = new GzipCompressorInputStream(in, false);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n;
        while ((n = read(one, 0, 1)) == 0) {
            // a decoder may return nothing while it reads a header
        }
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (!end) {
            int n = member.read(b, off, len);
            if (n >= 0) {
                return n;
            }
            end = !nextMember();
        }
        return -1;
    }

    /** After a member: true when another one starts; false at the end of the file (after zeros only). */
    private boolean nextMember() throws IOException {
        in.mark(2);
        int first = in.read();
        if (first < 0) {
            return false;
        }
        if (first == 0x1f) {
            in.reset();
            member = new GzipCompressorInputStream(in, false);
            return true;
        }
        long zeros = 0;
        for (int c = first; c >= 0; c = in.read()) {
            if (c != 0) {
                throw new IOException("data follows the last gzip member (" + zeros + " zero bytes, then other bytes)");
            }
            zeros++;
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
