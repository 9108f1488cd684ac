package dev.cudnntool.install;

import dev.cudnntool.archive.ArchiveItem;
import dev.cudnntool.archive.EntrySink;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Writes each validated archive entry below the staging folder (same file system as the target,
 * so commit is a rename). Safe for the parallel zip reader: folders are created under a lock,
 * each thread copies through its own buffer. Content is streamed with a large buffer and hashed by the inspector
 * on the way through: staged files are never read a second time.
 */
final class StagingSink implements EntrySink {
    private static final int BUFFER = 1 << 20;
    private final Path root;
    private final FileOps ops;
    /** One buffer per writing thread: zip entries are staged in parallel. */
    private final ThreadLocal<byte[]> buffer = ThreadLocal.withInitial(() -> new byte[BUFFER]);

    StagingSink(Path root, FileOps ops) {
        this.root = root;
        this.ops = ops;
    }

    Path staged(ArchiveItem item) {
        return resolve(item.relPath());
    }

    private Path resolve(String rel) {
        Path p = root;
        for (String s : rel.split("/")) {
            p = p.resolve(s);
        }
        return p;
    }

    @Override
    public void directory(ArchiveItem item) throws IOException {
        mkdirs(staged(item));
    }

    @Override
    public void file(ArchiveItem item, InputStream content) throws IOException {
        Path p = staged(item);
        mkdirs(p.getParent());
        byte[] buf = buffer.get();
        try (OutputStream out = ops.newFile(p)) {
            int n;
            while ((n = content.read(buf)) >= 0) {
                out.write(buf, 0, n);
            }
        }
        ops.setMode(p, item.mode());
    }

    @Override
    public void symlink(ArchiveItem item) throws IOException {
        Path p = staged(item);
        mkdirs(p.getParent());
        ops.createSymbolicLink(p, item.linkTarget());
    }

    @Override
    public void hardlink(ArchiveItem item) throws IOException {
        Path p = staged(item);
        mkdirs(p.getParent());
        try (InputStream in = Files.newInputStream(resolve(item.linkTarget())); OutputStream out = ops.newFile(p)) {
            in.transferTo(out);
        }
        ops.setMode(p, item.mode());
    }

    private synchronized void mkdirs(Path dir) throws IOException {
        if (dir == null || Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        mkdirs(dir.getParent());
        ops.createDirectory(dir);
    }
}
