package dev.cudnntool.target;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/** The real file operations, on whatever file system the paths belong to. */
public final class NioFileOps implements FileOps {
    /** Folders the tool creates are rwxr-xr-x whatever the umask says; on failure no folder is left. */
    @Override
    public void createDirectory(Path dir) throws IOException {
        Files.createDirectory(dir);
        PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (view != null) {
            try {
                view.setPermissions(permissions(FOLDER_MODE));
            } catch (IOException | UnsupportedOperationException e) {
                Files.deleteIfExists(dir);
                throw e instanceof IOException io ? io : new IOException("cannot set the mode of " + dir, e);
            }
        }
    }

    static final int FOLDER_MODE = 0755;

    @Override
    public void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot move " + from + " to " + to + " in one step (different file systems?)", e);
        }
    }

    @Override
    public void delete(Path path) throws IOException {
        Files.delete(path);
    }

    @Override
    public OutputStream newFile(Path file) throws IOException {
        return Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    @Override
    public void createSymbolicLink(Path link, String target) throws IOException {
        Files.createSymbolicLink(link, link.getFileSystem().getPath(target));
    }

    @Override
    public void setMode(Path file, int mode) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (view == null || mode == 0) {
            return;
        }
        view.setPermissions(permissions(mode));
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> s = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
                PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
                PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
                PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
        for (int i = 0; i < order.length; i++) {
            if ((mode & (1 << i)) != 0) {
                s.add(order[i]);
            }
        }
        return s;
    }

    @Override
    public void writeAtomically(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(content);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            // A full disk or no inodes: the old file (if any) stays as it was, no half-written copy beside it.
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the next run holding the lock removes it
            }
            throw e;
        }
    }

    @Override
    public void appendLine(Path file, String line) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer b = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(false);
        }
    }

    @Override
    public void checkNotInUse(Path file) throws IOException {
        FileChannel.open(file, StandardOpenOption.WRITE).close(); // opened and closed: nobody holds it exclusively
    }

    @Override
    public void checkWritable(Path dir) throws IOException {
        Path probe = dir.resolve(".cudnn-tool-write-test-" + ProcessHandle.current().pid());
        Files.deleteIfExists(probe);
        Files.newOutputStream(probe, StandardOpenOption.CREATE_NEW).close();
        Files.delete(probe);
    }
}
