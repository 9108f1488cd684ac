package dev.cudnntool.diagnosis;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.HeaderVersion;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.archive.name.LibraryName;
import dev.cudnntool.host.FolderListing;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.fetch.SafeFiles;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.searchpath.LdSoConfPathStore;
import dev.cudnntool.host.searchpath.SearchPath;
import dev.cudnntool.target.TargetLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every cuDNN on the machine, read-only (file names, link chains, headers; nothing is loaded):
 * the target, other toolkits, the distribution's (/usr/lib/x86_64-linux-gnu), Python wheels
 * (site-packages/nvidia/cudnn, torch/lib), conda environments, and folders on PATH or
 * LD_LIBRARY_PATH. Says which one a program loading cuDNN by name gets, and which one PyTorch
 * loads. Roots come from the host's environment (HOME, USERPROFILE, APPDATA, LOCALAPPDATA,
 * VIRTUAL_ENV, CONDA_PREFIX) and the current folder (a project's {@code .venv}), so tests inject them.
 */
public final class CopyFinder {
    private static final List<String> CONDA_ROOTS = List.of("miniconda3", "anaconda3", "miniforge3", "mambaforge");

    /** A folder that may hold cuDNN, where it came from, and where its headers would be. */
    record Place(Path dir, CudnnCopy.Origin origin, Path includeDir) {
    }

    private CopyFinder() {
    }

    /**
     * @param target   the verified install's runtime folder, or null
     * @param toolkits every toolkit found (the chosen one included)
     */
    public static List<CudnnCopy> find(Host host, Path target, List<Toolkit> toolkits) {
        List<Place> places = new ArrayList<>();
        if (target != null) {
            places.add(new Place(target, CudnnCopy.Origin.TARGET, null));
        }
        for (Toolkit t : toolkits) {
            for (TargetLayout.Folder f : TargetLayout.toolkit(t.root(), host.os()).libraryFolders(host.arch())) {
                places.add(new Place(f.runtime(), CudnnCopy.Origin.TOOLKIT, f.include()));
            }
        }
        if (!host.windows()) {
            for (String d : List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib")) {
                places.add(new Place(host.path(d), CudnnCopy.Origin.SYSTEM, host.path("/usr/include")));
            }
        }
        for (Path site : sitePackages(host)) {
            places.add(new Place(site.resolve("nvidia").resolve("cudnn").resolve(host.windows() ? "bin" : "lib"), CudnnCopy.Origin.PIP,
                    site.resolve("nvidia").resolve("cudnn").resolve("include")));
            places.add(new Place(site.resolve("torch").resolve("lib"), CudnnCopy.Origin.PIP, site.resolve("torch").resolve("include")));
        }
        for (Path env : condaEnvs(host)) {
            places.add(new Place(host.windows() ? env.resolve("Library").resolve("bin") : env.resolve("lib"), CudnnCopy.Origin.CONDA,
                    host.windows() ? env.resolve("Library").resolve("include") : env.resolve("include")));
        }
        for (WindowsInstallerLayout.Folder f : WindowsInstallerLayout.folders(host)) {
            places.add(new Place(f.bin(), CudnnCopy.Origin.INSTALLER, f.include()));
        }
        for (Path p : host.windows() ? SearchPath.entries(host, host.env("PATH")) : SearchPath.libraryPath(host)) {
            places.add(new Place(p, CudnnCopy.Origin.PATH, p.getParent() == null ? null : p.getParent().resolve("include")));
        }
        LdSoCache cache = host.windows() ? LdSoCache.empty() : LdSoCache.of(host);
        if (!host.windows()) {
            for (Path p : ldSoConfFolders(host, cache)) {
                places.add(new Place(p, CudnnCopy.Origin.LDCONFIG, p.getParent() == null ? null : p.getParent().resolve("include")));
            }
        }
        Map<Integer, Optional<Path>> winners = new LinkedHashMap<>();
        List<CudnnCopy> out = new ArrayList<>();
        Set<String> seen = new HashSet<>(); // linear in the copies (#32 item 7)
        for (Place place : places) {
            List<Path> libs = mainLibraries(host, place.dir());
            Map<Integer, String> siblings = libs.isEmpty() || host.windows() ? Map.of()
                    : LibrarySearchCheck.siblingVersions(FolderListing.glob(place.dir(), "libcudnn.so.*"));
            for (Path lib : libs) {
                Path real = host.realPath(lib);
                if (!seen.add(pathKey(host, real))) {
                    continue;
                }
                int major = LibraryName.parse(lib.getFileName().toString()).map(LibraryName::major).orElse(0);
                String version = LibrarySearchCheck.versionOfLibrary(host, lib, siblings);
                if (version == null || version.chars().filter(ch -> ch == '.').count() < 1) {
                    version = headerVersion(host, place.includeDir(), major).map(CudnnVersion::toString).orElse(version);
                }
                Optional<Path> winner = winners.computeIfAbsent(major, m -> LoaderPath.find(host, cache, bareName(host, m),
                        List.of(), List.of()).map(h -> host.realPath(h.file())));
                boolean wins = winner.isPresent() && host.samePath(winner.get(), real);
                out.add(new CudnnCopy(lib.toString(), major, version, place.origin(), wins, place.includeDir(), List.of()));
            }
        }
        return out;
    }

    /**
     * Folders the loader reaches only through its configuration (#33 item 2): each absolute folder line of
     * {@code /etc/ld.so.conf} and {@code /etc/ld.so.conf.d/*.conf}, and the folder of every cuDNN library
     * {@code /etc/ld.so.cache} names (a folder ldconfig was given once). Places already looked at come first in
     * {@link #find}, so a folder listed here is a copy of its own only where nothing else found it.
     */
    static List<Path> ldSoConfFolders(Host host, LdSoCache cache) {
        List<Path> out = new ArrayList<>();
        for (String line : new LdSoConfPathStore(host).persistentEntries()) {
            if (line.startsWith("/") && out.size() < 256) {
                try {
                    add(out, host.path(line));
                } catch (RuntimeException e) {
                    // a line that is no path on this file system names no folder
                }
            }
        }
        for (LdSoCache.Entry e : cache.entries()) {
            if (e.name().startsWith("libcudnn") && e.path() != null && e.path().getParent() != null && out.size() < 512) {
                add(out, e.path().getParent());
            }
        }
        return out;
    }

    public static String bareName(Host host, int major) {
        return host.windows() ? CudnnComponents.windowsDll("cudnn", major) : CudnnComponents.linuxSoname("cudnn", major);
    }

    private static Optional<CudnnVersion> headerVersion(Host host, Path includeDir, int major) {
        if (includeDir == null) {
            return Optional.empty();
        }
        List<Path> candidates = new ArrayList<>();
        for (Path dir : List.of(includeDir, includeDir.resolve(host.windows() ? "x64" : "x86_64-linux-gnu"))) {
            candidates.add(dir.resolve("cudnn_version_v" + major + ".h")); // Debian's packages, under alternatives
            candidates.add(dir.resolve("cudnn_version.h"));
        }
        for (Path h : candidates) {
            try {
                if (BoundedFiles.isRegularFile(h)) {
                    Optional<CudnnVersion> v = HeaderVersion.parse(BoundedFiles.readString(h, BoundedFiles.TEXT,
                            StandardCharsets.ISO_8859_1));
                    if (v.isPresent() && v.get().major() == major) {
                        return v;
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // unreadable header: no version from it
            }
        }
        return Optional.empty();
    }

    /** The main library of each major in a folder (the soname, else the first name of that major); linear in its names. */
    public static List<Path> mainLibraries(Host host, Path dir) {
        List<Path> out = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) {
            return out;
        }
        List<Path> files = FolderListing.glob(dir, host.windows() ? "{cudnn64_*.dll,CUDNN64_*.DLL}" : "libcudnn.so.*");
        Set<Integer> majors = new HashSet<>();
        for (Path f : files) {
            Optional<LibraryName> n = LibraryName.parse(f.getFileName().toString());
            if (n.isPresent() && n.get().base().equals("cudnn") && n.get().major() != null && majors.add(n.get().major())) {
                out.add(f);
            }
        }
        return out;
    }

    /** {@link Host#samePath}'s comparison as a key: absolute, normal, without case on Windows. */
    private static String pathKey(Host host, Path p) {
        String s = p.toAbsolutePath().normalize().toString();
        return host.windows() ? s.toLowerCase(Locale.ROOT) : s;
    }

    /** Python site-packages folders under the usual roots. */
    public static List<Path> sitePackages(Host host) {
        List<Path> out = new ArrayList<>();
        List<Path> envs = new ArrayList<>(condaEnvs(host));
        envs.addAll(0, projectVenvs(host));
        String venv = host.env("VIRTUAL_ENV");
        if (venv != null) {
            envs.add(0, host.path(venv));
        }
        if (host.windows()) {
            for (Path env : envs) {
                add(out, env.resolve("Lib").resolve("site-packages"));
            }
            for (String var : List.of("APPDATA", "LOCALAPPDATA")) {
                String root = host.env(var);
                if (root == null) {
                    continue;
                }
                Path base = var.equals("APPDATA") ? host.path(root, "Python") : host.path(root, "Programs", "Python");
                for (Path py : children(base, "Python3*")) {
                    add(out, var.equals("APPDATA") ? py.resolve("site-packages") : py.resolve("Lib").resolve("site-packages"));
                }
            }
            return out;
        }
        for (Path env : envs) {
            for (Path py : children(env.resolve("lib"), "python3*")) {
                add(out, py.resolve("site-packages"));
            }
        }
        String home = host.env("HOME");
        if (home != null) {
            for (Path py : children(host.path(home, ".local", "lib"), "python3*")) {
                add(out, py.resolve("site-packages"));
            }
        }
        for (String root : List.of("/usr/local/lib", "/usr/lib")) {
            for (Path py : children(host.path(root), "python3*")) {
                add(out, py.resolve("site-packages"));
                add(out, py.resolve("dist-packages"));
            }
        }
        return out;
    }

    /**
     * The site-packages of the active Python environment: VIRTUAL_ENV's, else CONDA_PREFIX's, else a project's
     * {@code .venv} (what uv and poetry run in), else the user's and the system's (never another conda environment).
     */
    public static List<Path> activeSitePackages(Host host) {
        List<Path> all = sitePackages(host);
        List<Path> roots = new ArrayList<>();
        for (String var : List.of("VIRTUAL_ENV", "CONDA_PREFIX")) {
            String v = host.env(var);
            if (roots.isEmpty() && v != null && !v.isBlank()) {
                roots.add(host.path(v));
            }
        }
        if (roots.isEmpty()) {
            roots.addAll(projectVenvs(host).stream().limit(1).toList());
        }
        if (!roots.isEmpty()) {
            return all.stream().filter(s -> roots.stream().anyMatch(s::startsWith)).toList();
        }
        List<Path> envs = condaEnvs(host);
        return all.stream().filter(s -> envs.stream().noneMatch(s::startsWith)).toList();
    }

    /** How many folders up from the current one a project's {@code .venv} is looked for. */
    static final int PROJECT_LEVELS = 6;

    /**
     * #19 A15: a project's virtual environment that is not activated: {@code .venv} (python -m venv .venv,
     * uv's and poetry's in-project environment) in the current folder or one of its parents, as uv finds
     * it; only a folder with the {@code pyvenv.cfg} every virtual environment has.
     */
    public static List<Path> projectVenvs(Host host) {
        return projectVenvs(host, true);
    }

    private static List<Path> projectVenvs(Host host, boolean trusted) {
        List<Path> out = new ArrayList<>();
        Path dir;
        try {
            dir = host.currentDir();
        } catch (RuntimeException e) {
            return out;
        }
        for (int i = 0; dir != null && i < PROJECT_LEVELS; i++, dir = dir.getParent()) {
            Path venv = dir.resolve(".venv");
            if (Files.isRegularFile(venv.resolve("pyvenv.cfg"))
                    && (untrusted(venv, venv.resolve("pyvenv.cfg")) == null) == trusted) {
                out.add(venv);
            }
        }
        return out;
    }

    /**
     * $CONDA_PREFIX (the user's choice: used as named), the base installs under the home folder and their
     * envs/* (found by scanning: only those {@link #untrusted} lets through, #32 item 4).
     */
    public static List<Path> condaEnvs(Host host) {
        return condaEnvs(host, true);
    }

    private static List<Path> condaEnvs(Host host, boolean trusted) {
        List<Path> out = new ArrayList<>();
        String prefix = host.env("CONDA_PREFIX");
        if (prefix != null && trusted) {
            add(out, host.path(prefix));
        }
        String home = host.env(host.windows() ? "USERPROFILE" : "HOME");
        if (home != null) {
            for (String r : CONDA_ROOTS) {
                Path root = host.path(home, r);
                if ((untrusted(root, null) == null) == trusted) {
                    add(out, root);
                }
                if (trusted && untrusted(root, null) != null) {
                    continue; // nothing is looked for under a root that is not trusted
                }
                out.addAll(children(root.resolve("envs"), "*").stream()
                        .filter(p -> !out.contains(p) && (untrusted(p, null) == null) == trusted).toList());
            }
        }
        return out;
    }

    /** A folder the tool found by itself and does not trust, with why (#32 item 4). */
    public record Skipped(Path folder, String why) {
    }

    /** The discovered folders (a project's .venv, conda installs and envs found by scanning) skipped as not trusted. */
    public static List<Skipped> skippedFolders(Host host) {
        List<Skipped> out = new ArrayList<>();
        for (Path p : projectVenvs(host, false)) {
            out.add(new Skipped(p, untrusted(p, p.resolve("pyvenv.cfg"))));
        }
        for (Path p : condaEnvs(host, false)) {
            if (!named(host, p)) { // the user's own choice of environment is used as named
                out.add(new Skipped(p, untrusted(p, null)));
            }
        }
        return out;
    }

    private static boolean named(Host host, Path p) {
        for (String var : List.of("VIRTUAL_ENV", "CONDA_PREFIX")) {
            String v = host.env(var);
            if (v != null && !v.isBlank() && host.samePath(host.path(v), p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * #32 item 4: why a folder the tool found by itself (not one the user named) is not the user's own, or null:
     * it (or its marker file, {@code pyvenv.cfg}), or the link that leads to it, is owned by neither the caller
     * nor root, or is writable by others. Where the file system tells no owners or modes (Windows), null.
     */
    static String untrusted(Path dir, Path marker) {
        UserPrincipal caller = SafeFiles.caller(dir.getFileSystem());
        for (Path p : marker == null ? List.of(dir) : List.of(dir, marker)) {
            for (LinkOption[] how : List.of(new LinkOption[] {LinkOption.NOFOLLOW_LINKS},
                    new LinkOption[0])) {
                try {
                    if (!Files.exists(p, how)) {
                        continue;
                    }
                    String owner = Files.getOwner(p, how).getName();
                    if (caller != null && !owner.equals(caller.getName()) && !owner.equals("root")) {
                        return p + " is owned by " + owner;
                    }
                    if (how.length == 0 && Files.readAttributes(p, PosixFileAttributes.class)
                            .permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
                        return p + " is writable by others";
                    }
                } catch (IOException | RuntimeException x) {
                    // no owners or modes told here
                }
            }
        }
        return null;
    }

    private static void add(List<Path> out, Path dir) {
        if (Files.isDirectory(dir) && !out.contains(dir)) {
            out.add(dir);
        }
    }

    private static List<Path> children(Path dir, String glob) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob)) {
            for (Path p : ds) {
                if (Files.isDirectory(p)) {
                    out.add(p);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // unreadable: nothing found there
        }
        out.sort(null);
        return out;
    }

}
