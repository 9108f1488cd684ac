package dev.cudnntool.archive.format;
import dev.cudnntool.Failures;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Runs a stream (a decoder) on its own thread, a bounded ring of buffers ahead of its reader, so that
 * decoding overlaps with whatever the reader does with the bytes (parsing, hashing, writing): the
 * time becomes {@code max(decode, write + hash)} instead of their sum, as {@code tar -xJf} gets by
 * running {@code xz} as a separate process. Memory is bounded: {@link #DEPTH} + 2 buffers of
 * {@link #CHUNK} bytes. The source is opened, read and closed on the background thread only, so a
 * native decoder never sees two threads; a failure there is thrown, as it was, by the next read
 * after the bytes before it.
 */
final class ReadAheadInputStream extends BulkInputStream {
    static final int CHUNK = 1 << 20;
    static final int DEPTH = 4;

    /** Opens the source on the background thread (a decoder may read its header when built). */
    interface Opener {
        InputStream open() throws IOException;
    }

    private record Chunk(byte[] buf, int len, Throwable failure) {
        static final Chunk END = new Chunk(null, -1, null);
    }

    private final BlockingQueue<Chunk> full = new ArrayBlockingQueue<>(DEPTH);
    private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(DEPTH + 2);
    private final Thread thread;
    private volatile boolean closed;
    private Chunk current;
    private int pos;
    private boolean ended;

    ReadAheadInputStream(Opener source, String threadName) {
        for (int i = 0; i < DEPTH + 2; i++) {
            free.add(new byte[CHUNK]);
        }
        this.thread = new Thread(() -> produce(source), threadName);
        thread.setDaemon(true);
        thread.start();
    }

    private void produce(Opener opener) {
        try (InputStream in = opener.open()) {
            while (!closed) {
                byte[] buf = free.take();
                int n = 0;
                try {
                    int r;
                    while (n < CHUNK && (r = in.read(buf, n, CHUNK - n)) >= 0) {
                        n += r;
                    }
                } finally {
                    if (n > 0) {
                        full.put(new Chunk(buf, n, null)); // the bytes before a failure come first
                    }
                }
                if (n < CHUNK) {
                    full.put(Chunk.END);
                    return;
                }
            }
        } catch (InterruptedException e) {
            // closed by the reader: nothing more is wanted
        } catch (Throwable t) {
            try {
                if (!closed) {
                    full.put(new Chunk(null, -1, t));
                }
            } catch (InterruptedException e) {
                // closed by the reader meanwhile
            }
        }
    }

    @Override
    protected int readSome(byte[] b, int off, int len) throws IOException {
        while (current == null || pos >= current.len()) {
            if (ended) {
                return -1;
            }
            if (current != null) {
                free.add(current.buf());
                current = null;
            }
            Chunk next = take();
            if (next.failure() != null) {
                ended = true;
                throw rethrow(next.failure());
            }
            if (next == Chunk.END) {
                ended = true;
                return -1;
            }
            current = next;
            pos = 0;
        }
        int n = Math.min(len, current.len() - pos);
        System.arraycopy(current.buf(), pos, b, off, n);
        pos += n;
        return n;
    }

    private Chunk take() throws IOException {
        if (closed) {
            throw new IOException("the stream is closed");
        }
        try {
            return full.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the decoder");
        }
    }

    private static IOException rethrow(Throwable t) {
        if (t instanceof IOException io) {
            return io;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IOException(t.getMessage() == null ? Failures.kind(t) : t.getMessage(), t);
    }

    /** Stops the background thread; it closes its source itself. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            thread.interrupt();
        }
    }
}
