package dev.cudnntool.install;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads, writes and replays journals. Replaying looks only at the file system: a move is done
 * when its source is gone and its destination exists, so replay after a crash at any point
 * neither repeats nor skips a step.
 */
public final class JournalRunner {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /**
     * Fault-injection hook for the kill test only: a pause after each forward step, so a test can
     * SIGKILL a real install in the middle of its commit. Zero (off) unless the property is set.
     */
    private static final long STEP_DELAY_MS = Long.getLong("cudnn-tool.fault.commitStepDelayMs", 0);
    private final FileOps ops;
    private final FileSystem fs;

    public JournalRunner(FileOps ops, FileSystem fs) {
        this.ops = ops;
        this.fs = fs;
    }

    public static Path journalFile(Path stateDir) {
        return stateDir.resolve("journal.json");
    }

    public void write(Path stateDir, Journal j) throws IOException {
        ops.writeAtomically(journalFile(stateDir), JSON.writeValueAsBytes(j));
    }

    public static Journal read(Path stateDir) throws IOException {
        Path f = journalFile(stateDir);
        return Files.isRegularFile(f) ? JSON.readValue(Files.readAllBytes(f), Journal.class) : null;
    }

    public void forward(List<Journal.Op> list) throws IOException {
        for (Journal.Op op : list) {
            Path to = fs.getPath(op.to());
            switch (op.type()) {
                case "mkdir" -> {
                    if (!exists(to)) {
                        ops.createDirectory(to);
                    }
                }
                case "rmdir" -> {
                    if (exists(to) && isEmptyDir(to)) {
                        ops.delete(to);
                    }
                }
                case "move" -> {
                    Path from = fs.getPath(op.from());
                    boolean f = exists(from);
                    boolean t = exists(to);
                    if (f && !t) {
                        ops.move(from, to);
                    } else if (!f && !t) {
                        throw new IOException(from + " is missing: it was moved or deleted by something else");
                    } else if (f) {
                        throw new IOException(to + " exists although the journal has not put it there");
                    }
                }
                default -> throw new IOException("unknown journal step " + op.type());
            }
            pauseForFaultInjection();
        }
    }

    private static void pauseForFaultInjection() {
        if (STEP_DELAY_MS > 0) {
            try {
                Thread.sleep(STEP_DELAY_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public void backward(List<Journal.Op> list) throws IOException {
        for (int i = list.size() - 1; i >= 0; i--) {
            Journal.Op op = list.get(i);
            Path to = fs.getPath(op.to());
            switch (op.type()) {
                case "mkdir" -> {
                    if (exists(to)) {
                        if (!isEmptyDir(to)) {
                            throw new IOException(to + " is not empty, so it cannot be removed");
                        }
                        ops.delete(to);
                    }
                }
                case "rmdir" -> {
                    if (!exists(to)) {
                        ops.createDirectory(to);
                    }
                }
                case "move" -> {
                    Path from = fs.getPath(op.from());
                    if (exists(to) && !exists(from)) {
                        mkdirs(from.getParent()); // a staging folder may have been cleaned already
                        ops.move(to, from);
                    }
                }
                default -> throw new IOException("unknown journal step " + op.type());
            }
        }
    }

    private void mkdirs(Path dir) throws IOException {
        if (dir == null || exists(dir)) {
            return;
        }
        mkdirs(dir.getParent());
        ops.createDirectory(dir);
    }

    /** Deletes a folder of the tool's own (staging, history entry) with everything in it. */
    public void deleteTree(Path dir) throws IOException {
        if (!exists(dir)) {
            return;
        }
        List<Path> all;
        try (Stream<Path> s = Files.walk(dir)) {
            all = new ArrayList<>(s.sorted(Comparator.reverseOrder()).toList());
        }
        for (Path p : all) {
            ops.delete(p);
        }
    }

    static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    static boolean isEmptyDir(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            return !ds.iterator().hasNext();
        }
    }
}
