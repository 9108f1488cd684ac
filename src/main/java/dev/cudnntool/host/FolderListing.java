package dev.cudnntool.host;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * #32 item 7: the one bounded way the scans list a folder's cuDNN names. At most {@link #MAX_NAMES}
 * matching names are read per folder; a listing cut there is told to the recording around it (the
 * {@code scan.incomplete} warning names the folder and how many names were read). Everything done with
 * the names afterwards is linear in them.
 */
public final class FolderListing {
    /** Names read per folder (matching the pattern): far above any real folder, well below a hang. */
    public static final int MAX_NAMES = 10_000;

    /** A folder whose listing stopped at the bound: {@code read} names were read. */
    public record Cut(Path folder, int read) {
    }

    private static final ThreadLocal<List<Cut>> RECORDING = new ThreadLocal<>();

    private FolderListing() {
    }

    /** The names in {@code dir} matching {@code glob} (file system rules), sorted; at most {@link #MAX_NAMES}. */
    public static List<Path> glob(Path dir, String glob) {
        if (dir == null) {
            return new ArrayList<>();
        }
        PathMatcher m = dir.getFileSystem().getPathMatcher("glob:" + glob);
        return list(dir, name -> m.matches(dir.getFileSystem().getPath(name)), MAX_NAMES);
    }

    /** The names in {@code dir} whose file name {@code keep} accepts, sorted; at most {@link #MAX_NAMES}. */
    public static List<Path> list(Path dir, Predicate<String> keep) {
        return list(dir, keep, MAX_NAMES);
    }

    static List<Path> list(Path dir, Predicate<String> keep, int max) {
        List<Path> out = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) {
            return out;
        }
        boolean cut = false;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                Path name = p.getFileName();
                if (name == null || !keep.test(name.toString())) {
                    continue;
                }
                if (out.size() >= max) {
                    cut = true;
                    break;
                }
                out.add(p);
            }
        } catch (IOException | RuntimeException ignored) {
            // unreadable folder: nothing found there
        }
        if (cut) {
            record(new Cut(dir, out.size()));
        }
        out.sort(null);
        return out;
    }

    private static void record(Cut c) {
        List<Cut> into = RECORDING.get();
        if (into == null) {
            return;
        }
        Path real = RealPaths.real(c.folder()); // one folder reached by two names (lib64 -> targets/x86_64-linux/lib) is one cut
        if (into.stream().noneMatch(x -> x.folder().equals(c.folder()) || RealPaths.real(x.folder()).equals(real))) { // a few cuts at most
            into.add(c);
        }
    }

    /** Runs {@code work} on this thread, adding every listing it cut to {@code cuts} (each folder once). */
    public static <T> T recording(List<Cut> cuts, Supplier<T> work) {
        List<Cut> before = RECORDING.get();
        RECORDING.set(cuts);
        try {
            return work.get();
        } finally {
            if (before == null) {
                RECORDING.remove();
            } else {
                RECORDING.set(before);
            }
        }
    }
}
