package dev.cudnntool;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.function.Predicate;

/**
 * The one way the tool reads a file it did not write itself: every file is hostile input. The
 * file type is checked first from its attributes (a link's own, then its target's; nothing is
 * opened), so a FIFO or a device is refused before open() could block or stream forever; the size
 * is checked against a cap before a byte is read, and the read stops at the cap whatever the file
 * claims (files in /proc report size 0).
 */
public final class BoundedFiles {
    /** A header, {@code version.json}, an {@code ld.so.conf} file: text a person could write by hand. */
    public static final long TEXT = 8L << 20;
    /** NVIDIA's redistrib_*.json and the tool's own state files. */
    public static final long DOCUMENT = 64L << 20;

    private BoundedFiles() {
    }

    /** Whether {@code file} is a regular file (after following links), read from its attributes alone. */
    public static boolean isRegularFile(Path file) {
        try {
            BasicFileAttributes own = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (own.isRegularFile()) {
                return true;
            }
            return own.isSymbolicLink() && Files.readAttributes(file, BasicFileAttributes.class).isRegularFile();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Refuses anything but a regular file, naming what it is. */
    public static void requireRegularFile(Path file) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (UnsupportedOperationException e) {
            throw new IOException(file + " cannot be examined", e);
        }
        if (!a.isRegularFile()) {
            throw new IOException(file + " is not a regular file (" + (a.isDirectory() ? "a folder"
                    : a.isOther() ? "a FIFO, socket or device" : "not a plain file") + ")");
        }
    }

    /** A regular file, opened for reading; anything else is refused before it is opened. */
    public static SeekableByteChannel open(Path file) throws IOException {
        requireRegularFile(file);
        return Files.newByteChannel(file);
    }

    /** The bytes of a regular file of at most {@code max} bytes. */
    public static byte[] read(Path file, long max) throws IOException {
        requireRegularFile(file);
        long size = Files.size(file);
        if (size > max) {
            throw tooLarge(file, size, max);
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] b = in.readNBytes((int) Math.min(max, Integer.MAX_VALUE - 16) + 1);
            if (b.length > max) {
                throw tooLarge(file, b.length, max);
            }
            return b;
        }
    }

    public static String readString(Path file, long max, Charset cs) throws IOException {
        return new String(read(file, max), cs);
    }

    /** UTF-8 lines; bytes that are not UTF-8 are replaced, as a line with them names no usable folder anyway. */
    public static List<String> readLines(Path file, long max) throws IOException {
        return readString(file, max, StandardCharsets.UTF_8).lines().toList();
    }

    /**
     * UTF-8 lines of a regular file, one at a time, until {@code each} returns false: nothing but the
     * current line is held, so a file of millions of short lines costs no more memory than one line. At
     * most {@code max} bytes are read; a larger file is refused when the read passes the cap (lines before
     * it were seen). Bytes that are not UTF-8 are replaced.
     */
    public static void forEachLine(Path file, long max, Predicate<String> each) throws IOException {
        requireRegularFile(file);
        long size = Files.size(file);
        if (size > max) {
            throw tooLarge(file, size, max);
        }
        try (InputStream raw = Files.newInputStream(file);
             BufferedReader in = new BufferedReader(new InputStreamReader(capped(raw, file, max),
                     StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!each.test(line)) {
                    return;
                }
            }
        }
    }

    /** {@code in}, failing once more than {@code max} bytes came through (a file that grows, or lies about its size). */
    private static InputStream capped(InputStream in, Path file, long max) {
        return new FilterInputStream(in) {
            private long count;

            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0 && ++count > max) {
                    throw tooLarge(file, count, max);
                }
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                int n = super.read(buf, off, len);
                if (n > 0 && (count += n) > max) {
                    throw tooLarge(file, count, max);
                }
                return n;
            }
        };
    }

    private static IOException tooLarge(Path file, long size, long max) {
        return new IOException(file + " is larger than " + describe(max) + " (" + size + " bytes or more), the most this"
                + " tool reads of such a file; it was not read");
    }

    private static String describe(long bytes) {
        return bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? bytes / (1 << 20) + " MiB" : bytes + " bytes";
    }
}
