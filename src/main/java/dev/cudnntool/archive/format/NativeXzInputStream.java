package dev.cudnntool.archive.format;

import com.sun.jna.Memory;
import java.io.IOException;
import java.io.InputStream;

/**
 * Decodes .xz through the system's liblzma, with the same contract as xz-java's XZInputStream and as
 * {@code xz -t}: concatenated streams and stream padding (zero bytes in multiples of four) are fine,
 * every block's integrity check is verified, and anything else after the last stream, an unknown
 * check type, or a file that ends early is an {@link IOException} (the archive is damaged). Native
 * memory is bounded: the decoder's own (at most {@link #MEMORY_LIMIT}) plus two buffers; it is freed
 * on {@link #close}. Not thread-safe.
 */
final class NativeXzInputStream extends BulkInputStream {
    /** Enough for every xz preset (-9 needs 65 MiB); a larger dictionary is refused, not decoded. */
    static final long MEMORY_LIMIT = 128L << 20;
    /** Above this the multi-threaded decoder decodes on one thread instead (it never fails for it). */
    static final long THREADING_LIMIT = 128L << 20;
    private static final int IN_BUFFER = 1 << 18;
    private static final int OUT_BUFFER = 1 << 20;

    private final Liblzma lib;
    private final InputStream in;
    private final byte[] inHeap = new byte[IN_BUFFER];
    private Memory strm;
    private Memory inBuf;
    private Memory outBuf;
    private long outPos;
    private long outLimit;
    private boolean inputEnded;
    private boolean streamEnded;

    NativeXzInputStream(Liblzma lib, InputStream in) throws IOException {
        this(lib, in, 1);
    }

    /**
     * With {@code threads} above 1 and liblzma 5.4 or later, the blocks of a multi-block file are decoded
     * on that many native threads (a single block is still one stream), within {@link #THREADING_LIMIT}.
     */
    NativeXzInputStream(Liblzma lib, InputStream in, int threads) throws IOException {
        this.lib = lib;
        this.in = in;
        this.strm = new Memory(Liblzma.STREAM_SIZE);
        strm.clear();
        this.inBuf = new Memory(IN_BUFFER);
        this.outBuf = new Memory(OUT_BUFFER);
        int flags = Liblzma.LZMA_CONCATENATED | Liblzma.LZMA_TELL_UNSUPPORTED_CHECK;
        int ret;
        if (threads > 1 && lib.hasMultiThreadedDecoder()) {
            try (Memory mt = new Memory(Liblzma.MT_SIZE)) {
                mt.clear();
                mt.setInt(Liblzma.MT_FLAGS, flags);
                mt.setInt(Liblzma.MT_THREADS, threads);
                mt.setLong(Liblzma.MT_MEMLIMIT_THREADING, THREADING_LIMIT);
                mt.setLong(Liblzma.MT_MEMLIMIT_STOP, MEMORY_LIMIT);
                ret = lib.api.lzma_stream_decoder_mt(strm, mt);
            }
        } else {
            ret = lib.api.lzma_stream_decoder(strm, MEMORY_LIMIT, flags);
        }
        if (ret != Liblzma.LZMA_OK) {
            free();
            throw new IOException("liblzma could not start a decoder (" + describe(ret) + ")");
        }
    }

    @Override
    protected int readSome(byte[] b, int off, int len) throws IOException {
        while (outPos >= outLimit) {
            if (streamEnded) {
                return -1;
            }
            decodeMore();
        }
        int n = (int) Math.min(len, outLimit - outPos);
        outBuf.read(outPos, b, off, n);
        outPos += n;
        return n;
    }

    /** Runs the decoder until it produced output or reached the end of the last stream. */
    private void decodeMore() throws IOException {
        if (strm == null) {
            throw new IOException("the xz decoder is closed");
        }
        strm.setPointer(Liblzma.NEXT_OUT, outBuf);
        strm.setLong(Liblzma.AVAIL_OUT, OUT_BUFFER);
        while (true) {
            if (strm.getLong(Liblzma.AVAIL_IN) == 0 && !inputEnded) {
                int n = in.read(inHeap, 0, IN_BUFFER);
                if (n < 0) {
                    inputEnded = true;
                } else if (n > 0) {
                    inBuf.write(0, inHeap, 0, n);
                    strm.setPointer(Liblzma.NEXT_IN, inBuf);
                    strm.setLong(Liblzma.AVAIL_IN, n);
                }
            }
            int ret = lib.api.lzma_code(strm, inputEnded ? Liblzma.LZMA_FINISH : Liblzma.LZMA_RUN);
            long produced = OUT_BUFFER - strm.getLong(Liblzma.AVAIL_OUT);
            if (ret == Liblzma.LZMA_STREAM_END) {
                if (strm.getLong(Liblzma.TOTAL_IN) == 0) {
                    throw new IOException("the file is empty, not an .xz stream");
                }
                streamEnded = true;
            } else if (ret == Liblzma.LZMA_BUF_ERROR && inputEnded) {
                throw new IOException("the .xz data ends early (the file is truncated)");
            } else if (ret != Liblzma.LZMA_OK && ret != Liblzma.LZMA_NO_CHECK && ret != Liblzma.LZMA_GET_CHECK) {
                throw new IOException(describe(ret));
            }
            if (produced > 0 || streamEnded) {
                outPos = 0;
                outLimit = produced;
                return;
            }
        }
    }

    static String describe(int ret) {
        return switch (ret) {
            case Liblzma.LZMA_DATA_ERROR -> "the .xz data is corrupt, or other bytes follow the last .xz stream";
            case Liblzma.LZMA_FORMAT_ERROR -> "not in the .xz format";
            case Liblzma.LZMA_UNSUPPORTED_CHECK -> "the .xz file uses an integrity check this liblzma does not support";
            case Liblzma.LZMA_OPTIONS_ERROR -> "the .xz file uses compression options this liblzma does not support";
            case Liblzma.LZMA_MEMLIMIT_ERROR -> "decoding would need more than " + (MEMORY_LIMIT >> 20) + " MiB of memory";
            case Liblzma.LZMA_MEM_ERROR -> "liblzma ran out of memory";
            case Liblzma.LZMA_BUF_ERROR -> "the .xz data ends early (the file is truncated)";
            default -> "liblzma error " + ret;
        };
    }

    private void free() {
        if (strm != null) {
            lib.api.lzma_end(strm);
            strm.close();
            inBuf.close();
            outBuf.close();
            strm = null;
        }
    }

    /** Frees the decoder; the underlying stream is closed too. */
    @Override
    public void close() throws IOException {
        free();
        in.close();
    }
}
