package dev.cudnntool.archive.format;
import dev.cudnntool.Failures;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;
import org.tukaani.xz.XZInputStream;

/**
 * Chooses the .xz stream decoder: the system's liblzma when it can be used (Linux, see
 * {@link Liblzma}), xz-java otherwise; both accept exactly what {@code xz -t} accepts. Which one is
 * a setting ({@link Choice}) handed down from the wiring, which reads the user's knob, the system
 * property {@value #PROPERTY}, once: {@code java} (never touch native code) or {@code native}; the
 * default is {@code auto}. The decoder runs on its own thread ({@link ReadAheadInputStream}).
 */
public final class XzDecoders {
    /** The user-facing knob ({@code -Dcudnntool.xz.decoder=java}), read by the command line's entry point only. */
    public static final String PROPERTY = "cudnntool.xz.decoder";

    /** Which .xz decoder to use: {@code AUTO} and {@code NATIVE} take liblzma where it is usable, {@code JAVA} never. */
    public enum Choice {
        AUTO, JAVA, NATIVE;

        /** The setting a value of {@value #PROPERTY} asks for: {@code java} or {@code native}; anything else is {@code AUTO}. */
        public static Choice parse(String value) {
            String mode = value == null ? "auto" : value.strip().toLowerCase(Locale.ROOT);
            return mode.equals("java") ? JAVA : mode.equals("native") ? NATIVE : AUTO;
        }
    }

    private XzDecoders() {
    }

    /** The decoded bytes of {@code compressed}, decoded on a background thread; closing it leaves {@code compressed} open. */
    static InputStream readAhead(InputStream compressed, Choice choice) {
        Optional<Liblzma> lib = chosen(choice);
        InputStream shielded = new FilterInputStream(compressed) {
            @Override
            public void close() {
                // the caller owns the file: it drains and closes it
            }
        };
        return new ReadAheadInputStream(() -> decoder(shielded, lib), "cudnn-tool-xz");
    }

    /** The library to use under {@code choice}; empty means xz-java. */
    static Optional<Liblzma> chosen(Choice choice) {
        return choice == Choice.JAVA ? Optional.empty() : Liblzma.system();
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
        return new IOException(e instanceof EOFException
                ? "the .xz data ends early (the file is truncated, or stray bytes follow the last stream)"
                : "the .xz data is corrupt (" + Failures.kind(e) + ")", e);
    }

    /** Decoder threads for a multi-block file: as {@link ParallelXz} uses. */
    static int threads() {
        return Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * True when the stream decoder itself decodes the blocks of a multi-block file in parallel (liblzma
     * 5.4 or later), so that {@link ParallelXz}, xz-java on several threads, is not needed.
     */
    public static boolean decodesBlocksInParallel(Choice choice) {
        return chosen(choice).map(Liblzma::hasMultiThreadedDecoder).orElse(false) && threads() > 1;
    }

    /** Which decoder a read would use now, for messages and the benchmark: "liblzma 5.4.1" or "xz-java". */
    static String describe(Choice choice) {
        return chosen(choice).map(l -> "liblzma " + Liblzma.versionText(l.version)).orElse("xz-java");
    }
}
