package dev.cudnntool.explain;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The text {@code cudnn explain} reads: the argument, a log file ({@code --file}) or standard input ({@code -}), at most
 * {@link #CAP} bytes. Of a larger file the last {@link #CAP} bytes are read (a log's error is at its end); of standard
 * input the first. A byte-order mark picks UTF-16 (PowerShell's {@code >} writes UTF-16LE); otherwise UTF-8, bytes that
 * are not UTF-8 replaced.
 *
 * @param source    "the argument", "standard input" or the file's path
 * @param size      the input's size in bytes, when known (a file, the argument); -1 for standard input past the cap
 * @param read      the bytes read
 * @param truncated whether only part of the input was read
 */
public record ExplainInput(String text, String source, long size, long read, boolean truncated) {
    /** 16 MiB: far more than any error output, small enough to scan at once. */
    public static final int CAP = 16 << 20;

    public static ExplainInput argument(String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        if (b.length > CAP) {
            return new ExplainInput(new String(b, 0, CAP, StandardCharsets.UTF_8), "the argument", b.length, CAP, true);
        }
        return new ExplainInput(text, "the argument", b.length, b.length, false);
    }

    public static ExplainInput stdin(InputStream in) {
        try {
            byte[] b = in.readNBytes(CAP + 1);
            boolean more = b.length > CAP;
            int n = Math.min(b.length, CAP);
            return new ExplainInput(decode(b, n), "standard input", more ? -1 : n, n, more);
        } catch (IOException e) {
            throw new ToolException(ExitCode.USAGE, "cannot read standard input (" + e.getMessage() + ")",
                    "pass the text as an argument or with --file LOG");
        }
    }

    public static ExplainInput file(Path file) {
        try {
            BoundedFiles.requireRegularFile(file);
            try (SeekableByteChannel ch = BoundedFiles.open(file)) {
                long size = ch.size();
                long start = Math.max(0, size - CAP);
                ch.position(start);
                ByteBuffer buf = ByteBuffer.allocate((int) Math.min(CAP, size));
                while (buf.hasRemaining() && ch.read(buf) > 0) {
                    // read until full or the end
                }
                byte[] b = Arrays.copyOf(buf.array(), buf.position());
                return new ExplainInput(decode(b, b.length), file.toString(), size, b.length, start > 0);
            }
        } catch (NoSuchFileException e) {
            throw new ToolException(ExitCode.USAGE, "cannot read " + file + " (no such file)", "name the log file that holds the error");
        } catch (AccessDeniedException e) {
            throw new ToolException(ExitCode.USAGE, "cannot read " + file + " (permission denied)", "name a log file you can read");
        } catch (IOException e) {
            throw new ToolException(ExitCode.USAGE, "cannot read " + file + " (" + e.getMessage() + ")",
                    "name a regular log file (not a folder, FIFO or device)");
        }
    }

    private static String decode(byte[] b, int n) {
        Charset cs = StandardCharsets.UTF_8;
        int skip = 0;
        if (n >= 2 && (b[0] & 0xff) == 0xff && (b[1] & 0xff) == 0xfe) {
            cs = StandardCharsets.UTF_16LE;
            skip = 2;
        } else if (n >= 2 && (b[0] & 0xff) == 0xfe && (b[1] & 0xff) == 0xff) {
            cs = StandardCharsets.UTF_16BE;
            skip = 2;
        } else if (n >= 3 && (b[0] & 0xff) == 0xef && (b[1] & 0xff) == 0xbb && (b[2] & 0xff) == 0xbf) {
            skip = 3;
        }
        return new String(b, skip, n - skip, cs);
    }

    /** "only the last 16 MiB of 40 MiB were read", for the view; null when all of it was. */
    public String notice() {
        if (!truncated) {
            return null;
        }
        String part = source.equals("standard input") || source.equals("the argument") ? "first" : "last";
        return source + " is larger than " + (CAP >> 20) + " MiB" + (size > 0 ? " (" + size + " bytes)" : "") + "; only its "
                + part + " " + (CAP >> 20) + " MiB were read";
    }
}
