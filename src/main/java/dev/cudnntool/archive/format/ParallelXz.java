package dev.cudnntool.archive.format;
import dev.cudnntool.Hex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.tukaani.xz.MemoryLimitException;
import org.tukaani.xz.SeekableInputStream;
import org.tukaani.xz.SeekableXZInputStream;

/**
 * Decodes an .xz file made of several blocks (what multi-threaded xz writes) on several threads,
 * and hands the bytes out in order as one stream. Each block's integrity check is verified by the
 * decoder. Memory is bounded: at most {@link #window} blocks of at most {@link #MAX_BLOCK} bytes
 * are held at once. Files of a single block, or with larger blocks, are not for this class
 * ({@link #open} returns null) and are decoded as a plain stream. Another thread hashes the file.
 * Used only where liblzma's own multi-threaded decoder is not ({@link XzDecoders#decodesBlocksInParallel}).
 */
public final class ParallelXz extends BulkInputStream {
    static final int MAX_BLOCK = 32 << 20;
    /** Per decoder (its LZMA dictionary), in KiB: xz presets up to -6 (8 MiB dictionary) qualify. */
    private static final int DECODER_MEMORY_KIB = 12 * 1024;
    /** The blocks held at once may use at most this much, and at most half the heap. */
    private static long windowBytes() {
        return Math.min(96L << 20, Runtime.getRuntime().maxMemory() / 2);
    }

    private final Path file;
    private final int blocks;
    private final long[] compressedEnd;
    private final ExecutorService pool;
    private final ThreadLocal<SeekableXZInputStream> decoders;
    private final BlockingQueue<byte[]> free;
    private final ArrayDeque<Future<byte[]>> inFlight = new ArrayDeque<>();
    private final Future<String> fileHash;
    private final int window;
    private int nextToSubmit;
    private int delivered;
    private byte[] current;
    private int pos;
    private int limit;

    private ParallelXz(Path file, SeekableXZInputStream index, int threads) throws IOException {
        this.file = file;
        this.blocks = index.getBlockCount();
        this.compressedEnd = new long[blocks];
        int max = 0;
        for (int i = 0; i < blocks; i++) {
            compressedEnd[i] = index.getBlockCompPos(i) + index.getBlockCompSize(i);
            max = (int) Math.max(max, index.getBlockSize(i));
        }
        // Blocks being decoded, plus the one the reader is on: enough to keep every core busy.
        this.window = (int) Math.max(2, Math.min(threads, windowBytes() / Math.max(1, max) - 1));
        this.free = new ArrayBlockingQueue<>(window + 1);
        for (int i = 0; i < window + 1; i++) {
            free.add(new byte[max]);
        }
        this.pool = Executors.newFixedThreadPool(threads + 1, r -> {
            Thread t = new Thread(r, "cudnn-tool-xz");
            t.setDaemon(true);
            return t;
        });
        this.decoders = ThreadLocal.withInitial(() -> {
            try {
                return new SeekableXZInputStream(new ChannelInput(Files.newByteChannel(file)), DECODER_MEMORY_KIB);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        this.fileHash = pool.submit(() -> Hex.sha256(file));
        fill();
    }

    /** A parallel decoder for {@code file}, or null when it has one block or blocks too large to buffer. */
    public static ParallelXz open(Path file) throws IOException {
        int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        if (threads < 2) {
            return null;
        }
        try (SeekableXZInputStream index = new SeekableXZInputStream(new ChannelInput(Files.newByteChannel(file)))) {
            if (index.getBlockCount() < 2) {
                return null;
            }
            long max = 0;
            for (int i = 0; i < index.getBlockCount(); i++) {
                max = Math.max(max, index.getBlockSize(i));
            }
            // Two blocks being decoded and one being read must fit the window, or it is not worth it.
            if (max > MAX_BLOCK || 3 * max > windowBytes()) {
                return null;
            }
            if (!decoderFits(file)) {
                return null; // a large dictionary: one decoder, as a stream, keeps memory flat
            }
            return new ParallelXz(file, index, threads);
        }
    }

    private static boolean decoderFits(Path file) throws IOException {
        try (SeekableXZInputStream probe = new SeekableXZInputStream(new ChannelInput(Files.newByteChannel(file)),
                DECODER_MEMORY_KIB)) {
            probe.seekToBlock(0);
            probe.read();
            return true;
        } catch (MemoryLimitException e) {
            return false;
        }
    }

    private void fill() {
        while (nextToSubmit < blocks && inFlight.size() < window) {
            int block = nextToSubmit++;
            inFlight.add(pool.submit(() -> decode(block)));
        }
    }

    private byte[] decode(int block) throws IOException, InterruptedException {
        SeekableXZInputStream in = decoders.get();
        in.seekToBlock(block);
        int size = (int) in.getBlockSize(block);
        byte[] buf = free.take();
        int n = in.readNBytes(buf, 0, size);
        if (n != size) {
            throw new IOException("xz block " + block + " ended after " + n + " of " + size + " bytes");
        }
        return buf;
    }

    private boolean advance() throws IOException {
        if (current != null) {
            free.add(current);
            current = null;
        }
        Future<byte[]> next = inFlight.poll();
        if (next == null) {
            return false;
        }
        int block = delivered++;
        try {
            current = next.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof IOException io ? io : new IOException(String.valueOf(c.getMessage()), c);
        }
        pos = 0;
        limit = blockSize(block);
        fill();
        return true;
    }

    private int blockSize(int block) throws IOException {
        return (int) decoders.get().getBlockSize(block);
    }

    @Override
    protected int readSome(byte[] b, int off, int len) throws IOException {
        while (current == null || pos >= limit) {
            if (!advance()) {
                return -1;
            }
        }
        int n = Math.min(len, limit - pos);
        System.arraycopy(current, pos, b, off, n);
        pos += n;
        return n;
    }

    /** Compressed bytes of the blocks handed out so far, for the expansion-ratio check. */
    long compressedConsumed() {
        return delivered == 0 ? 0 : compressedEnd[delivered - 1];
    }

    String fileSha256() throws IOException {
        try {
            return fileHash.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    /** xz-java's seekable input over a channel, so any file system works (jimfs in tests). */
    static final class ChannelInput extends SeekableInputStream {
        private final SeekableByteChannel ch;

        ChannelInput(SeekableByteChannel ch) {
            this.ch = ch;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return ch.read(ByteBuffer.wrap(b, off, len));
        }

        @Override
        public long length() throws IOException {
            return ch.size();
        }

        @Override
        public long position() throws IOException {
            return ch.position();
        }

        @Override
        public void seek(long pos) throws IOException {
            ch.position(pos);
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }
}
