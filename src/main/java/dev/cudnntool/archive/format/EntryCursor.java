package dev.cudnntool.archive.format;

import dev.cudnntool.Hex;
import dev.cudnntool.archive.name.ArchiveFormat;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * Walks the entries of a zip, tar.xz or tgz stream one after the other, never holding an entry
 * in memory. Underneath it hashes the raw archive bytes (sha256 of the download) and counts how
 * many compressed bytes the decompressor has consumed, so callers can bound expansion ratios.
 */
public final class EntryCursor implements Closeable {
    private final InputStream raw;
    private final MessageDigest archiveDigest;
    private final Counting compressed;
    private final ZipInputStream zip;
    private final TarArchiveInputStream tar;
    /** What the tar is read from: the decompressed bytes, drained to their end by {@link #finishAndHash}. */
    private final InputStream decompressed;
    private final ParallelXz parallel;
    /** For a multi-block .xz: which compressed bytes hold what the tar reader has taken (see {@link XzBlockMap}). */
    private final XzBlockMap blocks;
    private final Counting expanded;

    private EntryCursor(InputStream raw, MessageDigest digest, Counting compressed,
                        ZipInputStream zip, InputStream decompressed, XzBlockMap blocks) {
        this.raw = raw;
        this.archiveDigest = digest;
        this.compressed = compressed;
        this.zip = zip;
        this.blocks = decompressed == null ? null : blocks;
        this.expanded = this.blocks == null ? null : new Counting(decompressed);
        this.decompressed = this.expanded != null ? this.expanded : decompressed;
        this.tar = decompressed == null ? null : new CheckedTarInput(this.decompressed, TarConstants.DEFAULT_BLKSIZE);
        this.parallel = null;
    }

    private EntryCursor(ParallelXz parallel, XzBlockMap blocks) {
        this.raw = null;
        this.archiveDigest = null;
        this.compressed = null;
        this.zip = null;
        this.blocks = blocks;
        this.expanded = new Counting(parallel);
        this.decompressed = expanded;
        this.tar = new CheckedTarInput(expanded, 1 << 16);
        this.parallel = parallel;
    }

    /** A tar inside a multi-block .xz, decoded on several threads (see {@link ParallelXz}). */
    public static EntryCursor overParallelXz(ParallelXz parallel, XzBlockMap blocks) {
        return new EntryCursor(parallel, blocks);
    }

    public static EntryCursor open(InputStream archiveBytes, ArchiveFormat format) throws IOException {
        return open(archiveBytes, format, null, XzDecoders.Choice.AUTO);
    }

    /**
     * {@code blocks}: the block map of a multi-block .xz, or null (see {@link #compressedBytesRead});
     * {@code xz}: which decoder a .xz gets.
     */
    public static EntryCursor open(InputStream archiveBytes, ArchiveFormat format, XzBlockMap blocks, XzDecoders.Choice xz)
            throws IOException {
        MessageDigest digest = Hex.newSha256();
        // The digest sees each byte of the file once, in order: below every buffer a decoder may
        // rewind (the gzip reader resets its input after each member to hand back what it read ahead).
        InputStream buffered = new BufferedInputStream(new HashedOnce(archiveBytes, digest), 1 << 16);
        Counting counting = new Counting(buffered);
        return switch (format) {
            case ZIP, WHEEL -> new EntryCursor(buffered, digest, counting, new ZipInputStream(counting), null, null);
            case TAR_XZ -> new EntryCursor(buffered, digest, counting, null, XzDecoders.readAhead(counting, xz), blocks);
            case TGZ -> new EntryCursor(buffered, digest, counting, null, new GzipMembers(counting), null);
        };
    }

    /** The next entry, or null at the end. Its content is {@link #content()} until the next call. */
    public RawEntry next() throws IOException {
        if (zip != null) {
            ZipEntry e = zip.getNextEntry();
            if (e == null) {
                return null;
            }
            return new RawEntry(e.getName(), e.isDirectory() ? EntryType.DIRECTORY : EntryType.FILE,
                    e.getSize(), null, 0);
        }
        TarArchiveEntry e = tar.getNextEntry();
        if (e == null) {
            return null;
        }
        EntryType type;
        if (e.isSymbolicLink()) {
            type = EntryType.SYMLINK;
        } else if (e.isLink()) {
            type = EntryType.HARDLINK;
        } else if (e.isDirectory()) {
            type = EntryType.DIRECTORY;
        } else if (e.isCharacterDevice() || e.isBlockDevice() || e.isFIFO()) {
            // checked before isFile(), which is true for anything that is not a folder
            type = EntryType.SPECIAL;
        } else if (e.isFile()) {
            type = EntryType.FILE;
        } else {
            type = EntryType.SPECIAL;
        }
        String link = type == EntryType.SYMLINK || type == EntryType.HARDLINK ? e.getLinkName() : null;
        return new RawEntry(e.getName(), type, type == EntryType.FILE ? e.getSize() : 0, link, e.getMode() & 07777);
    }

    /** The current entry's bytes; closing it does not close the archive. */
    public InputStream content() {
        return new FilterInputStream(zip != null ? zip : tar) {
            @Override
            public void close() {
                // the archive stream stays open for the next entry
            }
        };
    }

    /**
     * Compressed bytes that hold what has been read so far: for a stream, what the decompressor has
     * consumed (an upper bound: it reads a little ahead); for a multi-block .xz, from the file's block
     * index at the position the tar reader has reached, whatever the decoders have taken in ahead.
     */
    public long compressedBytesRead() {
        if (blocks != null) {
            return blocks.compressedAt(expanded.count);
        }
        return parallel != null ? parallel.compressedConsumed() : compressed.count;
    }

    /**
     * Reads whatever follows the last entry (zip central directory, padding) and returns the file's sha256.
     * For a tar, the decompressor is read to its very end first, so that whatever follows the last
     * compressed stream is judged (xz allows stream padding there, gzip zeros; both refuse other bytes),
     * and what follows the tar's end marker inside the stream must be zero padding. The sha256 is of
     * every byte of the file, each once.
     */
    public String finishAndHash() throws IOException {
        if (decompressed != null) {
            TarTail.drain(decompressed);
        }
        if (parallel != null) {
            return parallel.fileSha256();
        }
        byte[] buf = new byte[1 << 16];
        while (raw.read(buf) >= 0) {
            // drain so the digest covers the whole file
        }
        return Hex.of(archiveDigest.digest());
    }

    @Override
    public void close() throws IOException {
        if (zip != null) {
            zip.close();
        } else {
            tar.close();
            decompressed.close();
        }
        if (parallel != null) {
            parallel.close();
        }
    }

    /**
     * Hashes every byte read through it, skipped ones included, and cannot be rewound: a reader
     * above that marks and resets does so in its own buffer, so no byte reaches the digest twice.
     */
    private static final class HashedOnce extends FilterInputStream {
        private final MessageDigest digest;

        HashedOnce(InputStream in, MessageDigest digest) {
            super(in);
            this.digest = digest;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                digest.update((byte) b);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                digest.update(b, off, n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            byte[] buf = new byte[(int) Math.min(8192, Math.max(n, 1))];
            long done = 0;
            while (done < n) {
                int r = read(buf, 0, (int) Math.min(buf.length, n - done));
                if (r < 0) {
                    break;
                }
                done += r;
            }
            return done;
        }

        @Override
        public boolean markSupported() {
            return false;
        }

        @Override
        public synchronized void mark(int readlimit) {
            // not supported: see markSupported
        }

        @Override
        public synchronized void reset() throws IOException {
            throw new IOException("the archive's bytes cannot be read twice");
        }
    }

    /** Counts the bytes a decoder has taken; a reset takes back what was read since the mark. */
    private static final class Counting extends FilterInputStream {
        /** Written by the decoder's thread, read by the cursor's. */
        volatile long count;
        private long marked;

        @Override
        public synchronized void mark(int readlimit) {
            super.mark(readlimit);
            marked = count;
        }

        @Override
        public synchronized void reset() throws IOException {
            super.reset();
            count = marked;
        }

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) count++;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) count += n;
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            count += s;
            return s;
        }
    }
}
