package dev.cudnntool.archive.format;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * An input stream that only knows how to read many bytes at once: the one-byte {@link #read()} and
 * an empty read are answered here, once, for the readers of this package (decoders, read-ahead,
 * zip entries), which implement {@link #readSome}.
 */
public abstract class BulkInputStream extends InputStream {
    @Override
    public final int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public final int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        return len == 0 ? 0 : readSome(b, off, len);
    }

    /** Reads at least one byte into {@code b[off..off+len)} ({@code len > 0}), or returns -1 at the end. */
    protected abstract int readSome(byte[] b, int off, int len) throws IOException;
}
