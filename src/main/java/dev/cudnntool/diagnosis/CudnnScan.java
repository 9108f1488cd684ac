package dev.cudnntool.diagnosis;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.HeaderVersion;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.archive.name.LibraryName;
import dev.cudnntool.host.FolderListing;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/** Finds the cuDNN in a toolkit or prefix folder without loading anything. */
public final class CudnnScan {
    private CudnnScan() {
    }

    /**
     * @param runtimeDirs where runtime libraries may be (toolkit bin, or lib64 and targets/<cpu>-linux/lib; a prefix's bin/x64 and bin on Windows, lib and lib64 on Linux)
     * @param includeDir  where the headers are
     * @param importDir   Windows import libraries (lib\x64), or null
     * @param wantMajor   the major to look at (from --expect), or 0 for the newest found
     */
    public static Optional<InstalledCudnn> scan(Host host, List<Path> runtimeDirs, Path includeDir, Path importDir,
                                                int wantMajor) {
        TreeMap<Integer, Path> mains = new TreeMap<>();
        TreeMap<Integer, Path> unlinked = new TreeMap<>(); // libcudnn.so.9.5.1 without its libcudnn.so.9 link
        for (Path dir : runtimeDirs) {
            List<Path> files = list(dir);
            Map<String, Path> newestBySoname = newestBySoname(files); // one pass: linear in the names (#32 item 7)
            for (Path f : files) {
                Optional<LibraryName> n = LibraryName.parse(f.getFileName().toString());
                if (n.isEmpty() || !n.get().isRuntime() || !n.get().base().equals("cudnn") || n.get().major() == null) {
                    continue;
                }
                String expected = host.windows() ? CudnnComponents.windowsDll("cudnn", n.get().major())
                        : CudnnComponents.linuxSoname("cudnn", n.get().major());
                if (f.getFileName().toString().equalsIgnoreCase(expected)) {
                    mains.putIfAbsent(n.get().major(), f);
                } else if (!host.windows() && n.get().version() != null && !unlinked.containsKey(n.get().major())) {
                    unlinkedFile(f.getParent(), expected, newestBySoname).ifPresent(p -> unlinked.put(n.get().major(), p));
                }
            }
        }
        // Any libcudnn file is a copy: a full-version file whose soname link is missing (never made,
        // or deleted after ldconfig) is found, and reported as cudnn.no-soname-link.
        unlinked.forEach(mains::putIfAbsent);
        if (mains.isEmpty()) {
            return Optional.empty();
        }
        int major = wantMajor > 0 && mains.containsKey(wantMajor) ? wantMajor : mains.lastKey();
        Path main = mains.get(major);
        Path dir = main.getParent();
        List<String> missing = new ArrayList<>();
        List<Path> subs = new ArrayList<>();
        Map<String, Path> inMainDir = host.windows() ? Map.of() : newestBySoname(list(dir));
        for (String base : CudnnComponents.subLibraries(major)) {
            String file = host.windows() ? CudnnComponents.windowsDll(base, major) : CudnnComponents.linuxSoname(base, major);
            Path p = dir.resolve(file);
            Optional<Path> unlinkedSub = host.windows() ? Optional.empty() : unlinkedFile(dir, file, inMainDir);
            if (Files.exists(p)) {
                subs.add(p);
            } else if (unlinkedSub.isPresent()) {
                subs.add(unlinkedSub.get());
            } else {
                missing.add(file);
            }
        }
        CudnnVersion header = null;
        String headerFile = null;
        for (String h : CudnnComponents.headers(major)) {
            // NVIDIA's Debian layout counts (include/<multiarch>/cudnn_v9.h); a dangling link is said by HeaderFiles
            if (HeaderLookup.find(host, includeDir, h, major).isEmpty() && !HeaderLookup.dangling(includeDir.resolve(h))) {
                missing.add("include/" + h);
            }
        }
        Path vh = HeaderLookup.find(host, includeDir, CudnnComponents.versionHeader(major), major)
                .orElse(includeDir.resolve(CudnnComponents.versionHeader(major)));
        try {
            if (BoundedFiles.isRegularFile(vh) && Files.isReadable(vh) && Files.isReadable(host.realPath(vh))) {
                header = HeaderVersion.parse(BoundedFiles.readString(vh, BoundedFiles.TEXT,
                        StandardCharsets.ISO_8859_1)).orElse(null);
                headerFile = vh.toString();
            }
        } catch (IOException ignored) {
            // unreadable header: reported as no header version
        }
        if (header != null && header.major() != major) {
            // #33 item 3: Debian's cudnn_version.h leads through /etc/alternatives to another major's header; this major's
            // own _vN header says this runtime's version (verify's HeaderFiles names the alternative that points away)
            for (Path other : HeaderLookup.candidates(host, includeDir, CudnnComponents.versionHeader(major), major)) {
                Optional<CudnnVersion> own = ownMajorHeader(other, major);
                if (own.isPresent()) {
                    header = own.get();
                    headerFile = other.toString();
                    break;
                }
            }
        }
        if (host.windows() && importDir != null) {
            for (String base : CudnnComponents.libraries(major)) {
                if (!Files.isRegularFile(importDir.resolve(base + ".lib"))) {
                    missing.add("lib/x64/" + base + ".lib");
                }
            }
        }
        Map<String, String> versions = new TreeMap<>();
        List<Path> all = new ArrayList<>(subs);
        all.add(0, main);
        for (Path p : all) {
            String v = LibrarySearchCheck.versionOfLibrary(host, p);
            if (v != null) {
                versions.put(p.getFileName().toString(), v);
            }
        }
        List<Integer> others = new ArrayList<>(new TreeSet<>(mains.keySet()));
        others.remove(Integer.valueOf(major));
        return Optional.of(new InstalledCudnn(major, dir, main, subs, missing, header, headerFile, versions, others));
    }

    /** The version a Debian {@code _vN} header says when it is a readable file of {@code major}. */
    private static Optional<CudnnVersion> ownMajorHeader(Path h, int major) {
        if (!h.getFileName().toString().endsWith("_v" + major + ".h")) {
            return Optional.empty();
        }
        try {
            if (BoundedFiles.isRegularFile(h) && Files.isReadable(h)) {
                return HeaderVersion.parse(BoundedFiles.readString(h, BoundedFiles.TEXT, StandardCharsets.ISO_8859_1))
                        .filter(v -> v.major() == major);
            }
        } catch (IOException | RuntimeException ignored) {
            // unreadable: no version from it
        }
        return Optional.empty();
    }

    /**
     * The newest real file {@code SONAME.x.y} in {@code dir} when {@code dir/SONAME} is not there at
     * all (a dangling link is there: reported as cudnn.dangling-link instead).
     */
    static Optional<Path> unlinkedFile(Path dir, String soname) {
        return unlinkedFile(dir, soname, newestBySoname(list(dir)));
    }

    private static Optional<Path> unlinkedFile(Path dir, String soname, Map<String, Path> newestBySoname) {
        if (Files.exists(dir.resolve(soname), LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        return Optional.ofNullable(newestBySoname.get(soname));
    }

    /** For each soname, the newest real file {@code SONAME.x.y} among {@code files}: one pass over the names. */
    private static Map<String, Path> newestBySoname(List<Path> files) {
        Map<String, Path> newest = new HashMap<>();
        Map<String, CudnnVersion> newestVersion = new HashMap<>();
        for (Path f : files) {
            String name = f.getFileName().toString();
            Optional<LibraryName> n = LibraryName.parse(name);
            if (n.isEmpty() || n.get().version() == null || n.get().major() == null) {
                continue;
            }
            String soname = CudnnComponents.linuxSoname(n.get().base(), n.get().major());
            if (!name.startsWith(soname + ".") || !Files.isRegularFile(f)) {
                continue;
            }
            CudnnVersion had = newestVersion.get(soname);
            if (had == null || n.get().version().compareTo(had) > 0) {
                newest.put(soname, f);
                newestVersion.put(soname, n.get().version());
            }
        }
        return newest;
    }

    /**
     * The folder on the way to {@code dir} (itself included) that the current user may not list
     * (a 0700 folder of another user): whatever cuDNN is there can be neither seen nor loaded.
     */
    public static Optional<Path> deniedFolder(Path dir) {
        if (dir == null) {
            return Optional.empty();
        }
        Path abs = dir.toAbsolutePath().normalize();
        Path at = abs.getRoot();
        for (int i = 0; i <= abs.getNameCount(); i++) {
            if (i > 0) {
                at = at == null ? abs.getName(0) : at.resolve(abs.getName(i - 1).toString());
            }
            if (at == null) {
                continue;
            }
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(at)) {
                ds.iterator().hasNext();
            } catch (AccessDeniedException e) {
                return Optional.of(at);
            } catch (IOException | RuntimeException e) {
                return Optional.empty(); // not there, or not a folder: nothing hidden
            }
        }
        return Optional.empty();
    }

    /** The folder's cuDNN names (any case), bounded by {@link FolderListing#MAX_NAMES}. */
    private static List<Path> list(Path dir) {
        return FolderListing.list(dir, n -> n.toLowerCase(Locale.ROOT).contains("cudnn"));
    }
}
