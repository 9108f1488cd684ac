package dev.cudnntool.host.loader;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Text;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.RealPaths;
import dev.cudnntool.host.searchpath.SearchPath;
import dev.cudnntool.host.searchpath.SearchPathStores;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where the system loader looks for a library loaded by bare name, in its order, and which
 * mechanism put each folder there (so a fix can name it).
 * Windows (standard search order, SafeDllSearchMode): the program's own folder, System32, the
 * Windows folder, then PATH. Linux (ld.so(8)): the caller's DT_RPATH (only without DT_RUNPATH),
 * LD_LIBRARY_PATH, the caller's DT_RUNPATH, the entries of /etc/ld.so.cache (what ldconfig last
 * cached, not what /etc/ld.so.conf.d names now), then the default folders.
 */
public final class LoaderPath {
    private static final List<String> LINUX_DEFAULTS = List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
            "/lib64", "/usr/lib64", "/lib", "/usr/lib");

    /** Why the loader searches a folder. */
    public enum Mechanism {
        PRELOAD, RPATH, LD_LIBRARY_PATH, RUNPATH, LD_SO_CACHE, DEFAULT_FOLDER, APPLICATION_FOLDER, SYSTEM32, WINDOWS_FOLDER, PATH
    }

    /** A folder the loader searches, and what put it there ({@code detail}: the ld.so.conf line, ...). */
    public record Place(Path dir, Mechanism mechanism, String detail) {
        /** The mechanism in words, for messages. */
        public String describe() {
            return switch (mechanism) {
                case PRELOAD -> "preloading (" + detail + "), which comes before every folder";
                case RPATH -> detail == null ? "the program's DT_RPATH" : "the DT_RPATH of " + detail;
                case RUNPATH -> "the program's DT_RUNPATH";
                case LD_LIBRARY_PATH -> "LD_LIBRARY_PATH";
                case LD_SO_CACHE -> "/etc/ld.so.cache" + (detail == null ? "" : " (" + detail + ")");
                case DEFAULT_FOLDER -> "the system folder " + dir;
                case APPLICATION_FOLDER -> "the program's own folder";
                case SYSTEM32 -> "System32";
                case WINDOWS_FOLDER -> "the Windows folder";
                case PATH -> "the PATH entry " + dir + (detail == null ? "" : " (" + detail + ")");
            };
        }
    }

    /** The file the loader takes for a name, and the place it was found through. */
    public record Hit(Path file, Place place) {
    }

    /** A line of /etc/ld.so.conf or a file it includes that names a folder. */
    public record ConfLine(Path file, int line, Path dir) {
        @Override
        public String toString() {
            return file + " line " + line;
        }
    }

    private LoaderPath() {
    }

    public static List<Place> places(Host host, LdSoCache cache) {
        List<Place> out = new ArrayList<>();
        if (host.windows()) {
            String root = host.env("SystemRoot") == null ? "C:\\Windows" : host.env("SystemRoot");
            out.add(new Place(host.path(root, "System32"), Mechanism.SYSTEM32, null));
            out.add(new Place(host.path(root), Mechanism.WINDOWS_FOLDER, null));
            for (Path p : SearchPath.entries(host, host.env("PATH"))) {
                out.add(new Place(p, Mechanism.PATH, windowsPathOrigin(host, p)));
            }
            return out;
        }
        for (Path p : SearchPath.libraryPath(host)) {
            out.add(new Place(p, Mechanism.LD_LIBRARY_PATH, null));
        }
        List<ConfLine> conf = ldSoConfLines(host);
        List<Path> cached = new ArrayList<>();
        for (LdSoCache.Entry e : cache.entries()) {
            Path dir = e.path().getParent();
            if (dir != null && cached.stream().noneMatch(c -> host.samePath(c, dir))) {
                cached.add(dir);
                out.add(new Place(dir, Mechanism.LD_SO_CACHE, confLine(host, conf, dir).map(c -> "listed in " + c).orElse(null)));
            }
        }
        for (String d : LINUX_DEFAULTS) {
            out.add(new Place(host.path(d), Mechanism.DEFAULT_FOLDER, null));
        }
        return out;
    }

    /**
     * Which variable holds a Windows PATH entry: the user's or the machine's Path in the registry,
     * or only this process's environment (set by a script or a terminal); null when not known.
     */
    static String windowsPathOrigin(Host host, Path dir) {
        if (host.registryPath().isEmpty()) {
            return null; // the registry was not read (a test host, or no registry)
        }
        String user = String.join(";", host.registryPath().get().user());
        String machine = String.join(";", host.registryPath().get().machine());
        if (SearchPath.entries(host, machine).stream().anyMatch(m -> host.samePath(m, dir))) {
            return "in the machine Path: HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment,"
                    + " System Properties > Environment Variables > System variables";
        }
        if (SearchPath.entries(host, user).stream().anyMatch(u -> host.samePath(u, dir))) {
            return "in the user Path: HKCU\\Environment, System Properties > Environment Variables > User variables";
        }
        return "set only in this process's environment, by the terminal or a script that started it";
    }

    /**
     * The file a program gets for {@code name} loaded by bare name.
     * @param rpath   the loading object's DT_RPATH folders ($ORIGIN expanded), used only without a runpath
     * @param runpath the loading object's DT_RUNPATH folders
     */
    public static Optional<Hit> find(Host host, LdSoCache cache, String name, List<Path> rpath, List<Path> runpath) {
        return findFrom(host, cache, name, runpath.isEmpty() ? rpath.stream().map(d -> new Place(d, Mechanism.RPATH, null)).toList()
                : List.of(), runpath);
    }

    /**
     * As {@link #find}, with the DT_RPATH folders already chosen and in order ({@code rpath}: the loading object's own,
     * then those of the objects that loaded it and of the executable, each place naming whose it is).
     */
    public static Optional<Hit> findFrom(Host host, LdSoCache cache, String name, List<Place> rpath, List<Path> runpath) {
        if (host.windows()) {
            for (Place p : places(host, cache)) {
                Path f = p.dir().resolve(name);
                if (Files.exists(f)) {
                    return Optional.of(new Hit(f, p));
                }
            }
            return Optional.empty();
        }
        List<Place> order = new ArrayList<>(rpath);
        for (Path p : SearchPath.libraryPath(host)) {
            order.add(new Place(p, Mechanism.LD_LIBRARY_PATH, null));
        }
        runpath.forEach(d -> order.add(new Place(d, Mechanism.RUNPATH, null)));
        for (Place p : order) {
            Path f = p.dir().resolve(name);
            if (Files.exists(f)) {
                return Optional.of(new Hit(f, p));
            }
        }
        Optional<LdSoCache.Entry> e = cache.lookup(name, host.arch());
        if (e.isPresent() && e.get().path().getParent() != null && Files.exists(e.get().path())) {
            Path dir = e.get().path().getParent();
            return Optional.of(new Hit(e.get().path(), new Place(dir, Mechanism.LD_SO_CACHE,
                    confLine(host, ldSoConfLines(host), dir).map(c -> "listed in " + c).orElse(null))));
        }
        for (String d : LINUX_DEFAULTS) {
            Path f = host.path(d).resolve(name);
            if (Files.exists(f)) {
                return Optional.of(new Hit(f, new Place(host.path(d), Mechanism.DEFAULT_FOLDER, null)));
            }
        }
        return Optional.empty();
    }

    /** The folders named by /etc/ld.so.conf and the files it includes. */
    public static List<Path> ldSoConf(Host host) {
        return ldSoConfLines(host).stream().map(ConfLine::dir).toList();
    }

    /** Every folder line of /etc/ld.so.conf and its includes, with file and line number. */
    public static List<ConfLine> ldSoConfLines(Host host) {
        return readConf(host).lines();
    }

    /**
     * {@code search-path.conf-skipped}: each line or file of /etc/ld.so.conf and its includes that
     * was not followed (a bad include pattern, includes too deep or too many, a file too large or
     * not a regular file), with file and line; and {@code search-path.current-dir} when
     * LD_LIBRARY_PATH has an empty entry.
     */
    public static List<Finding> environmentFindings(Host host) {
        List<Finding> out = new ArrayList<>();
        if (host.windows()) {
            return out;
        }
        if (SearchPath.hasEmptyEntry(host, host.env("LD_LIBRARY_PATH"))) {
            out.add(Finding.warn(FindingId.SEARCH_PATH_CURRENT_DIR, "LD_LIBRARY_PATH has an empty entry, which means the current folder ("
                            + host.currentDir() + " now): the loader searches whatever folder a program is started from, so a"
                            + " library planted there is loaded first",
                    "remove the empty entry (a leading or trailing ':', or '::') from LD_LIBRARY_PATH where your shell profile"
                            + " or job script sets it"));
        }
        out.addAll(confFindings(host));
        return out;
    }

    /** {@code search-path.conf-skipped} for each line or file of /etc/ld.so.conf not followed. */
    public static List<Finding> confFindings(Host host) {
        List<Finding> out = new ArrayList<>();
        if (host.windows()) {
            return out;
        }
        for (String problem : readConf(host).problems()) {
            out.add(Finding.warn(FindingId.SEARCH_PATH_CONF_SKIPPED, problem + "; the loader may search folders this report"
                    + " does not show", "check that line of the loader's configuration, then run sudo ldconfig"));
        }
        return out;
    }

    /** What /etc/ld.so.conf and its includes name, and what could not be followed. */
    record Conf(List<ConfLine> lines, List<String> problems) {
    }

    private static final int MAX_DEPTH = 8;
    private static final int MAX_FILES = 512;
    private static final int MAX_LINES = 65_536;
    private static final long MAX_CONF_BYTES = 1 << 20;

    private static Conf readConf(Host host) {
        ConfReader r = new ConfReader(host);
        if (!host.windows()) {
            r.read(host.path("/etc/ld.so.conf"), 0, null);
        }
        return new Conf(List.copyOf(r.lines), List.copyOf(r.problems));
    }

    /**
     * Bounded like ldconfig's own limits should be: each file read once (an include loop ends), at
     * most MAX_DEPTH deep, MAX_FILES files and MAX_LINES lines in all, each file at most
     * BoundedFiles.TEXT bytes and a regular file.
     */
    private static final class ConfReader {
        final Host host;
        final List<ConfLine> lines = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        int lineCount;

        ConfReader(Host host) {
            this.host = host;
        }

        void read(Path conf, int depth, String from) {
            if (!Files.exists(conf)) {
                return; // absent (or a dangling link): nothing to read, as for ldconfig
            }
            if (depth > MAX_DEPTH) {
                problem(from, "includes nest more than " + MAX_DEPTH + " deep; " + conf + " was not read there");
                return;
            }
            if (!seen.add(conf.toAbsolutePath().normalize().toString())) {
                return; // read once: an include loop ends here, and a second read would name the same folders
            }
            if (seen.size() > MAX_FILES) {
                problem(from, "includes more than " + MAX_FILES + " files; " + conf + " and the rest were not read");
                return;
            }
            if (!BoundedFiles.isRegularFile(conf)) {
                if (!Files.isDirectory(conf)) {
                    problem(from, conf + " is not a regular file (a FIFO, socket or device); it was not read");
                }
                return;
            }
            List<String> text;
            try {
                text = BoundedFiles.readLines(conf, MAX_CONF_BYTES);
            } catch (IOException e) {
                problem(from, e.getMessage() == null ? conf + " cannot be read" : Text.printable(e.getMessage()));
                return;
            }
            for (int n = 0; n < text.size(); n++) {
                if (++lineCount > MAX_LINES) {
                    problem(conf + " line " + (n + 1), "the loader's configuration has more than " + MAX_LINES
                            + " lines; the rest were not read");
                    return;
                }
                String line = text.get(n);
                int hash = line.indexOf('#');
                String l = (hash >= 0 ? line.substring(0, hash) : line).strip();
                if (l.isEmpty() || l.startsWith("hwcap")) {
                    continue;
                }
                String where = conf + " line " + (n + 1);
                if (l.startsWith("include")) {
                    for (String pattern : l.substring("include".length()).strip().split("\\s+")) {
                        include(conf, pattern, depth, where);
                    }
                    continue;
                }
                for (String dir : l.split("[\\s,:]+")) {
                    if (dir.startsWith("/")) {
                        try {
                            lines.add(new ConfLine(conf, n + 1, host.path(dir).normalize()));
                        } catch (RuntimeException e) {
                            problem(where, "names a folder no path can hold");
                        }
                    }
                }
            }
        }

        private void include(Path conf, String pattern, int depth, String where) {
            if (pattern.isEmpty()) {
                return;
            }
            List<Path> files = new ArrayList<>();
            try {
                Path p = pattern.startsWith("/") ? host.path(pattern) : conf.toAbsolutePath().getParent().resolve(pattern);
                Path dir = p.getParent();
                if (dir == null || p.getFileName() == null || !Files.isDirectory(dir)) {
                    return;
                }
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, p.getFileName().toString())) {
                    for (Path f : ds) {
                        files.add(f);
                        if (files.size() > MAX_FILES) {
                            break;
                        }
                    }
                }
            } catch (IOException e) {
                return; // unreadable include: skipped, as ldconfig does
            } catch (RuntimeException e) {
                problem(where, "the include pattern '" + Text.printable(pattern) + "' is not a pattern this tool can follow ("
                        + Text.printable(String.valueOf(e.getMessage()).lines().findFirst().orElse("")) + ")");
                return;
            }
            files.sort(null);
            for (Path f : files) {
                read(f, depth + 1, where);
            }
        }

        private void problem(String where, String what) {
            problems.add((where == null ? "" : where + ": ") + what);
        }
    }

    /** The line that names {@code dir} (or the folder it links to). */
    public static Optional<ConfLine> confLine(Host host, List<ConfLine> lines, Path dir) {
        Path real = host.realPath(dir);
        for (ConfLine c : lines) {
            if (host.samePath(c.dir(), dir) || host.samePath(host.realPath(c.dir()), real)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * The position of {@code dir} in {@code dirs}, or -1: the same name, the same real path (links
     * resolved; the kernel bounds the hops) or the same file key (a bind mount, a second name).
     */
    public static int indexOf(Host host, List<Path> dirs, Path dir) {
        Path real = host.realPath(dir);
        Object key = fileKey(dir);
        for (int i = 0; i < dirs.size(); i++) {
            Path d = dirs.get(i);
            if (host.samePath(d, dir) || host.samePath(host.realPath(d), real) || key != null && key.equals(fileKey(d))) {
                return i;
            }
        }
        return -1;
    }

    private static Object fileKey(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class).fileKey();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

}
