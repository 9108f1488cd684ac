package dev.cudnntool.verify.machine;

import dev.cudnntool.diagnosis.CudnnCopy;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LoaderPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code cudnn.two-cudarts} (#19 B17): CUDA runtimes of two majors ({@code libcudart.so.12} and
 * {@code .13}; Windows {@code cudart64_12.dll} and {@code cudart64_13.dll}) reachable by name from
 * one program, where a cuDNN is reachable too. Code built for one CUDA major that loads a cuDNN
 * (or a library) built for the other ends up with two CUDA runtimes in one process
 * (NVIDIA/cudnn-frontend #211): contexts and streams of one are invalid in the other. A warning: a
 * program built for one major never asks for the other's runtime by itself.
 */
public final class TwoCudarts {
    /** The CUDA majors looked for. */
    static final List<Integer> MAJORS = List.of(10, 11, 12, 13, 14);

    private TwoCudarts() {
    }

    /** The runtime's file name of a CUDA major (Windows: cudart64_110.dll for 11, cudart64_12.dll from 12). */
    public static List<String> names(Host host, int major) {
        if (!host.windows()) {
            return List.of("libcudart.so." + major);
        }
        return switch (major) {
            case 10 -> List.of("cudart64_100.dll", "cudart64_101.dll", "cudart64_102.dll");
            case 11 -> List.of("cudart64_110.dll");
            default -> List.of("cudart64_" + major + ".dll");
        };
    }

    /** What put a folder on the search, in a word. */
    public static String how(LoaderPath.Mechanism m) {
        return switch (m) {
            case LD_SO_CACHE -> "/etc/ld.so.cache";
            case DEFAULT_FOLDER -> "a default folder";
            case SYSTEM32 -> "System32";
            case WINDOWS_FOLDER -> "the Windows folder";
            case APPLICATION_FOLDER -> "the program's folder";
            default -> m.name();
        };
    }

    public static List<Finding> findings(Host host, List<CudnnCopy> copies) {
        return findings(host, copies, List.of());
    }

    /**
     * #33 A5/A6: two runtimes in one process, not two toolkits side by side on disk. Runtimes reached only through
     * /etc/ld.so.cache or a default folder (each toolkit's package registers its own folder) are each loaded only by
     * the programs that ask for that major: silent. A runtime the environment puts before everything
     * (LD_LIBRARY_PATH, preloading, PATH on Windows) beside another major's is a warning; so is a framework
     * environment's own runtime (a torch wheel's {@code nvidia/cu13/lib/libcudart.so.13}) beside another major's runtime
     * on LD_LIBRARY_PATH, which the loader searches before torch's DT_RUNPATH.
     *
     * @param environments the Python site-packages folders looked at
     */
    public static List<Finding> findings(Host host, List<CudnnCopy> copies, List<Path> environments) {
        List<Finding> out = new ArrayList<>(environmentRuntimes(host, environments));
        if (!out.isEmpty() || copies.stream().noneMatch(CudnnCopy::winsByName)) {
            return out; // no cuDNN a program gets by name: not cuDNN's business
        }
        LdSoCache cache = host.windows() ? LdSoCache.empty() : LdSoCache.of(host);
        List<String> reachable = new ArrayList<>();
        List<Integer> majors = new ArrayList<>();
        boolean forced = false;
        for (int major : MAJORS) {
            for (String name : names(host, major)) {
                Optional<LoaderPath.Hit> hit = LoaderPath.find(host, cache, name, List.of(), List.of());
                if (hit.isPresent()) {
                    majors.add(major);
                    forced |= forcedOnEveryProgram(hit.get().place().mechanism());
                    reachable.add(name + " (" + hit.get().file().getParent() + ", " + how(hit.get().place().mechanism()) + ")");
                    break;
                }
            }
        }
        if (majors.size() < 2 || !forced) {
            return List.of(); // one major, or toolkits side by side that each program reaches only for its own major
        }
        String list = String.join(" and ", reachable);
        return List.of(Finding.warn(FindingId.CUDNN_TWO_CUDARTS, "CUDA runtimes of " + majors.size() + " majors are reachable by name: "
                        + list + "; a program built for one that loads a cuDNN or library built for the other gets two CUDA runtimes"
                        + " in one process",
                "keep one CUDA major on " + (host.windows() ? "PATH" : "LD_LIBRARY_PATH and in /etc/ld.so.conf.d (then sudo ldconfig)")
                        + ": remove the other's folder, and take the cuDNN build for the CUDA major your programs use"
                        + " (cudnn releases --cuda " + majors.get(majors.size() - 1) + ")"));
    }

    /** What the environment puts before every program's own folders, as opposed to a folder the system registered. */
    public static boolean forcedOnEveryProgram(LoaderPath.Mechanism m) {
        return m == LoaderPath.Mechanism.LD_LIBRARY_PATH || m == LoaderPath.Mechanism.PRELOAD || m == LoaderPath.Mechanism.PATH;
    }

    /** A torch environment's own CUDA runtime against a runtime of another major on LD_LIBRARY_PATH. */
    public static List<Finding> environmentRuntimes(Host host, List<Path> environments) {
        if (host.windows()) {
            return List.of();
        }
        List<Finding> out = new ArrayList<>();
        for (Path site : environments) {
            if (!Files.isDirectory(site.resolve("torch"))) {
                continue;
            }
            for (Path own : ownRuntimes(site)) {
                int envMajor = Integer.parseInt(own.getFileName().toString().substring("libcudart.so.".length()));
                for (int major : MAJORS) {
                    if (major == envMajor) {
                        continue;
                    }
                    Optional<Path> onPath = onLdLibraryPath(host, "libcudart.so." + major);
                    if (onPath.isPresent()) {
                        out.add(Finding.warn(FindingId.CUDNN_TWO_CUDARTS, "torch in " + site + " brings its own CUDA " + envMajor
                                        + " runtime (" + own + ") but LD_LIBRARY_PATH holds CUDA " + major + "'s (" + onPath.get()
                                        + "); the loader searches LD_LIBRARY_PATH before torch's own DT_RUNPATH, so a CUDA " + major
                                        + " library there (cuDNN, cuBLAS) loaded into torch gets two CUDA runtimes in one process",
                                "take " + onPath.get().getParent() + " off LD_LIBRARY_PATH for this environment (torch finds its"
                                        + " own CUDA " + envMajor + " libraries without it)"));
                        break;
                    }
                }
            }
        }
        return out;
    }

    /** The CUDA runtimes a wheel set puts beside torch: nvidia/cuda_runtime/lib (CUDA 12) and nvidia/cuNN/lib (CUDA 13 on). */
    private static List<Path> ownRuntimes(Path site) {
        List<Path> out = new ArrayList<>();
        for (int major : MAJORS) {
            for (Path dir : List.of(site.resolve("nvidia/cuda_runtime/lib"), site.resolve("nvidia/cu" + major + "/lib"))) {
                Path f = dir.resolve("libcudart.so." + major);
                if (Files.exists(f) && out.stream().noneMatch(o -> o.getFileName().equals(f.getFileName()))) {
                    out.add(f);
                }
            }
        }
        return out;
    }

    private static Optional<Path> onLdLibraryPath(Host host, String name) {
        String v = host.env("LD_LIBRARY_PATH");
        if (v == null) {
            return Optional.empty();
        }
        for (String e : v.split(":", -1)) {
            if (e.isEmpty() || e.length() > 4096) {
                continue;
            }
            try {
                Path f = host.path(e).resolve(name);
                if (f.isAbsolute() && Files.exists(f)) {
                    return Optional.of(f);
                }
            } catch (RuntimeException bad) {
                // a hostile entry (an invalid path) names nothing
            }
        }
        return Optional.empty();
    }
}
