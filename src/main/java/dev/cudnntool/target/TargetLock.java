package dev.cudnntool.target;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * &lt;target&gt;/.cudnn-tool/lock, held with {@code FileChannel.tryLock} for the whole run so a second
 * install or rollback on the same target is turned away (exit 5) instead of interleaving. The
 * operating system drops the lock when the holder dies, so a killed run never blocks the next.
 */
public final class TargetLock implements AutoCloseable {
    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private TargetLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    public static TargetLock acquire(Path stateDir) {
        Path file = StateFolder.at(stateDir).lock();
        FileChannel ch = null;
        try {
            if (Files.isSymbolicLink(file)) {
                Files.delete(file); // never the tool's: opened, it would create or lock a file outside the target
            }
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                l = null;
            }
            if (l == null) {
                ch.close();
                throw lockedBy(stateDir);
            }
            // The file stays empty: holding it is the whole message, and the target's bytes stay as they were.
            return new TargetLock(file, ch, l);
        } catch (IOException e) {
            try {
                if (ch != null) {
                    ch.close();
                }
            } catch (IOException ignored) {
                // nothing more to release
            }
            throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "cannot lock " + file + ": " + IoFailure.describe(e),
                    "run from an elevated prompt (Windows) or with sudo (Linux), or choose a folder you can write", e);
        }
    }

    /** Exit 5 for the run that finds the lock taken: checked before any advice about a pending journal. */
    public static ToolException lockedBy(Path stateDir) {
        return new ToolException(ExitCode.TARGET_NOT_WRITABLE, stateDir.getParent() + " is locked by a running install"
                + " or rollback: another cudnn-tool run is changing it (it holds " + StateFolder.at(stateDir).lock() + ")",
                "wait for it to finish, then run this again");
    }

    /**
     * Whether a running cudnn-tool holds the lock, asked without taking it for longer than the
     * question (a dry run): the lock file is opened, never created, so nothing changes.
     */
    public static boolean isHeld(Path stateDir) {
        Path file = StateFolder.at(stateDir).lock();
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
            FileLock l = ch.tryLock();
            if (l == null) {
                return true;
            }
            l.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false; // unreadable: the real run's own attempt says why
        }
    }

    /** Releases the lock and, when asked, removes the lock file (the target is left as found). */
    public void release(boolean deleteFile) {
        try {
            if (lock.isValid()) {
                lock.release();
            }
            channel.close();
            if (deleteFile) {
                Files.deleteIfExists(file);
            }
        } catch (IOException ignored) {
            // releasing cannot fail in a way the user could act on
        }
    }

    @Override
    public void close() {
        release(false);
    }
}
