package dev.cudnntool.archive.format;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;
import org.tukaani.xz.XZInputStream;

/**
 * Chooses the .xz stream decoder: the system's liblzma when it can be used (Linux, see
 * {@link Liblzma}), xz-java otherwise; both accept exactly what {@code xz -t} accepts. The system
 * property {@value #PROPERTY} forces one: {@code java} (never touch native code) or {@code native};
 * the default is {@code auto}. The decoder runs on its own thread ({@link ReadAheadInputStream}).
 */
public final class XzDecoders {
    static final String PROPERTY = "cudnntool.xz.decoder";

    private XzDecoders() {
    }

    /** The decoded bytes of {@code compressed}, decoded on a background thread; closing it leaves {@code compressed} open. */
    static InputStream readAhead(InputStream compressed) {
        Optional<Liblzma> lib = chosen();
        InputStream shielded = new FilterInputStream(compressed) {
            @Override
            public void close() {
                // the caller owns the file: it drains and closes it
            }
        };
        return new ReadAheadInputStream(() -> decoder(shielded, lib), "cudnn-tool-xz");
    }

    /** The library to use under the current setting of {@value #PROPERTY}; empty means xz-java. */
    static Optional<Liblzma> chosen() {
        String mode = System.getProperty(PROPERTY, "auto").toLowerCase(Locale.ROOT);
        return mode.equals("java") ? Optional.empty() : Liblzma.system();
    }

    /** A decoder over {@code compressed}: liblzma's when {@code lib} is present, else xz-java's. */
    static InputStream decoder(InputStream compressed, Optional<Liblzma> lib) throws IOException {
        if (lib.isPresent()) {
            return new NativeXzInputStream(lib.get(), compressed, threads());
        }
        int limitKiB = (int) (Math.min(NativeXzInputStream.MEMORY_LIMIT, Runtime.getRuntime().maxMemory() / 2) >> 10);
        InputStream buffered = new BufferedInputStream(compressed, 1 << 16);
        XZInputStream xz;
        try {
            xz = new XZInputStream(buffered, limitKiB);
        } catch (IOException e) {
            throw explained(e);
        }
        return new FilterInputStream(xz) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                try {
                    return super.read(b, off, len);
                } catch (IOException e) {
                    throw explained(e);
                }
            }
        };
    }

    /** xz-java says nothing when the input ends early (an EOFException without a message). */
    private static IOException explained(IOException e) {
        if (e.getMessage() != null && !e.getMessage().isBlank()) {
            return e;
        }
        return new IOException(e instanceof java.io.EOFException
                ? "the .xz data ends early (the file is truncated, or stray bytes follow the last stream)"
                : "the .xz data is corrupt (" + e.getClass().getSimpleName() + ")", e);
    }

    /** Decoder threads for a multi-block file: as {@link ParallelXz} uses. */
    static int threads() {
        return Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * True when the stream decoder itself decodes the blocks of a multi-block file in parallel (liblzma
     * 5.4 or later), so that {@link ParallelXz}, xz-java on several threads, is not needed.
     */
    public static boolean decodesBlocksInParallel() {
        return chosen().map(Liblzma::hasMultiThreadedDecoder).orElse(false) && threads() > 1;
    }

    /** Which decoder a read would use now, for messages and the benchmark: "liblzma 5.4.1" or "xz-java". */
    static String describe() {
        return chosen().map(l -> "liblzma " + Liblzma.versionText(l.version)).orElse("xz-java");
    }
}
