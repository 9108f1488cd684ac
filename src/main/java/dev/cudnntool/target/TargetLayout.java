package dev.cudnntool.target;

import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.EntryRole;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.NamingScheme;
import dev.cudnntool.host.RealPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which folders of an install target hold cuDNN's runtime libraries, headers and import libraries: the one
 * answer for {@code install} (where an archive's files go) and {@code verify} (where to look for what is
 * there), #29 item 2. The layout's {@link #os()} is the archive's OS when installing (a Windows zip laid
 * into a folder on Linux keeps Windows' folders) and the host's when verifying.
 *
 * <p>Sealed: a {@link Toolkit} spreads cuDNN into the CUDA toolkit's own folders; a {@link Prefix} keeps the
 * archive's layout in a stand-alone folder. A versioned store (one folder per release under one root, with
 * a current link) is the third kind this leaves room for: a new record here, which must answer every method
 * below; nothing outside this file decides a folder by the target's kind.
 */
public sealed interface TargetLayout permits TargetLayout.Toolkit, TargetLayout.Prefix {

    /** The target's root: the toolkit's folder or the --prefix folder. */
    Path root();

    /** Whose folders: the archive's OS (install) or the host's (verify). */
    OsFamily os();

    static TargetLayout toolkit(Path root, OsFamily os) {
        return new Toolkit(root, os);
    }

    static TargetLayout prefix(Path root, OsFamily os) {
        return new Prefix(root, os);
    }

    /** Headers go to, and are looked for in, {@code include}. */
    default Path includeDir() {
        return root().resolve("include");
    }

    /** Where the loader must find the runtime libraries of {@code archive} once installed. */
    Path runtimeDir(ArchiveName archive);

    /**
     * Where one archive file of {@code role} at {@code relPath} (its path inside the archive's top folder,
     * {@code /} between segments) goes, or empty when this layout installs no such file. Folders and
     * foreign files are the caller's to refuse; a prefix's licence rule is install's.
     */
    Optional<Path> destination(ArchiveName archive, EntryRole role, String relPath);

    /**
     * The folders {@code archive}'s files land in that may already hold cuDNN or someone else's files: the
     * runtime folder, {@code include} and, for Windows, the import-library folder. A prefix names the same
     * folders as a toolkit, in the archive's own layout.
     */
    default List<Path> destinationDirs(ArchiveName archive) {
        List<Path> dirs = new ArrayList<>();
        dirs.add(runtimeDir(archive));
        dirs.add(includeDir());
        if (archive.os() == OsFamily.WINDOWS) {
            dirs.add(importDir());
        }
        return dirs;
    }

    /** Where Windows import libraries ({@code cudnn.lib}) go and are looked for. */
    Path importDir();

    /**
     * The file a build links against ({@code CUDNN_LIBRARY}): the first of these that exists. Windows: the
     * import library; Linux: the development link, then the major's soname.
     */
    default List<Path> linkLibraryCandidates(ArchiveName archive) {
        if (os() == OsFamily.WINDOWS) {
            return List.of(importDir().resolve("cudnn.lib"), root().resolve("lib").resolve("cudnn.lib"));
        }
        Path runtime = runtimeDir(archive);
        return List.of(runtime.resolve("libcudnn.so"), runtime.resolve("libcudnn.so." + archive.major()));
    }

    /**
     * Where {@code verify} looks for an installed cuDNN in this target on a host of {@code arch}: the runtime
     * folders in the order searched, the header folder and the import-library folder (null where the OS has
     * none). Reads which folders exist, so it is built when asked.
     */
    Search search(Arch arch);

    /**
     * Every folder of this layout that may hold cuDNN's runtime libraries on a host of {@code arch}, named as
     * programs are given them (links not followed), each with the header folder beside it: what the copy scan
     * lists as this target's copies.
     */
    List<Folder> libraryFolders(Arch arch);

    /** A runtime folder and the header folder that goes with it. */
    record Folder(Path runtime, Path include) {
    }

    /**
     * What {@link #search} answers.
     *
     * @param runtime folders searched in order, never empty
     * @param include the header folder
     * @param imports the import-library folder, or null where the layout has none (Linux toolkit)
     */
    record Search(List<Path> runtime, Path include, Path imports) {
        public Search {
            runtime = List.copyOf(runtime);
        }
    }

    /**
     * A Linux toolkit's {@code targets/<this CPU>-linux/lib} folders (x86_64-linux; sbsa-linux and
     * aarch64-linux on 64-bit ARM; ppc64le-linux), where NVIDIA's layout keeps the libraries and
     * where people copy cuDNN even when {@code lib64} is a separate folder, not the usual link to it.
     * Only folders that exist; another CPU's targets (cross-compilation) are not this machine's.
     */
    static List<Path> targetLibDirs(Path toolkitRoot, OsFamily os, Arch arch) {
        List<Path> out = new ArrayList<>();
        if (os == OsFamily.WINDOWS) {
            return out;
        }
        List<String> names = switch (arch) {
            case X86_64 -> List.of("x86_64-linux");
            case AARCH64, SBSA -> List.of("sbsa-linux", "aarch64-linux");
            case PPC64LE -> List.of("ppc64le-linux");
            default -> List.of();
        };
        for (String n : names) {
            Path d = toolkitRoot.resolve("targets").resolve(n).resolve("lib");
            if (Files.isDirectory(d)) {
                out.add(d);
            }
        }
        return out;
    }

    /** A CUDA toolkit: {@code bin} (Windows DLLs) or {@code lib64} (Linux), {@code include}, {@code lib\x64}. */
    record Toolkit(Path root, OsFamily os) implements TargetLayout {
        /**
         * The folder the Linux runtime libraries go to: {@code lib64}, through its link
         * (lib64 -&gt; targets/x86_64-linux/lib) when it is one, so files land in the real folder.
         */
        public Path linuxLibDir() {
            Path lib64 = root.resolve("lib64");
            if (Files.isSymbolicLink(lib64) && Files.exists(lib64)) {
                return RealPaths.real(lib64); // dangling: lib64 itself, and creating it fails later with a clear message
            }
            return lib64;
        }

        @Override
        public Path runtimeDir(ArchiveName archive) {
            return archive.os() == OsFamily.WINDOWS ? root.resolve("bin") : linuxLibDir();
        }

        @Override
        public Path importDir() {
            return root.resolve("lib").resolve("x64");
        }

        @Override
        public Optional<Path> destination(ArchiveName archive, EntryRole role, String relPath) {
            String[] rel = relPath.split("/");
            String file = rel[rel.length - 1];
            boolean windows = archive.os() == OsFamily.WINDOWS;
            return switch (role) {
                case HEADER -> { // include/<sub folders>/<file>: the archive's own include tree under the toolkit's
                    Path inc = includeDir();
                    for (int i = 1; i < rel.length; i++) {
                        inc = inc.resolve(rel[i]);
                    }
                    yield Optional.of(inc);
                }
                case RUNTIME_LIBRARY -> Optional.of(runtimeDir(archive).resolve(file)); // lib/** is flattened
                case IMPORT_LIBRARY -> Optional.of(importDir().resolve(file));
                case STATIC_LIBRARY -> windows ? Optional.empty() : Optional.of(linuxLibDir().resolve(file));
                default -> Optional.empty(); // licence and unknown extras stay in the install record only
            };
        }

        @Override
        public List<Folder> libraryFolders(Arch arch) {
            List<Folder> out = new ArrayList<>();
            out.add(new Folder(root.resolve(os == OsFamily.WINDOWS ? "bin" : "lib64"), includeDir()));
            for (Path d : targetLibDirs(root, os, arch)) {
                out.add(new Folder(d, d.getParent().resolve("include")));
            }
            return out;
        }

        @Override
        public Search search(Arch arch) {
            if (os == OsFamily.WINDOWS) {
                return new Search(List.of(root.resolve("bin")), includeDir(), importDir());
            }
            List<Path> runtime = new ArrayList<>();
            runtime.add(linuxLibDir());
            Path include = includeDir();
            // cuDNN copied into targets/<cpu>-linux/lib while lib64 is a folder of its own is found there too
            for (Path d : targetLibDirs(root, os, arch)) {
                if (runtime.stream().noneMatch(r -> RealPaths.sameFile(r, d, false))) {
                    runtime.add(d);
                    Path inc = d.getParent().resolve("include");
                    if (!Files.isDirectory(include) || Files.isDirectory(inc) && !RealPaths.sameFile(inc, include, false)
                            && !Files.exists(include.resolve("cudnn_version.h")) && Files.exists(inc.resolve("cudnn_version.h"))) {
                        include = inc;
                    }
                }
            }
            return new Search(runtime, include, null);
        }
    }

    /** A stand-alone folder in the archive's own layout ({@code lib} or {@code lib64}, {@code bin[\x64]}, {@code include}). */
    record Prefix(Path root, OsFamily os) implements TargetLayout {
        @Override
        public Path runtimeDir(ArchiveName archive) {
            if (archive.os() == OsFamily.WINDOWS && archive.scheme() == NamingScheme.WHEEL) {
                return root.resolve("bin"); // a wheel keeps its DLLs in nvidia/cudnn/bin
            }
            if (archive.os() == OsFamily.WINDOWS) {
                boolean x64 = archive.major() > 9 || archive.major() == 9 && archive.version().minor() >= 18;
                return x64 ? root.resolve("bin").resolve("x64") : root.resolve("bin");
            }
            return root.resolve(archive.scheme() == NamingScheme.LEGACY ? "lib64" : "lib");
        }

        @Override
        public Path importDir() {
            return root.resolve("lib").resolve("x64");
        }

        @Override
        public Optional<Path> destination(ArchiveName archive, EntryRole role, String relPath) {
            Path p = root;
            for (String s : relPath.split("/")) {
                p = p.resolve(s);
            }
            return Optional.of(p);
        }

        @Override
        public List<Folder> libraryFolders(Arch arch) {
            return search(arch).runtime().stream().map(d -> new Folder(d, includeDir())).toList();
        }

        @Override
        public Search search(Arch arch) {
            List<Path> runtime = new ArrayList<>();
            // each OS's own folders only: a Linux prefix has no bin/x64 to name in messages
            for (String d : os == OsFamily.WINDOWS ? List.of("bin/x64", "bin") : List.of("lib", "lib64")) {
                runtime.add(root.resolve(d));
            }
            Path multiarch = root.resolve("lib").resolve(arch == Arch.X86_64 ? "x86_64-linux-gnu" : "aarch64-linux-gnu");
            if (os != OsFamily.WINDOWS && Files.isDirectory(multiarch)) {
                runtime.add(multiarch); // --prefix /usr on Debian/Ubuntu: NVIDIA's packages put cuDNN there
            }
            return new Search(runtime, includeDir(), Files.isDirectory(importDir()) ? importDir() : root.resolve("lib"));
        }
    }
}
