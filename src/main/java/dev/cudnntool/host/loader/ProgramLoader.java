package dev.cudnntool.host.loader;

import dev.cudnntool.host.Host;
import dev.cudnntool.host.searchpath.SearchPath;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one program really loads for a soname on Linux, in glibc's order (ld.so(8)): objects
 * already loaded by preloading (LD_PRELOAD, then /etc/ld.so.preload) first, whatever their folder;
 * then the loading object's DT_RPATH (only when it has no DT_RUNPATH), LD_LIBRARY_PATH, its
 * DT_RUNPATH, the entries of /etc/ld.so.cache, and the default folders. $ORIGIN is the folder of
 * the object as it was found. Reusable: "what will program P load for soname S, and why".
 */
public final class ProgramLoader {

    /**
     * The loading object: its file, its expanded DT_RPATH and DT_RUNPATH, the sonames it needs,
     * and why it could not be read (null when it was).
     */
    public record Program(Path file, List<Path> rpath, List<Path> runpath, List<String> needed, String problem) {
        /** A program that names no folders of its own (a plain executable, what loading by name gets). */
        public static Program plain() {
            return new Program(null, List.of(), List.of(), List.of(), null);
        }

        /** Reads a shared object's or executable's dynamic section (bounded, like every ELF read). */
        public static Program read(Path elf) {
            try {
                ElfFile.Info info = ElfFile.read(elf, false);
                return new Program(elf, ElfFile.expand(info.rpath(), elf), ElfFile.expand(info.runpath(), elf),
                        List.copyOf(info.needed()), null);
            } catch (IOException | RuntimeException e) {
                return new Program(elf, List.of(), List.of(), List.of(), e.getMessage() == null ? "it cannot be read"
                        : dev.cudnntool.Text.printable(e.getMessage()));
            }
        }

        /** DT_RPATH counts only when there is no DT_RUNPATH. */
        public boolean searchesRpath() {
            return runpath.isEmpty() && !rpath.isEmpty();
        }

        /** The program's own folders in words: "its DT_RPATH (searched before LD_LIBRARY_PATH)", ... */
        public String ownFolders() {
            if (searchesRpath()) {
                return "DT_RPATH, which the loader searches before LD_LIBRARY_PATH";
            }
            if (!runpath.isEmpty()) {
                return "DT_RUNPATH, which the loader searches after LD_LIBRARY_PATH";
            }
            return "no DT_RPATH or DT_RUNPATH";
        }
    }

    private ProgramLoader() {
    }

    /** The folders the loader searches for {@code program}, in order (preloads excluded: they are files, not folders). */
    public static List<LoaderPath.Place> order(Host host, LdSoCache cache, Program program) {
        List<LoaderPath.Place> out = new ArrayList<>();
        if (program.searchesRpath()) {
            program.rpath().forEach(d -> out.add(new LoaderPath.Place(d, LoaderPath.Mechanism.RPATH, null)));
        }
        for (Path p : SearchPath.libraryPath(host)) {
            out.add(new LoaderPath.Place(p, LoaderPath.Mechanism.LD_LIBRARY_PATH, null));
        }
        program.runpath().forEach(d -> out.add(new LoaderPath.Place(d, LoaderPath.Mechanism.RUNPATH, null)));
        for (LoaderPath.Place p : LoaderPath.places(host, cache)) {
            if (p.mechanism() != LoaderPath.Mechanism.LD_LIBRARY_PATH) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * The file {@code program} gets for {@code soname}: a preloaded object of that soname wins over
     * everything; then the folders in {@link #order}, the ld.so.cache by soname, the default folders.
     */
    public static Optional<LoaderPath.Hit> resolve(Host host, LdSoCache cache, Program program, String soname) {
        if (host.windows()) {
            return LoaderPath.find(host, cache, soname, List.of(), List.of());
        }
        for (Preload.Entry e : Preload.entries(host)) {
            if (e.file() != null && soname.equals(e.name())) {
                return Optional.of(new LoaderPath.Hit(e.file(), e.place()));
            }
        }
        return LoaderPath.find(host, cache, soname, program.searchesRpath() ? program.rpath() : List.of(), program.runpath());
    }
}
