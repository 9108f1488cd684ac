package dev.cudnntool.archive.format;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;

/**
 * One zip entry's content, read from its own channel at its data offset in pieces of up to
 * 1 MiB and inflated (or copied, when stored) straight into the reader's buffer, which is filled
 * before a read returns. {@code ZipFile}'s own stream reads 8 KiB at a time under a lock every
 * entry's thread shares and hands back whatever one inflate call made (about 20 KiB); at a
 * gigabyte that is 100,000 locked reads and 50,000 small writes, and a measurable share of the
 * install. A channel of its own per entry also means an interrupted thread closes only its own.
 *
 * <p>Trailing bytes inside an entry's compressed size after the end of its deflate stream are
 * ignored, as {@code ZipFile} ignores them; the CRC and the size are checked by the caller.
 */
public final class ZipEntryInput extends BulkInputStream {
    private final FileChannel channel;
    private final ByteBuffer in;
    private final Inflater inflater;
    private final long end;
    private long position;
    private boolean dummyGiven;

    /**
     * @param dataOffset     where the entry's (compressed) bytes begin in the file
     * @param compressedSize how many bytes they are
     * @param method         {@link ZipEntry#STORED} or {@link ZipEntry#DEFLATED}
     * @param buffer         a direct buffer for the compressed bytes, owned by the calling thread
     */
    public ZipEntryInput(Path archive, long dataOffset, long compressedSize, int method, ByteBuffer buffer) throws IOException {
        if (method != ZipEntry.STORED && method != ZipEntry.DEFLATED) {
            throw new ZipException("invalid compression method " + method);
        }
        this.channel = FileChannel.open(archive, StandardOpenOption.READ);
        this.position = dataOffset;
        this.end = dataOffset + compressedSize;
        this.in = buffer;
        this.inflater = method == ZipEntry.DEFLATED ? new Inflater(true) : null;
        in.clear().limit(0);
    }

    @Override
    protected int readSome(byte[] b, int off, int len) throws IOException {
        return inflater == null ? readStored(b, off, len) : inflate(b, off, len);
    }

    private int readStored(byte[] b, int off, int len) throws IOException {
        if (position >= end) {
            return -1;
        }
        ByteBuffer dst = ByteBuffer.wrap(b, off, (int) Math.min(len, end - position));
        while (dst.hasRemaining()) {
            int n = channel.read(dst, position);
            if (n < 0) {
                throw new EOFException("the archive ends inside an entry");
            }
            position += n;
        }
        return dst.position() - off;
    }

    private int inflate(byte[] b, int off, int len) throws IOException {
        int filled = 0;
        try {
            while (filled < len && !inflater.finished()) {
                if (inflater.needsDictionary()) {
                    throw new ZipException("the entry's deflate data asks for a preset dictionary");
                }
                if (inflater.needsInput()) {
                    refill();
                }
                int n = inflater.inflate(b, off + filled, len - filled);
                if (n == 0 && !inflater.needsInput() && !inflater.finished() && !inflater.needsDictionary()) {
                    throw new ZipException("invalid deflate data (no progress)");
                }
                filled += n;
            }
        } catch (DataFormatException e) {
            throw new ZipException(e.getMessage() == null ? "invalid deflate data" : e.getMessage());
        }
        return filled == 0 && inflater.finished() ? -1 : filled;
    }

    /**
     * The next piece of compressed bytes; at the entry's end one dummy byte, as {@code ZipFile}
     * gives zlib in raw mode, and after that the entry is truncated.
     */
    private void refill() throws IOException {
        if (position >= end) {
            if (dummyGiven) {
                throw new EOFException("Unexpected end of ZLIB input stream");
            }
            dummyGiven = true;
            inflater.setInput(new byte[1]);
            return;
        }
        in.clear();
        in.limit((int) Math.min(in.capacity(), end - position));
        while (in.hasRemaining()) {
            int n = channel.read(in, position + in.position());
            if (n < 0) {
                throw new EOFException("the archive ends inside an entry");
            }
        }
        position += in.limit();
        in.flip();
        inflater.setInput(in);
    }

    @Override
    public void close() throws IOException {
        if (inflater != null) {
            inflater.end();
        }
        channel.close();
    }
}
