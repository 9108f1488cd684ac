package dev.cudnntool.archive.format;

import java.io.IOException;
import java.io.InputStream;

/**
 * What follows a tar's end marker inside its compressed stream. {@code tar} writes only zeros there
 * (the rest of its last record); this reads it all, so that the decompressor reaches the end of its
 * input and judges the bytes after the last compressed stream, and refuses anything but a bounded
 * amount of zeros: other data hidden behind the end marker is not NVIDIA's.
 */
final class TarTail {
    /** Far more than any blocking factor tar uses (the default record is 10 KiB). */
    static final int MAX_PADDING = 1 << 20;

    private TarTail() {
    }

    static void drain(InputStream decompressed) throws IOException {
        byte[] buf = new byte[1 << 16];
        long total = 0;
        int n;
        while ((n = decompressed.read(buf)) >= 0) {
            for (int i = 0; i < n; i++) {
                if (buf[i] != 0) {
                    throw new IOException("data follows the end of the tar (" + (total + i)
                            + " bytes after its end marker)");
                }
            }
            total += n;
            if (total > MAX_PADDING) {
                throw new IOException("more than " + (MAX_PADDING >> 10) + " KiB of padding follow the end of the tar");
            }
        }
    }
}
