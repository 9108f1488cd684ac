package dev.cudnntool.testing;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.target.NioFileOps;
import dev.cudnntool.target.TreeRemoval;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * Real file operations that fail on purpose: at the calls whose numbers are given (1-based), with
 * "access denied" for any change inside a folder a test marks read-only, and with "no space left"
 * where a test says so.
 */
public final class FailingFileOps implements FileOps {
    private final FileOps real = new NioFileOps();
    private final Set<Integer> failAt;
    private Predicate<Path> readOnly = p -> false;
    private Predicate<Path> inUse = p -> false;
    private BiPredicate<String, Path> full = (op, p) -> false;
    public int calls;

    public FailingFileOps(Integer... failAt) {
        this.failAt = Set.of(failAt);
    }

    public FailingFileOps readOnly(Predicate<Path> which) {
        this.readOnly = which;
        return this;
    }

    /** "No space left on device" where the predicate on (operation, path) says, e.g. ("journal", journal.json). */
    public FailingFileOps diskFull(BiPredicate<String, Path> where) {
        this.full = where;
        return this;
    }

    /** Files a "running program" holds open, as Windows reports it. */
    public FailingFileOps inUse(Predicate<Path> which) {
        this.inUse = which;
        return this;
    }

    private void tick(String op, Path p) throws IOException {
        calls++;
        if (failAt.contains(calls)) {
            throw new IOException("injected failure at call " + calls + " (" + op + " " + p + ")");
        }
        if (readOnly.test(p)) {
            throw new AccessDeniedException(p.toString(), null, "Access is denied");
        }
        if (full.test(op, p)) {
            throw new FileSystemException(p.toString(), null, "No space left on device");
        }
    }

    @Override
    public void createDirectory(Path dir) throws IOException {
        tick("mkdir", dir);
        real.createDirectory(dir);
    }

    @Override
    public void move(Path from, Path to) throws IOException {
        tick("move", to);
        if (readOnly.test(from)) {
            throw new AccessDeniedException(from.toString(), null, "Access is denied");
        }
        real.move(from, to);
    }

    @Override
    public void delete(Path path) throws IOException {
        tick("delete", path);
        real.delete(path);
    }

    @Override
    public OutputStream newFile(Path file) throws IOException {
        tick("write", file);
        return real.newFile(file);
    }

    @Override
    public void createSymbolicLink(Path link, String target) throws IOException {
        tick("symlink", link);
        real.createSymbolicLink(link, target);
    }

    @Override
    public void setMode(Path file, int mode) throws IOException {
        tick("chmod", file);
        real.setMode(file, mode);
    }

    @Override
    public void writeAtomically(Path file, byte[] content) throws IOException {
        tick("journal", file);
        real.writeAtomically(file, content);
    }

    @Override
    public void appendLine(Path file, String line) throws IOException {
        tick("journal-log", file);
        real.appendLine(file, line);
    }

    @Override
    public void checkNotInUse(Path file) throws IOException {
        tick("in-use", file);
        if (inUse.test(file)) {
            throw new FileSystemException(file.toString(), null,
                    "The process cannot access the file because it is being used by another process");
        }
        real.checkNotInUse(file);
    }

    @Override
    public void checkWritable(Path dir) throws IOException {
        tick("probe-write", dir);
        real.checkWritable(dir);
    }

    @Override
    public TreeRemoval.SameFileSystem sameFileSystem() {
        return real.sameFileSystem();
    }
}
