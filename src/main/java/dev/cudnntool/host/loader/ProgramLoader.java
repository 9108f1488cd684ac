package dev.cudnntool.host.loader;
import dev.cudnntool.Text;
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
 * then the loading object's DT_RPATH (only when it has no DT_RUNPATH; then also those of the objects that loaded it
 * and of the executable: {@link Loaders}), LD_LIBRARY_PATH, its
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
                        : Text.printable(e.getMessage()));
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

    /**
     * What is above the loading object: the objects that loaded it, nearest first, and the executable of the process
     * (null when not known). Where the loading object has no DT_RUNPATH, glibc searches after its own DT_RPATH the
     * DT_RPATH of each of them, then the executable's (which counts only when the executable has no DT_RUNPATH):
     * a conda environment's python carries DT_RPATH {@code $ORIGIN/../lib}, so every library without a DT_RUNPATH
     * that python loads searches the environment's lib folder before LD_LIBRARY_PATH.
     */
    public record Loaders(List<Program> chain, Program executable) {
        public static final Loaders NONE = new Loaders(List.of(), null);

        public Loaders {
            chain = List.copyOf(chain);
        }

        /** Only the executable is known. */
        public static Loaders executable(Program executable) {
            return new Loaders(List.of(), executable);
        }

        /** These loaders with {@code nearer} loading the object below, nearest first. */
        public Loaders under(Program nearer) {
            List<Program> c = new ArrayList<>();
            c.add(nearer);
            c.addAll(chain);
            return new Loaders(c, executable);
        }
    }

    private ProgramLoader() {
    }

    /** The DT_RPATH folders the loader searches for {@code program} loaded under {@code loaders}, in order, each naming whose it is. */
    public static List<LoaderPath.Place> rpathPlaces(Program program, Loaders loaders) {
        List<LoaderPath.Place> out = new ArrayList<>();
        if (!program.runpath().isEmpty()) {
            return out;
        }
        program.rpath().forEach(d -> out.add(new LoaderPath.Place(d, LoaderPath.Mechanism.RPATH, null)));
        for (Program l : loaders.chain()) {
            l.rpath().forEach(d -> out.add(new LoaderPath.Place(d, LoaderPath.Mechanism.RPATH, "the object that loaded it, " + l.file())));
        }
        Program exe = loaders.executable();
        if (exe != null && exe.searchesRpath() && (exe.file() == null || !exe.file().equals(program.file()))
                && loaders.chain().stream().noneMatch(l -> l.file() != null && l.file().equals(exe.file()))) {
            exe.rpath().forEach(d -> out.add(new LoaderPath.Place(d, LoaderPath.Mechanism.RPATH, "the executable " + exe.file())));
        }
        return out;
    }

    /** The folders the loader searches for {@code program}, in order (preloads excluded: they are files, not folders). */
    public static List<LoaderPath.Place> order(Host host, LdSoCache cache, Program program) {
        return order(host, cache, program, Loaders.NONE);
    }

    /** As above, for {@code program} loaded under {@code loaders}. */
    public static List<LoaderPath.Place> order(Host host, LdSoCache cache, Program program, Loaders loaders) {
        List<LoaderPath.Place> out = new ArrayList<>(rpathPlaces(program, loaders));
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
        return resolve(host, cache, program, soname, Loaders.NONE);
    }

    /** As above, for {@code program} loaded under {@code loaders} (their DT_RPATH: {@link Loaders}). */
    public static Optional<LoaderPath.Hit> resolve(Host host, LdSoCache cache, Program program, String soname, Loaders loaders) {
        if (host.windows()) {
            return LoaderPath.find(host, cache, soname, List.of(), List.of());
        }
        for (Preload.Entry e : Preload.entries(host)) {
            if (e.file() != null && soname.equals(e.name())) {
                return Optional.of(new LoaderPath.Hit(e.file(), e.place()));
            }
        }
        return LoaderPath.findFrom(host, cache, soname, rpathPlaces(program, loaders), program.runpath());
    }
}
