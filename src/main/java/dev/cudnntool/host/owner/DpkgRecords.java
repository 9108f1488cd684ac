package dev.cudnntool.host.owner;

import dev.cudnntool.BoundedFiles;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * dpkg's own records: {@code /var/lib/dpkg/info/<package>[:<arch>].list} (every path the package
 * installed, one per line) and {@code /var/lib/dpkg/status} (each package's version). Only the lists
 * of packages whose name holds "cudnn" are read (NVIDIA's {@code libcudnn9-cuda-12}, Debian's
 * {@code nvidia-cudnn}, …): a cuDNN library another package ships is not told apart from an unowned
 * one. Hostile input: at most {@value #MAX_LISTS} lists of {@link BoundedFiles#TEXT} each and
 * {@value #BUDGET} bytes and {@value #MAX_PATHS} paths in all, a status file of
 * {@link BoundedFiles#DOCUMENT} at most, read a line at a time; names and versions must look like dpkg's.
 */
final class DpkgRecords {
    static final int MAX_LISTS = 256;
    /** Bytes of lists read at most, all together (NVIDIA's packages list a few hundred paths). */
    static final long BUDGET = 64L << 20;
    /** Paths kept at most, all lists together. */
    static final int MAX_PATHS = 200_000;
    private final Path info;
    private final Path status;
    private Map<String, String> packageOfPath;
    private Map<String, String> versions;
    private final List<Path> unread = new ArrayList<>();

    DpkgRecords(Path dpkgRoot) {
        this.info = dpkgRoot.resolve("info");
        this.status = dpkgRoot.resolve("status");
    }

    boolean present() {
        return Files.isDirectory(info);
    }

    /** The owner of {@code path} (as written, or its real path), if a cuDNN package lists it. */
    Optional<Owner> ownerOf(List<String> paths) {
        if (packageOfPath == null) {
            packageOfPath = readLists();
        }
        for (String p : paths) {
            String pkg = packageOfPath.get(p);
            if (pkg != null) {
                return Optional.of(new Owner(Owner.Kind.DPKG, pkg, versions().get(pkg), null));
            }
        }
        return Optional.empty();
    }

    /** The cuDNN packages' lists that could not be read (so a file they list reads as unowned). */
    List<Path> unread() {
        return List.copyOf(unread);
    }

    private Map<String, String> readLists() {
        Map<String, String> out = new HashMap<>();
        List<Path> lists = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(info, "*cudnn*.list")) {
            for (Path p : ds) {
                if (lists.size() >= MAX_LISTS) {
                    break;
                }
                lists.add(p);
            }
        } catch (IOException e) {
            unread.add(info); // the folder of lists cannot be read: no cuDNN package's files are known
            return out;
        } catch (RuntimeException e) {
            return out;
        }
        lists.sort(null);
        PackageNames.Budget budget = new PackageNames.Budget(BUDGET);
        for (Path list : lists) {
            String file = list.getFileName().toString();
            String pkg = PackageNames.name(file.substring(0, file.length() - ".list".length()).replaceFirst(":[a-z0-9]+$", ""));
            if (pkg == null) {
                continue;
            }
            try {
                if (out.size() >= MAX_PATHS || !budget.admits(list, BoundedFiles.TEXT)) {
                    continue;
                }
                BoundedFiles.forEachLine(list, BoundedFiles.TEXT, line -> {
                    if (line.startsWith("/") && line.length() < 4096) {
                        out.putIfAbsent(line, pkg);
                    }
                    return out.size() < MAX_PATHS;
                });
            } catch (IOException e) {
                unread.add(list); // an unreadable or oversized list names nothing, and says so
            } catch (RuntimeException ignored) {
                // a list that is not text names nothing
            }
        }
        return out;
    }

    private Map<String, String> versions() {
        if (versions != null) {
            return versions;
        }
        versions = new HashMap<>();
        String[] pkg = {null};
        try {
            BoundedFiles.forEachLine(status, BoundedFiles.DOCUMENT, line -> {
                if (line.isEmpty()) {
                    pkg[0] = null;
                } else if (line.startsWith("Package: ")) {
                    pkg[0] = PackageNames.name(line.substring(9));
                } else if (line.startsWith("Version: ") && pkg[0] != null && pkg[0].contains("cudnn")) {
                    String v = PackageNames.version(line.substring(9));
                    if (v != null) {
                        versions.putIfAbsent(pkg[0], v);
                    }
                }
                return versions.size() < MAX_LISTS;
            });
        } catch (IOException | RuntimeException e) {
            // unreadable or oversized: the versions read before it stand
        }
        return versions;
    }
}
