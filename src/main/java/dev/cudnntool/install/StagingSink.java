package dev.cudnntool.install;

import dev.cudnntool.target.FileOps;
import dev.cudnntool.archive.ArchiveItem;
import dev.cudnntool.archive.EntryRole;
import dev.cudnntool.archive.EntrySafety;
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
 *
 * <p>Modes are the tool's, never the archive's: 0755 for shared libraries and DLLs, 0644 for
 * everything else, so no group or other write bit and no set-id bit ever reaches the target.
 * Folder entries create nothing (files create the folders they need), and a path longer than the
 * target's file system can hold is refused as an unsafe entry (exit 3) before it is written.
 */
final class StagingSink implements EntrySink {
    static final int LIBRARY_MODE = 0755;
    static final int FILE_MODE = 0644;

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

    /** The mode an installed file gets, whatever the archive says. */
    static int modeFor(ArchiveItem item) {
        return item.role() == EntryRole.RUNTIME_LIBRARY ? LIBRARY_MODE : FILE_MODE;
    }

    private Path checkedPath(ArchiveItem item) {
        Path p = staged(item);
        int bytes = EntrySafety.utf8Length(p.toString());
        if (bytes >= EntrySafety.MAX_PATH_BYTES) {
            throw EntrySafety.unsafe(item.path(), "unpacked it would be a path of " + bytes
                    + " bytes, more than the target's file system can hold");
        }
        return p;
    }

    private Path resolve(String rel) {
        Path p = root;
        for (String s : rel.split("/")) {
            p = p.resolve(s);
        }
        return p;
    }

    @Override
    public void directory(ArchiveItem item) {
        // nothing: folders are never installed, and each file creates the folders it needs
    }

    @Override
    public void file(ArchiveItem item, InputStream content) throws IOException {
        Path p = checkedPath(item);
        mkdirs(p.getParent());
        byte[] buf = buffer.get();
        try (OutputStream out = ops.newFile(p)) {
            int n;
            while ((n = content.read(buf)) >= 0) {
                out.write(buf, 0, n);
            }
        }
        ops.setMode(p, modeFor(item));
    }

    @Override
    public void symlink(ArchiveItem item) throws IOException {
        Path p = checkedPath(item);
        mkdirs(p.getParent());
        ops.createSymbolicLink(p, item.linkTarget());
    }

    @Override
    public void hardlink(ArchiveItem item) throws IOException {
        Path p = checkedPath(item);
        mkdirs(p.getParent());
        try (InputStream in = Files.newInputStream(resolve(item.linkTarget())); OutputStream out = ops.newFile(p)) {
            in.transferTo(out);
        }
        ops.setMode(p, modeFor(item));
    }

    private synchronized void mkdirs(Path dir) throws IOException {
        if (dir == null || Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        mkdirs(dir.getParent());
        ops.createDirectory(dir);
    }
}
