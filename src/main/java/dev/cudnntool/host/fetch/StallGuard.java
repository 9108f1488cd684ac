package dev.cudnntool.host.fetch;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/**
 * A body read with a read timeout of its own: when no byte arrives for {@code timeout}, a watchdog
 * thread closes the stream, so the blocked read ends (the JDK client's request timeout stops at the
 * headers). {@link #stalled()} then says why the read ended. {@link #close} stops the watchdog.
 */
final class StallGuard extends FilterInputStream {
    private final long timeoutNanos;
    private volatile long lastByte = System.nanoTime();
    private volatile boolean stalled;
    private volatile boolean closed;
    private final Thread watchdog;

    StallGuard(InputStream in, Duration timeout) {
        super(in);
        this.timeoutNanos = timeout.toNanos();
        this.watchdog = new Thread(this::watch, "cudnn-fetch-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private void watch() {
        long tick = Math.max(10, Math.min(1000, timeoutNanos / 4_000_000));
        while (!closed) {
            try {
                Thread.sleep(tick);
            } catch (InterruptedException e) {
                return;
            }
            if (!closed && System.nanoTime() - lastByte > timeoutNanos) {
                stalled = true;
                try {
                    in.close();
                } catch (IOException | RuntimeException ignored) {
                    // the reader sees the end either way
                }
                return;
            }
        }
    }

    /** Whether the watchdog ended the read. */
    boolean stalled() {
        return stalled;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            lastByte = System.nanoTime();
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        watchdog.interrupt();
        in.close();
    }
}
