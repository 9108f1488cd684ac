package dev.cudnntool.host.owner;
import dev.cudnntool.BoundedFiles;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** What a package manager's name or version may look like; anything else read from its records is refused. */
final class PackageNames {
    /**
     * A byte budget over one package manager's records: a record is read only when it is a regular file (not a link
     * out, a FIFO or a device) of at most a record's bound that still fits what is left.
     */
    static final class Budget {
        private long left;

        Budget(long bytes) {
            this.left = bytes;
        }

        /** Whether {@code record} may be read; its size is then spent. */
        boolean admits(Path record, long max) throws IOException {
            if (!BoundedFiles.isRegularFile(record)) {
                return false;
            }
            long size = Files.size(record);
            if (size > max || size > left) {
                return false;
            }
            left -= size;
            return true;
        }
    }

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]{0,199}");
    private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+:~!-]{0,99}");

    private PackageNames() {
    }

    static String name(String s) {
        return s != null && NAME.matcher(s.strip()).matches() ? s.strip() : null;
    }

    static String version(String s) {
        return s != null && VERSION.matcher(s.strip()).matches() ? s.strip() : null;
    }

    /** The records worth reading first: cuDNN's own packages, then the frameworks that bundle it. */
    static int priority(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (n.contains("cudnn")) {
            return 0;
        }
        if (n.startsWith("torch") || n.startsWith("tensorflow") || n.startsWith("jax") || n.startsWith("onnxruntime")
                || n.startsWith("paddle") || n.startsWith("nvidia")) {
            return 1;
        }
        return 2;
    }

    /**
     * At most {@code max} entries of {@code dir} matching {@code glob}, cuDNN's records first, then the
     * frameworks', then the rest (each group by name); empty when the folder cannot be listed.
     */
    static List<Path> records(Path dir, String glob, int max) {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob)) {
            for (Path p : ds) {
                if (out.size() >= max) {
                    break;
                }
                out.add(p);
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        out.sort(Comparator.comparingInt((Path p) -> priority(p.getFileName().toString())).thenComparing(p -> p.getFileName().toString()));
        return out;
    }
}
