package dev.cudnntool.host.loader;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.archive.name.LibraryName;
import dev.cudnntool.host.FolderListing;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the loader will find the cuDNN in {@code runtimeDir}, and every other cuDNN it could
 * find first: copies in System32, on PATH or LD_LIBRARY_PATH, in conda environments and under
 * NVIDIA's own cuDNN installer folder. On Windows, also the zlibwapi.dll that cuDNN 8.3–9.1 need.
 */
public final class LibrarySearchCheck {

    /** Another cuDNN main library the loader could pick up. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CudnnCopy(String path, Integer major, String version, boolean onSearchPath, boolean winsOverTarget) {
    }

    public record Result(boolean targetOnSearchPath, List<CudnnCopy> copies, List<Finding> findings) {
    }

    private LibrarySearchCheck() {
    }

    /**
     * @param runtimeDir where the cuDNN runtime libraries are (or will be) installed
     * @param major      the cuDNN major being installed or verified, 0 when unknown
     * @param version    the release, for the zlibwapi rule; null when unknown
     */
    public static Result check(Host host, Path runtimeDir, int major, CudnnVersion version) {
        List<Finding> findings = new ArrayList<>();
        LdSoCache cache = host.windows() ? LdSoCache.empty() : LdSoCache.of(host);
        List<LoaderPath.Place> places = LoaderPath.places(host, cache);
        List<Path> order = places.stream().map(LoaderPath.Place::dir).toList();
        int targetIndex = LoaderPath.indexOf(host, order, runtimeDir);
        String soname = major == 0 ? null : host.windows() ? "cudnn64_" + major + ".dll" : "libcudnn.so." + major;
        Optional<LoaderPath.Hit> byName = soname == null ? Optional.empty()
                : LoaderPath.find(host, cache, soname, List.of(), List.of());
        if (targetIndex < 0 && byName.isPresent() && host.sameFile(byName.get().file(), runtimeDir.resolve(soname))) {
            // the very file, reached through another folder (lib64 of per-file links into targets/<cpu>/lib): on the path
            int at = LoaderPath.indexOf(host, order, byName.get().file().getParent());
            targetIndex = at >= 0 ? at : order.size();
        }
        if (!host.windows() && targetIndex < 0) {
            Optional<LoaderPath.ConfLine> conf = LoaderPath.confLine(host, LoaderPath.ldSoConfLines(host), runtimeDir);
            if (conf.isPresent() && (soname == null || !Files.exists(runtimeDir.resolve(soname)))) {
                targetIndex = order.size(); // listed, and ldconfig will cache the new files: fine for an install
            } else if (conf.isPresent()) {
                findings.add(Finding.warn(FindingId.SEARCH_PATH_MISSING, runtimeDir + " is listed in " + conf.get()
                                + " but /etc/ld.so.cache has no entry for " + soname + " there: ldconfig has not been run"
                                + " since, so the loader does not search it", "sudo ldconfig"));
                targetIndex = -2;
            }
        }
        if (targetIndex == -1) {
            findings.add(Finding.warn(FindingId.SEARCH_PATH_MISSING, runtimeDir + " is not on the library search path ("
                            + (host.windows() ? "PATH" : "LD_LIBRARY_PATH or /etc/ld.so.cache") + "), so programs will not find cuDNN there",
                    Fix.reinstall(fixLine(host, runtimeDir))));
        }
        List<CudnnCopy> copies = new ArrayList<>();
        List<Path> dirs = new ArrayList<>(order);
        dirs.addAll(extraPlaces(host));
        List<Path> seen = new ArrayList<>();
        for (Path dir : dirs) {
            if (seen.stream().anyMatch(s -> host.samePath(s, dir)) || LoaderPath.indexOf(host, List.of(dir), runtimeDir) == 0) {
                continue;
            }
            seen.add(dir);
            int idx = LoaderPath.indexOf(host, order, dir);
            for (Found f : mainLibraries(host, dir)) {
                if (host.sameFile(f.path, runtimeDir.resolve(f.path.getFileName().toString()))) {
                    continue; // the target's own file reached another way (a lib64 of per-file links, a bind mount)
                }
                boolean sameMajor = major == 0 || f.major == null || f.major == major;
                boolean wins;
                if (!host.windows() && sameMajor && soname != null && Files.exists(runtimeDir.resolve(soname))) {
                    // installed: the loader model says exactly which file a program gets
                    wins = byName.isPresent() && host.samePath(byName.get().file().getParent(), dir);
                } else {
                    // not installed yet (an install's preflight): by the order of the folders
                    wins = idx >= 0 && (targetIndex < 0 || idx < targetIndex);
                }
                LoaderPath.Place place = byName.isPresent() && !host.windows()
                        && host.samePath(byName.get().file().getParent(), dir) ? byName.get().place()
                        : idx >= 0 ? places.get(idx) : null;
                CudnnCopy copy = new CudnnCopy(f.path.toString(), f.major, f.version, idx >= 0, wins && sameMajor);
                copies.add(copy);
                if (!sameMajor) {
                    // #33 A5: libcudnn.so.8 and .so.9 (cudnn64_8.dll and _9) never shadow each other: a program asks for one
                    // major's soname, and removing the other copy would break the programs built for it. Listed, not judged.
                    continue;
                }
                String what = "cuDNN " + (f.version != null ? f.version : String.valueOf(f.major)) + " at " + f.path;
                if (wins) {
                    findings.add(Finding.error(FindingId.CUDNN_SHADOW, what + " is found by the loader before the copy in " + runtimeDir
                                    + (place == null ? "" : " (through " + place.describe() + ")")
                                    + ", so programs load that one instead", shadowFix(host, f.path, place, runtimeDir)));
                } else {
                    findings.add(Finding.warn(FindingId.CUDNN_SHADOW, what + (idx >= 0 ? " is on the search path after " + runtimeDir
                                    : " is not on the search path now but is picked up when that environment is active"),
                            shadowFix(host, f.path, place, runtimeDir)));
                }
            }
        }
        if (host.windows() && version != null && needsZlibwapi(version)) {
            findings.addAll(zlibwapi(host, order, runtimeDir, version));
        }
        return new Result(targetIndex >= 0, copies, findings);
    }

    /** cuDNN 8.3 up to 9.1 on Windows load zlibwapi.dll, which NVIDIA does not ship (facts §4). */
    public static boolean needsZlibwapi(CudnnVersion v) {
        return v.compareTo(CudnnVersion.of(8, 3, 0)) >= 0 && v.release().compareTo(CudnnVersion.of(9, 2, 0)) < 0;
    }

    private static List<Finding> zlibwapi(Host host, List<Path> order, Path runtimeDir, CudnnVersion v) {
        List<Path> dirs = new ArrayList<>(order);
        dirs.add(runtimeDir);
        for (Path d : dirs) {
            Path z = d.resolve("zlibwapi.dll");
            if (!Files.isRegularFile(z)) {
                continue;
            }
            try {
                PeFile.Info info = PeFile.read(z);
                if (!info.x64()) {
                    return List.of(Finding.error(FindingId.CUDNN_ZLIBWAPI_MISSING, z + " is a " + info.machineName()
                                    + " image; cuDNN " + v.releaseString() + " needs the 64-bit zlibwapi.dll",
                            "replace it with the x64 build of zlibwapi.dll (zlib123dllx64) in " + runtimeDir));
                }
                return List.of(Finding.info(FindingId.CUDNN_ZLIBWAPI_OK, "64-bit zlibwapi.dll found at " + z));
            } catch (IOException e) {
                return List.of(Finding.error(FindingId.CUDNN_ZLIBWAPI_MISSING, z + " is not a readable DLL: " + e.getMessage(),
                        "replace it with the x64 build of zlibwapi.dll (zlib123dllx64)"));
            }
        }
        return List.of(Finding.error(FindingId.CUDNN_ZLIBWAPI_MISSING, "cuDNN " + v.releaseString()
                        + " on Windows needs zlibwapi.dll, which NVIDIA does not ship, and none is on the search path",
                "put the 64-bit zlibwapi.dll (zlib123dllx64) into " + runtimeDir));
    }

    private record Found(Path path, Integer major, String version) {
    }

    /** The main cuDNN library files in one folder, one per major (linear in the folder's names, #32 item 7). */
    static List<Found> mainLibraries(Host host, Path dir) {
        List<Found> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        List<Path> files = FolderListing.glob(dir, host.windows() ? "{cudnn64_*.dll,CUDNN64_*.DLL}" : "libcudnn.so.*");
        Map<Integer, String> siblings = siblingVersions(files);
        Set<Integer> majors = new HashSet<>();
        for (Path f : files) {
            Optional<LibraryName> n = LibraryName.parse(f.getFileName().toString());
            if (n.isEmpty() || !n.get().base().equals("cudnn") || n.get().major() == null) {
                continue;
            }
            int major = n.get().major();
            if (!majors.add(major)) {
                continue;
            }
            out.add(new Found(f, major, versionOf(host, f, siblings)));
        }
        return out;
    }

    /** The release a cuDNN library file belongs to: PE FileVersion on Windows, the link chain's real name on Linux. */
    public static String versionOfLibrary(Host host, Path lib) {
        List<Path> siblings = host.windows() || lib.getParent() == null ? List.of()
                : FolderListing.glob(lib.getParent(), "libcudnn.so.*");
        return versionOf(host, lib, siblingVersions(siblings));
    }

    /** As {@link #versionOfLibrary(Host, Path)}, with the folder's {@link #siblingVersions} read once by the caller. */
    public static String versionOfLibrary(Host host, Path lib, Map<Integer, String> siblingVersions) {
        return versionOf(host, lib, siblingVersions);
    }

    /** Major to the release the first full-version name of that major tells (libcudnn.so.9.5.1: 9 to 9.5.1). */
    public static Map<Integer, String> siblingVersions(List<Path> files) {
        Map<Integer, String> out = new HashMap<>();
        for (Path s : files) {
            Optional<LibraryName> t = LibraryName.parse(s.getFileName().toString());
            if (t.isPresent() && t.get().version() != null && t.get().major() != null) {
                out.putIfAbsent(t.get().major(), t.get().version().toString());
            }
        }
        return out;
    }

    private static String versionOf(Host host, Path lib, Map<Integer, String> siblings) {
        if (host.windows()) {
            try {
                return PeFile.read(lib).fileVersion();
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
        String name = lib.getFileName().toString();
        Optional<LibraryName> n = LibraryName.parse(name);
        if (n.isPresent() && n.get().version() != null) {
            return n.get().version().toString();
        }
        try {
            if (Files.isSymbolicLink(lib) && Files.exists(lib)) { // a dangling link has no version to tell
                Path target = host.realPath(lib);
                Optional<LibraryName> t = LibraryName.parse(target.getFileName().toString());
                if (t.isPresent() && t.get().version() != null) {
                    return t.get().version().toString();
                }
            }
        } catch (RuntimeException ignored) {
            // a dangling link: no version to tell
        }
        return n.isPresent() && n.get().major() != null ? siblings.get(n.get().major()) : null;
    }

    /** Places a cuDNN copy often hides in although they are not on the search path now. */
    private static List<Path> extraPlaces(Host host) {
        List<Path> out = new ArrayList<>();
        String conda = host.env("CONDA_PREFIX");
        if (host.windows()) {
            if (conda != null) {
                out.add(host.path(conda, "Library", "bin"));
            }
            Path root = host.programFiles().resolve("NVIDIA").resolve("CUDNN");
            for (Path v : list(root)) {
                Path bin = v.resolve("bin");
                out.add(bin);
                for (Path cuda : list(bin)) {
                    out.add(cuda);
                    out.add(cuda.resolve("x64"));
                }
            }
        } else if (conda != null) {
            out.add(host.path(conda, "lib"));
        }
        return out;
    }

    private static List<Path> list(Path dir) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, Files::isDirectory)) {
            ds.forEach(out::add);
        } catch (IOException ignored) {
            // unreadable: nothing there for us
        }
        out.sort(null);
        return out;
    }

    /** The line that puts {@code dir} on the search path, for the user's shell. */
    public static String fixLine(Host host, Path dir) {
        if (host.windows()) {
            return windowsFixLine(dir)
                    + " + $env:Path  (for good: cudnn install ... --add-to-path, or add it in System Properties > Environment Variables)";
        }
        String q = Fix.quote(Fix.Shell.POSIX, dir.toString());
        return "export LD_LIBRARY_PATH=" + q + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  (for good: cudnn install ... --add-to-path,"
                + " or echo " + q + " | sudo tee /etc/ld.so.conf.d/cudnn.conf && sudo ldconfig)";
    }

    /** #32 item 5: cmd and PowerShell lines for {@code dir}, each quoted for its shell. */
    private static String windowsFixLine(Path dir) {
        String ps = Fix.quote(Fix.Shell.POWERSHELL, dir.toString());
        String psLine = ps.startsWith("'") ? ps.substring(0, ps.length() - 1) + ";'" : "\"" + dir + ";\"";
        return (Fix.quote(Fix.Shell.CMD, dir.toString()) == null ? "(cmd cannot carry this folder's name: rename it, or use PowerShell)"
                : "cmd: set \"PATH=" + dir + ";%PATH%\"") + "  PowerShell: $env:Path = " + psLine;
    }

    /** The fix for a copy that is found first, naming what put it first. */
    public static String shadowFix(Host host, Path lib, LoaderPath.Place place, Path target) {
        String p = lib.toString().toLowerCase(Locale.ROOT);
        if (place != null) {
            switch (place.mechanism()) {
                case LD_SO_CACHE -> {
                    return place.detail() != null
                            ? "its folder is " + place.detail() + ": remove that line (or delete the copy) and run sudo ldconfig"
                            : "ldconfig caches " + place.dir() + " (a system folder): remove that copy's package"
                            + " (e.g. sudo apt remove 'libcudnn*') and run sudo ldconfig, or put " + target
                            + " first on LD_LIBRARY_PATH";
                }
                case DEFAULT_FOLDER -> {
                    return place.dir() + " is a system folder the loader always searches: remove that copy's package"
                            + " (e.g. sudo apt remove 'libcudnn*') or put " + target + " first on LD_LIBRARY_PATH";
                }
                case LD_LIBRARY_PATH -> {
                    return "remove " + place.dir() + " from LD_LIBRARY_PATH (where your shell profile or job script sets it),"
                            + " or put " + target + " before it";
                }
                case SYSTEM32, WINDOWS_FOLDER -> {
                    return "delete or rename " + lib + " (copied there by hand; nothing from NVIDIA puts cuDNN in "
                            + (place.mechanism() == LoaderPath.Mechanism.SYSTEM32 ? "System32" : "the Windows folder") + ")";
                }
                case PATH -> {
                    return "remove " + place.dir() + " from PATH" + (place.detail() == null
                            ? " (the user or the machine variable: System Properties > Environment Variables)"
                            : " (" + place.detail() + ")")
                            + ", or move " + target + " before it";
                }
                case RPATH -> {
                    if (place.detail() != null) {
                        return place.detail() + " searches " + place.dir() + " first (its DT_RPATH counts before LD_LIBRARY_PATH"
                                + " for every library without a DT_RUNPATH): remove that cuDNN" + (p.contains("conda") || p.contains("envs")
                                ? " (conda remove cudnn, in that environment)" : "") + ", or put the release you want there";
                    }
                }
                default -> {
                    // the runpath and application folder belong to one program: the generic fix below
                }
            }
        }
        if (p.contains("conda") || p.contains("envs")) {
            return "this copy belongs to a conda environment: deactivate it, or remove cudnn from it (conda remove cudnn)";
        }
        if (p.contains("system32")) {
            return "delete or rename " + lib + " (copied there by hand; nothing from NVIDIA puts cuDNN in System32)";
        }
        return "remove " + lib.getParent() + " from " + (host.windows() ? "PATH" : "LD_LIBRARY_PATH")
                + ", or delete that old copy";
    }
}
