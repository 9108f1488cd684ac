package dev.cudnntool.install;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.function.BiPredicate;

/** Real file operations that fail where a predicate on (operation, path) says: "disk full" on demand. */
final class JournalFaults implements FileOps {
    private final FileOps real = new NioFileOps();
    private final BiPredicate<String, Path> fail;

    JournalFaults(BiPredicate<String, Path> fail) {
        this.fail = fail;
    }

    private void check(String op, Path p) throws IOException {
        if (fail.test(op, p)) {
            throw new java.nio.file.FileSystemException(p.toString(), null, "No space left on device");
        }
    }

    @Override
    public void createDirectory(Path dir) throws IOException {
        check("mkdir", dir);
        real.createDirectory(dir);
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        check("move", to);
        real.move(from, to);
    }

    @Override
    public void delete(Path path) throws IOException {
        check("delete", path);
        real.delete(path);
    }

    @Override
    public OutputStream newFile(Path file) throws IOException {
        check("write", file);
        return real.newFile(file);
    }

    @Override
    public void createSymbolicLink(Path link, String target) throws IOException {
        check("symlink", link);
        real.createSymbolicLink(link, target);
    }

    @Override
    public void setMode(Path file, int mode) throws IOException {
        real.setMode(file, mode);
    }

    @Override
    public void writeAtomically(Path file, byte[] content) throws IOException {
        check("journal", file);
        real.writeAtomically(file, content);
    }

    @Override
    public void appendLine(Path file, String line) throws IOException {
        check("log", file);
        real.appendLine(file, line);
    }

    @Override
    public void checkNotInUse(Path file) throws IOException {
        real.checkNotInUse(file);
    }

    @Override
    public void checkWritable(Path dir) throws IOException {
        real.checkWritable(dir);
    }
}
