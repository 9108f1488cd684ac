package dev.cudnntool.verify;

import dev.cudnntool.diagnosis.CudnnCopy;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LoaderPath;
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
final class TwoCudarts {
    /** The CUDA majors looked for. */
    static final List<Integer> MAJORS = List.of(10, 11, 12, 13, 14);

    private TwoCudarts() {
    }

    /** The runtime's file name of a CUDA major (Windows: cudart64_110.dll for 11, cudart64_12.dll from 12). */
    static List<String> names(Host host, int major) {
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
    static String how(LoaderPath.Mechanism m) {
        return switch (m) {
            case LD_SO_CACHE -> "/etc/ld.so.cache";
            case DEFAULT_FOLDER -> "a default folder";
            case SYSTEM32 -> "System32";
            case WINDOWS_FOLDER -> "the Windows folder";
            case APPLICATION_FOLDER -> "the program's folder";
            default -> m.name();
        };
    }

    static List<Finding> findings(Host host, List<CudnnCopy> copies) {
        if (copies.stream().noneMatch(CudnnCopy::winsByName)) {
            return List.of(); // no cuDNN a program gets by name: not cuDNN's business
        }
        LdSoCache cache = host.windows() ? LdSoCache.empty() : LdSoCache.of(host);
        List<String> reachable = new ArrayList<>();
        List<Integer> majors = new ArrayList<>();
        for (int major : MAJORS) {
            for (String name : names(host, major)) {
                Optional<LoaderPath.Hit> hit = LoaderPath.find(host, cache, name, List.of(), List.of());
                if (hit.isPresent()) {
                    majors.add(major);
                    reachable.add(name + " (" + hit.get().file().getParent() + ", " + how(hit.get().place().mechanism()) + ")");
                    break;
                }
            }
        }
        if (majors.size() < 2) {
            return List.of();
        }
        String list = String.join(" and ", reachable);
        return List.of(Finding.warn(FindingId.CUDNN_TWO_CUDARTS, "CUDA runtimes of " + majors.size() + " majors are reachable by name: "
                        + list + "; a program built for one that loads a cuDNN or library built for the other gets two CUDA runtimes"
                        + " in one process",
                "keep one CUDA major on " + (host.windows() ? "PATH" : "LD_LIBRARY_PATH and in /etc/ld.so.conf.d (then sudo ldconfig)")
                        + ": remove the other's folder, and take the cuDNN build for the CUDA major your programs use"
                        + " (cudnn releases --cuda " + majors.get(majors.size() - 1) + ")"));
    }
}
