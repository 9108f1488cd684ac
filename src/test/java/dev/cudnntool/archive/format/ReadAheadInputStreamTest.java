package dev.cudnntool.archive.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The decoder's own thread hands bytes over in order, then its failure, and stops when closed. */
class ReadAheadInputStreamTest {
    @Test
    void bytesArriveInOrderAcrossManyChunks() throws IOException {
        byte[] data = ParallelXzTest.data(ReadAheadInputStream.CHUNK * 9 + 12345);
        try (InputStream in = new ReadAheadInputStream(() -> new ByteArrayInputStream(data), "t")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[7777];
            int n;
            while ((n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
            }
            assertArrayEquals(data, out.toByteArray());
            assertEquals(-1, in.read());
        }
    }

    @Test
    void aFailureComesAfterTheBytesBeforeIt() throws IOException {
        byte[] data = ParallelXzTest.data(ReadAheadInputStream.CHUNK * 2 + 10);
        EOFException failure = new EOFException("ends early");
        InputStream failing = new InputStream() {
            int pos;

            @Override
            public int read() throws IOException {
                if (pos == data.length) {
                    throw failure;
                }
                return data[pos++] & 0xff;
            }
        };
        try (InputStream in = new ReadAheadInputStream(() -> failing, "t")) {
            byte[] got = in.readNBytes(data.length);
            assertArrayEquals(data, got);
            IOException e = assertThrows(IOException.class, in::read);
            assertSame(failure, e, "the decoder's own exception, with its type and message");
        }
        IOException open = assertThrows(IOException.class, () -> {
            try (InputStream in = new ReadAheadInputStream(() -> {
                throw new IOException("not in the .xz format");
            }, "t")) {
                in.read();
            }
        });
        assertEquals("not in the .xz format", open.getMessage());
        IOException runtime = assertThrows(IOException.class, () -> {
            try (InputStream in = new ReadAheadInputStream(() -> {
                throw new IllegalStateException("bad state");
            }, "t")) {
                in.read();
            }
        });
        assertEquals("bad state", runtime.getMessage());
    }

    @Test
    void closingStopsTheDecoderThreadAndClosesItsSource() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        AtomicBoolean sourceClosed = new AtomicBoolean();
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                reads.incrementAndGet();
                return 1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                reads.incrementAndGet();
                return len;
            }

            @Override
            public void close() {
                sourceClosed.set(true);
                closed.countDown();
            }
        };
        InputStream in = new ReadAheadInputStream(() -> endless, "t");
        in.readNBytes(3 * ReadAheadInputStream.CHUNK);
        in.close();
        assertTrue(closed.await(10, TimeUnit.SECONDS), "the background thread closed its source");
        int after = reads.get();
        Thread.sleep(100);
        assertEquals(after, reads.get(), "nothing is read once closed");
        assertThrows(IOException.class, in::read);
    }
}
