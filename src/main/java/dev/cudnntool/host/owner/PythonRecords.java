package dev.cudnntool.host.owner;
import dev.cudnntool.BoundedFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * pip's records: each {@code <site-packages>/<name>-<version>.dist-info/RECORD} lists, as CSV, every
 * file the wheel installed, relative to the site-packages folder. The RECORDs of cuDNN's own wheels
 * are read first, then the frameworks', then the rest, within a budget of {@value #BUDGET} bytes per
 * site-packages; at most {@value #MAX_DIST_INFOS} dist-info folders. Name and version come from
 * {@code METADATA} (header only), else from the folder's name; both must look like a package's.
 */
final class PythonRecords {
    static final int MAX_DIST_INFOS = 5000;
    static final long BUDGET = 256L << 20;
    static final long RECORD_MAX = 32L << 20;

    private PythonRecords() {
    }

    /** The site-packages (or dist-packages) folder {@code file} lies in, at most six levels up. */
    static Optional<Path> siteOf(Path file) {
        Path p = file.getParent();
        for (int i = 0; p != null && i < 6; i++, p = p.getParent()) {
            Path name = p.getFileName();
            if (name != null && (name.toString().equalsIgnoreCase("site-packages") || name.toString().equals("dist-packages"))) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    static Optional<Owner> ownerOf(Path site, Path file) {
        return ownerOf(site, file, unread -> { });
    }

    /** @param unread told each RECORD that could not be read (it may list the file: the owner was not checked) */
    static Optional<Owner> ownerOf(Path site, Path file, Consumer<Path> unread) {
        String rel = relative(site, file);
        if (rel == null) {
            return Optional.empty();
        }
        List<Path> infos = PackageNames.records(site, "*.dist-info", MAX_DIST_INFOS);
        PackageNames.Budget budget = new PackageNames.Budget(BUDGET);
        for (Path info : infos) {
            Path record = info.resolve("RECORD");
            try {
                if (!budget.admits(record, RECORD_MAX)) {
                    continue;
                }
                boolean[] listed = {false};
                BoundedFiles.forEachLine(record, RECORD_MAX, line -> !(listed[0] = rel.equals(firstField(line))));
                if (listed[0]) {
                    return Optional.of(named(info, site));
                }
            } catch (IOException e) {
                unread.accept(record); // an unreadable RECORD names nothing, and says so
            } catch (RuntimeException ignored) {
                // a RECORD that is not text names nothing
            }
        }
        return Optional.empty();
    }

    /** The file as RECORD writes it: relative, with forward slashes; null when it is not inside. */
    static String relative(Path base, Path file) {
        if (!file.startsWith(base)) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (Path part : base.relativize(file)) {
            parts.add(part.toString());
        }
        return String.join("/", parts);
    }

    /** The first CSV field (RECORD quotes a path holding a comma or a quote). */
    static String firstField(String line) {
        if (!line.startsWith("\"")) {
            int comma = line.indexOf(',');
            return comma < 0 ? line : line.substring(0, comma);
        }
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    b.append('"');
                    i++;
                } else {
                    return b.toString();
                }
            } else {
                b.append(c);
            }
        }
        return null; // unterminated: not a path
    }

    private static Owner named(Path info, Path site) {
        String[] header = new String[2]; // Name:, Version:
        try {
            BoundedFiles.forEachLine(info.resolve("METADATA"), BoundedFiles.TEXT, line -> {
                if (line.startsWith("Name: ") && header[0] == null) {
                    header[0] = PackageNames.name(line.substring(6));
                } else if (line.startsWith("Version: ") && header[1] == null) {
                    header[1] = PackageNames.version(line.substring(9));
                }
                return !line.isEmpty(); // the header ends; the description follows
            });
        } catch (IOException | RuntimeException ignored) {
            // no METADATA: the folder's name says it
        }
        String name = header[0];
        String version = header[1];
        String folder = info.getFileName().toString();
        folder = folder.substring(0, folder.length() - ".dist-info".length());
        int dash = folder.indexOf('-');
        if (name == null) {
            name = PackageNames.name(dash < 0 ? folder : folder.substring(0, dash).replace('_', '-'));
        }
        if (version == null && dash >= 0) {
            version = PackageNames.version(folder.substring(dash + 1));
        }
        return new Owner(Owner.Kind.PIP, name == null ? "?" : name, version, site.toString());
    }
}
