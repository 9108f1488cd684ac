package dev.cudnntool.verify;
import dev.cudnntool.Arch;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.LibraryName;
import dev.cudnntool.diagnosis.InstalledCudnn;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.RealPaths;
import dev.cudnntool.host.loader.ElfFile;
import dev.cudnntool.host.loader.PeFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks of the cuDNN files that need no loading: damaged images (caught before the probe maps
 * them), dangling links, unreadable files, and a dispatcher from another release than its
 * headers (told by the functions it exports, not by file names).
 */
final class FileChecks {
    /** A function declaration in cuDNN's headers: {@code cudnnStatus_t CUDNNWINAPI cudnnCreate(}. */
    private static final Pattern DECLARED = Pattern.compile("CUDNNWINAPI\\s+(cudnn\\w+)\\s*\\(");
    private static final int SHOWN = 5;

    private FileChecks() {
    }

    /** The main library and every sub-library present, in that order. */
    static List<Path> libraries(InstalledCudnn c) {
        List<Path> all = new ArrayList<>();
        all.add(c.mainLibrary());
        all.addAll(c.subLibraries());
        return all;
    }

    /**
     * {@code cudnn.damaged-file} for each library whose ELF or PE headers do not fit the file:
     * the loader would die mapping it (SIGBUS), so the probe must not be started.
     */
    static List<Finding> damaged(Host host, InstalledCudnn c) {
        List<Finding> out = new ArrayList<>();
        for (Path lib : libraries(c)) {
            if (!BoundedFiles.isRegularFile(lib)) {
                if (Files.exists(lib) && !Files.isDirectory(lib)) { // a dangling link is reported by danglingLinks
                    out.add(Finding.error(FindingId.CUDNN_DAMAGED_FILE, realName(lib) + " is not a library file but a FIFO, socket"
                                    + " or device; nothing reads it (opening it could block forever)",
                            Fix.reinstall("remove it and reinstall the complete archive with cudnn install")));
                }
                continue;
            }
            if (!Files.isReadable(lib)) {
                continue;
            }
            if (host.arch() != Arch.OTHER && foreignArch(host, lib).isPresent()) {
                continue; // another CPU's file (a big-endian or 32-bit one too): cudnn.wrong-arch says so
            }
            try {
                Optional<String> why = host.windows() ? PeFile.damage(lib) : ElfFile.damage(lib);
                if (why.isPresent()) {
                    out.add(Finding.error(FindingId.CUDNN_DAMAGED_FILE, realName(lib) + " is damaged: " + why.get()
                                    + "; loading it would crash the program that tries",
                            Fix.reinstall("replace it: reinstall the complete archive with cudnn install (an interrupted copy or download"
                                    + " leaves such files)")));
                }
            } catch (IOException e) {
                out.add(Finding.error(FindingId.CUDNN_DAMAGED_FILE, realName(lib) + " cannot be read: " + e.getMessage(),
                        Fix.reinstall("reinstall the complete archive with cudnn install")));
            }
        }
        return out;
    }

    /**
     * {@code cudnn.wrong-arch}: libraries built for another CPU than this machine's (sbsa/aarch64 or
     * ppc64le files on x86_64, an ARM64 DLL on x64). The loader skips such a file as if it were
     * not there ("No such file or directory"), so it is caught here, before the probe, naming the
     * file, its architecture, the host's, and the archive built for the host. One finding per
     * architecture found in the folder.
     */
    static List<Finding> wrongArch(Host host, InstalledCudnn c, Integer cudaMajor) {
        if (host.arch() == Arch.OTHER) {
            return List.of(); // this machine's CPU is not one cuDNN is built for: nothing to compare with
        }
        Map<String, List<Path>> foreign = new LinkedHashMap<>();
        for (Path lib : libraries(c)) {
            if (!BoundedFiles.isRegularFile(lib) || !Files.isReadable(lib)) {
                continue;
            }
            foreignArch(host, lib).ifPresent(arch -> foreign.computeIfAbsent(arch, a -> new ArrayList<>()).add(lib));
        }
        List<Finding> out = new ArrayList<>();
        String hostArch = host.windows() ? (host.arch() == Arch.X86_64 ? "x64" : "ARM64") : host.arch().label();
        String release = c.fileVersions().get(c.mainLibrary().getFileName().toString());
        if (release == null && c.headerVersion() != null) {
            release = c.headerVersion().toString();
        }
        String archive = RightArchive.name(host, release, cudaMajor);
        for (Map.Entry<String, List<Path>> e : foreign.entrySet()) {
            List<Path> files = e.getValue();
            String first = realName(files.get(0));
            out.add(Finding.error(FindingId.CUDNN_WRONG_ARCH, first + (files.size() > 1 ? " and " + (files.size() - 1)
                            + " other cuDNN librar" + (files.size() == 2 ? "y" : "ies") + " in " + c.runtimeDir() : "")
                            + (files.size() > 1 ? " are" : " is") + " built for " + e.getKey() + ", but this machine is " + hostArch
                            + ": the loader skips such files as if they were not there (\"No such file or directory\")",
                    Fix.reinstall("replace them with the " + hostArch + " build, NVIDIA's " + archive + " (cudnn install --archive "
                            + archive + (host.windows() ? "" : "; 64-bit ARM servers take sbsa, Jetson boards aarch64") + ")")));
        }
        return out;
    }

    /** The architecture a library is built for when it is not this machine's; empty when it fits or cannot be told. */
    private static Optional<String> foreignArch(Host host, Path lib) {
        if (host.windows()) {
            try {
                PeFile.Info info = PeFile.read(lib);
                boolean hostArm = host.arch() != Arch.X86_64;
                if (info.machine() == PeFile.MACHINE_ARM64 && !hostArm || info.machine() == PeFile.MACHINE_X64 && hostArm) {
                    return Optional.of(info.machineName());
                }
            } catch (IOException | RuntimeException e) {
                // not a PE image: damaged() says so
            }
            return Optional.empty(); // 32-bit DLLs: cudnn.dll-arch
        }
        return ElfFile.machine(lib).filter(m -> !host.arch().runs(m.arch()) || m.arch() == Arch.OTHER)
                .map(ElfFile.Machine::name);
    }

    /** "link (-> real file)" for a link, else the file itself. */
    private static String realName(Path lib) {
        // a dangling link is reported by danglingLinks: its own name here
        return Files.isSymbolicLink(lib) && Files.exists(lib) ? lib + " (-> " + RealPaths.real(lib) + ")" : lib.toString();
    }

    /**
     * Library names in {@code c.missing()} that are really links whose target is gone, with the
     * target they name.
     */
    static Map<String, Path> danglingLinks(InstalledCudnn c) {
        Map<String, Path> out = new LinkedHashMap<>();
        List<String> names = new ArrayList<>(c.missing());
        names.add(c.mainLibrary().getFileName().toString());
        for (String name : names) {
            if (name.contains("/")) {
                continue;
            }
            Path link = c.runtimeDir().resolve(name);
            if (Files.isSymbolicLink(link) && !Files.exists(link)) {
                try {
                    out.put(name, link.getParent().resolve(Files.readSymbolicLink(link)).normalize());
                } catch (IOException e) {
                    out.put(name, link);
                }
            }
        }
        return out;
    }

    /** {@code cudnn.dangling-link}: the link is there, its target is not. */
    static List<Finding> dangling(Host host, InstalledCudnn c, Map<String, Path> links) {
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<String, Path> e : links.entrySet()) {
            Path link = c.runtimeDir().resolve(e.getKey());
            Optional<Path> candidate = host.windows() ? Optional.empty() : realFileFor(c.runtimeDir(), e.getKey());
            Optional<List<Path>> loop = LinkChecks.loop(link);
            if (loop.isPresent()) {
                out.add(Finding.error(FindingId.CUDNN_DANGLING_LINK, link + " is a link loop: " + String.join(" -> ",
                                loop.get().stream().map(p -> p.getParent() != null && p.getParent().equals(link.getParent())
                                        ? p.getFileName().toString() : p.toString()).toList())
                                + "; the loader gives up on it (too many levels of symbolic links), so it cannot open " + e.getKey(),
                        candidate.map(p -> Fix.text("point it at the real file: ln -sf " + Fix.quote(Fix.Shell.POSIX, p.getFileName().toString()) + " " + Fix.quote(Fix.Shell.POSIX, link.toString())))
                                .orElse(Fix.reinstall("reinstall the complete archive with cudnn install (the real file is gone;"
                                        + " only links pointing at each other are left)"))));
                continue;
            }
            out.add(Finding.error(FindingId.CUDNN_DANGLING_LINK, link + " exists but is a link to " + e.getValue()
                            + ", which does not exist, so the loader cannot open " + e.getKey(),
                    Fix.reinstall(candidate.map(p -> "point it at the file that is there: ln -sf " + Fix.quote(Fix.Shell.POSIX, p.getFileName().toString()) + " " + Fix.quote(Fix.Shell.POSIX, link.toString())
                                    + " (or reinstall the complete archive with cudnn install)")
                            .orElse("reinstall the complete archive with cudnn install (it lays the files and their links"
                                    + " down together)"))));
        }
        return out;
    }

    /** A real (non-link) file in {@code dir} whose name continues the soname: libcudnn_graph.so.9.5.1. */
    private static Optional<Path> realFileFor(Path dir, String soname) {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob(soname) + ".*")) {
            for (Path p : ds) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    found.add(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        found.sort(null);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(found.size() - 1));
    }

    private static String glob(String name) {
        return name.replace("\\", "\\\\").replace("*", "\\*").replace("?", "\\?").replace("{", "\\{").replace("[", "\\[");
    }

    /**
     * {@code cudnn.no-soname-link}: a library present only under its full-version name
     * (libcudnn.so.9.5.1) without the soname link (libcudnn.so.9) that programs and cuDNN's own
     * dispatcher open; the loader cannot find it by name. The fix makes the exact link, or every
     * link of the folder at once with {@code ldconfig -n}.
     */
    static List<Finding> noSonameLinks(Host host, InstalledCudnn c) {
        if (host.windows()) {
            return List.of();
        }
        List<Path> unlinked = new ArrayList<>();
        List<String> links = new ArrayList<>();
        for (Path lib : libraries(c)) {
            String name = lib.getFileName().toString();
            Optional<LibraryName> n = LibraryName.parse(name);
            if (n.isEmpty() || n.get().version() == null) {
                continue;
            }
            String soname = CudnnComponents.linuxSoname(n.get().base(), c.major());
            if (!name.equals(soname)) {
                unlinked.add(lib);
                links.add(soname);
            }
        }
        if (unlinked.isEmpty()) {
            return List.of();
        }
        Path dir = c.runtimeDir();
        String sudo = ownFolder(host, dir) ? "" : "sudo ";
        String files = unlinked.size() == 1 ? unlinked.get(0).getFileName() + " but no " + links.get(0) + " link"
                : unlinked.size() + " libraries only under their full-version names (" + String.join(", ",
                unlinked.stream().map(p -> p.getFileName().toString()).toList().subList(0, Math.min(SHOWN, unlinked.size())))
                + (unlinked.size() > SHOWN ? ", …" : "") + ") and no soname links (" + String.join(", ",
                links.subList(0, Math.min(SHOWN, links.size()))) + (links.size() > SHOWN ? ", …" : "") + ")";
        String fix = unlinked.size() == 1
                ? sudo + "ln -s " + Fix.quote(Fix.Shell.POSIX, unlinked.get(0).getFileName().toString()) + " " + Fix.quote(Fix.Shell.POSIX, dir.resolve(links.get(0)).toString()) + " (or " + sudo + "ldconfig -n "
                + Fix.quote(Fix.Shell.POSIX, dir.toString()) + ", which makes every missing link from the files' sonames)"
                : sudo + "ldconfig -n " + Fix.quote(Fix.Shell.POSIX, dir.toString()) + " (makes every missing link from the files' sonames; or one by one: " + sudo
                + "ln -s " + Fix.quote(Fix.Shell.POSIX, unlinked.get(0).getFileName().toString()) + " " + Fix.quote(Fix.Shell.POSIX, dir.resolve(links.get(0)).toString()) + ")";
        return List.of(Finding.error(FindingId.CUDNN_NO_SONAME_LINK, dir + " has " + files
                        + ": the loader opens cuDNN " + c.major() + " by its soname, so programs (and cuDNN's own dispatcher,"
                        + " for its sub-libraries) cannot load it; a link deleted after ldconfig leaves exactly this",
                fix));
    }

    /** A folder under the user's home (or the active Python/conda environment): no sudo needed. */
    static boolean ownFolder(Host host, Path dir) {
        for (String var : List.of("HOME", "VIRTUAL_ENV", "CONDA_PREFIX")) {
            String v = host.env(var);
            if (v != null && !v.isBlank() && !v.equals("/")) {
                try {
                    if (dir.toAbsolutePath().normalize().startsWith(host.path(v).toAbsolutePath().normalize())) {
                        return true;
                    }
                } catch (RuntimeException ignored) {
                    // a hostile value: not the user's own
                }
            }
        }
        return false;
    }

    /** {@code cudnn.unreadable}: the current user cannot read a library, so no program run by them can load it. */
    static List<Finding> unreadable(Host host, InstalledCudnn c) {
        List<Finding> out = new ArrayList<>();
        for (Path lib : libraries(c)) {
            // the link and its real file: a soname link anyone may read can lead to a file mode 000
            if (Files.exists(lib) && (!Files.isReadable(lib) || !Files.isReadable(host.realPath(lib)))) {
                out.add(unreadableFinding(host, lib.toString()));
            }
        }
        return out;
    }

    /** {@code cudnn.unreadable} for a library folder the current user may not list or enter. */
    static Finding unreadableFolder(Host host, Path folder, Path libraryDir) {
        String user = user(host);
        return Finding.error(FindingId.CUDNN_UNREADABLE, folder + " cannot be opened by the user " + user
                        + " (permission denied), so whatever cuDNN " + (folder.equals(libraryDir) ? "it holds" : libraryDir + " holds")
                        + " can be neither seen nor loaded by programs run by " + user + "; it is not \"nothing installed\"",
                host.windows() ? "give Users read and execute permission on " + folder
                        + " (Properties > Security > Edit > Users > Read & execute; or icacls \"" + folder + "\" /grant Users:(OI)(CI)RX)"
                        : "sudo chmod a+rx " + folder + " (or run as the user who owns it)");
    }

    private static String user(Host host) {
        String user = host.env(host.windows() ? "USERNAME" : "USER");
        return user != null ? user : System.getProperty("user.name", "this user");
    }

    static Finding unreadableFinding(Host host, String path) {
        String file = path;
        if (Files.exists(host.path(path))) {
            file = host.realPath(host.path(path)).toString(); // the real file, not the soname link; else the name as given
        }
        String user = host.env(host.windows() ? "USERNAME" : "USER");
        if (user == null) {
            user = System.getProperty("user.name", "this user");
        }
        return Finding.error(FindingId.CUDNN_UNREADABLE, file + " cannot be read by the user " + user
                        + " (permission denied), so programs run by " + user + " cannot load cuDNN",
                host.windows() ? "give Users read and execute permission on " + file
                        + " (Properties > Security > Edit > Users > Read & execute; or icacls \"" + file + "\" /grant Users:RX)"
                        : "sudo chmod a+r " + file);
    }

    /**
     * {@code cudnn.mixed-versions} when the installed headers declare functions the dispatcher does
     * not export: the main library is from another (older) release than the headers, whatever the
     * files are called (pip wheels name them by soname only, and the dispatcher forwards
     * cudnnGetVersion to the sub-libraries, so neither names nor the probe tell).
     */
    static List<Finding> exportsAgainstHeaders(Host host, InstalledCudnn c, Path includeDir) {
        if (includeDir == null || c.headerVersion() == null || c.headerVersion().major() != c.major()
                || !Files.isRegularFile(c.mainLibrary())) {
            return List.of();
        }
        Set<String> declared = declared(includeDir, c.major());
        if (declared.isEmpty()) {
            return List.of();
        }
        Set<String> exported;
        try {
            exported = host.windows() ? PeFile.exports(c.mainLibrary()) : ElfFile.read(c.mainLibrary(), true).exports();
        } catch (IOException | RuntimeException e) {
            return List.of(); // damage is reported by damaged()
        }
        if (exported.isEmpty()) {
            return List.of();
        }
        List<String> missing = new ArrayList<>(new TreeSet<>(declared));
        missing.removeAll(exported);
        if (missing.isEmpty()) {
            return List.of();
        }
        String shown = String.join(", ", missing.subList(0, Math.min(SHOWN, missing.size())))
                + (missing.size() > SHOWN ? " and " + (missing.size() - SHOWN) + " more" : "");
        return List.of(Finding.error(FindingId.CUDNN_MIXED_VERSIONS, "the main library " + c.mainLibrary() + " does not export "
                        + missing.size() + " function" + (missing.size() == 1 ? "" : "s") + " that the cuDNN "
                        + c.headerVersion() + " headers in " + includeDir + " declare (" + shown
                        + "): the dispatcher is from another release than the headers and sub-libraries",
                "reinstall one complete archive (or pip package) so the dispatcher, its sub-libraries and the headers"
                        + " come from one release"));
    }

    /** The functions the major's headers in {@code includeDir} declare. */
    static Set<String> declared(Path includeDir, int major) {
        Set<String> out = new TreeSet<>();
        for (String h : CudnnComponents.headers(major)) {
            Path f = includeDir.resolve(h);
            if (!BoundedFiles.isRegularFile(f)) {
                continue;
            }
            try {
                Matcher m = DECLARED.matcher(BoundedFiles.readString(f, BoundedFiles.TEXT, StandardCharsets.ISO_8859_1));
                while (m.find()) {
                    out.add(m.group(1));
                }
            } catch (IOException ignored) {
                // an unreadable header declares nothing we can see
            }
        }
        return out;
    }
}
