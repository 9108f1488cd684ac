package dev.cudnntool.host;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The folders the system loader searches for a library loaded by bare name, in its order.
 * Windows (standard search order, SafeDllSearchMode): System32, the Windows folder, then PATH.
 * Linux: LD_LIBRARY_PATH, the folders of /etc/ld.so.conf (what ldconfig caches), the defaults.
 */
public final class LoaderPath {
    private static final List<String> LINUX_DEFAULTS = List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
            "/lib64", "/usr/lib64", "/lib", "/usr/lib");

    private LoaderPath() {
    }

    public static List<Path> searchOrder(Host host) {
        List<Path> out = new ArrayList<>();
        if (host.windows()) {
            String root = host.env("SystemRoot") == null ? "C:\\Windows" : host.env("SystemRoot");
            out.add(host.path(root, "System32"));
            out.add(host.path(root));
            out.addAll(SearchPath.entries(host, host.env("PATH")));
        } else {
            out.addAll(SearchPath.entries(host, host.env("LD_LIBRARY_PATH")));
            out.addAll(ldSoConf(host));
            for (String d : LINUX_DEFAULTS) {
                out.add(host.path(d));
            }
        }
        return out;
    }

    /** The folders named by /etc/ld.so.conf and the files it includes. */
    public static List<Path> ldSoConf(Host host) {
        List<Path> out = new ArrayList<>();
        readConf(host, host.path("/etc/ld.so.conf"), out, 0);
        return out;
    }

    private static void readConf(Host host, Path conf, List<Path> out, int depth) {
        if (depth > 8 || !Files.isRegularFile(conf)) {
            return;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(conf);
        } catch (IOException e) {
            return;
        }
        for (String line : lines) {
            int hash = line.indexOf('#');
            String l = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (l.isEmpty() || l.startsWith("hwcap")) {
                continue;
            }
            if (l.startsWith("include")) {
                for (String pattern : l.substring("include".length()).strip().split("\\s+")) {
                    Path p = pattern.startsWith("/") ? host.path(pattern) : conf.getParent().resolve(pattern);
                    Path dir = p.getParent();
                    String glob = p.getFileName().toString();
                    if (dir == null || !Files.isDirectory(dir)) {
                        continue;
                    }
                    List<Path> files = new ArrayList<>();
                    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob)) {
                        ds.forEach(files::add);
                    } catch (IOException ignored) {
                        // unreadable include: skipped, as ldconfig does
                    }
                    files.sort(null);
                    for (Path f : files) {
                        readConf(host, f, out, depth + 1);
                    }
                }
                continue;
            }
            for (String dir : l.split("[\\s,:]+")) {
                if (dir.startsWith("/")) {
                    out.add(host.path(dir).normalize());
                }
            }
        }
    }

    /** True when {@code dir} (or what it links to) is one of {@code dirs}. */
    public static int indexOf(Host host, List<Path> dirs, Path dir) {
        Path real = realOrSelf(dir);
        for (int i = 0; i < dirs.size(); i++) {
            Path d = dirs.get(i);
            if (host.samePath(d, dir) || host.samePath(realOrSelf(d), real)) {
                return i;
            }
        }
        return -1;
    }

    static Path realOrSelf(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | RuntimeException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
