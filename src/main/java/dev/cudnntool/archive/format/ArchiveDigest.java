package dev.cudnntool.archive.format;

import dev.cudnntool.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The sha256 of a zip archive, computed on a thread of its own from the moment the caller knows
 * the file: an install starts it before its host checks, so the hashing runs while the tool
 * waits for {@code nvidia-smi} and reads the toolkit, not on top of the inflating. A zip is read
 * twice (hashed whole, inflated by entry), so the file's identity when hashing began is kept and
 * compared once the entries are read: a file replaced or rewritten in between is refused, never
 * installed under a checksum that belongs to other bytes. (A {@code .tar.xz} is hashed as it is
 * decoded, in one read, and needs none of this.)
 */
public final class ArchiveDigest implements AutoCloseable {
    private final Path file;
    private final Identity before;
    private final CompletableFuture<String> sha256 = new CompletableFuture<>();
    private volatile boolean cancelled;

    /**
     * Size, modification time, file key (device and inode where the OS has them) and, where the
     * file system tells it, the change time of the file itself: a symbolic link is followed, as the
     * reading and the hashing follow it. The change time is the one the file's owner cannot set
     * back: a file rewritten in place with its modification time restored still differs in it.
     */
    record Identity(long size, long modified, Object key, Object changed) {
        static Identity of(Path file) throws IOException {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            Object changed = file.getFileSystem().supportedFileAttributeViews().contains("unix")
                    ? Files.getAttribute(file, "unix:ctime") : null;
            return new Identity(a.size(), a.lastModifiedTime().toMillis(), a.fileKey(), changed);
        }
    }

    private ArchiveDigest(Path file, Identity before) {
        this.file = file;
        this.before = before;
    }

    /** Starts hashing {@code file} on a daemon thread; the identity is taken first. */
    public static ArchiveDigest start(Path file) {
        Identity id;
        try {
            id = Identity.of(file);
        } catch (IOException e) {
            id = null; // the reader will say why it cannot read the file; the digest reports the same
        }
        ArchiveDigest d = new ArchiveDigest(file, id);
        Thread t = new Thread(d::compute, "cudnn-tool-archive-sha256");
        t.setDaemon(true);
        t.start();
        return d;
    }

    public Path file() {
        return file;
    }

    private void compute() {
        try {
            MessageDigest md = Hex.newSha256();
            try (InputStream in = Files.newInputStream(file)) {
                byte[] buf = new byte[1 << 20];
                int n;
                while ((n = in.read(buf)) > 0) {
                    if (cancelled) {
                        throw new InterruptedIOException("the archive's checksum is no longer needed");
                    }
                    md.update(buf, 0, n);
                }
            }
            sha256.complete(Hex.of(md.digest()));
        } catch (IOException | RuntimeException e) {
            sha256.completeExceptionally(e);
        }
    }

    /** The sha256 in hex, once the whole file is read. */
    public String await() throws IOException {
        try {
            return sha256.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while hashing " + file);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        }
    }

    /** True when the file is, by size, modification and change time and file key, the one hashing began on. */
    public boolean unchanged() {
        try {
            return before != null && Objects.equals(before, Identity.of(file));
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops the hashing at its next piece when nobody needs the result any more. */
    @Override
    public void close() {
        cancelled = true;
    }
}
