package dev.cudnntool.verify;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.diagnosis.Diagnosis;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.owner.Owner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * #33 item 2: when the toolkit (or prefix) holds no cuDNN, the copy that matters is judged in plain {@code verify},
 * not only with {@code --all}: the one programs get by name (a container's or a distribution package's), and the
 * active environment's ({@code VIRTUAL_ENV}, else {@code CONDA_PREFIX}). Its damage, missing files and a build for
 * another CUDA major than this machine's are errors. A discovered copy with its owner (settled.md), not an install target:
 * JSON {@code target.kind} names the owner's kind.
 */
final class DiscoveredTarget {
    private DiscoveredTarget() {
    }

    /** The copies plain verify judges: none when the target holds cuDNN, or with --all (every copy is judged then). */
    static List<CudnnCopy> chosen(Host host, Diagnosis d) {
        if (d.cudnn() != null || d.question().all()) {
            return List.of();
        }
        Path env = activeEnvironment(host);
        List<CudnnCopy> out = new ArrayList<>();
        for (CudnnCopy c : d.copies()) {
            if (c.origin() == CudnnCopy.Origin.TARGET) {
                continue;
            }
            boolean inEnv = env != null && host.path(c.path()).startsWith(env);
            if (c.winsByName() || inEnv) {
                out.add(c);
            }
        }
        return out;
    }

    /** VIRTUAL_ENV, else CONDA_PREFIX (the user's choice, read as input, never executed from), or null. */
    static Path activeEnvironment(Host host) {
        for (String name : List.of("VIRTUAL_ENV", "CONDA_PREFIX")) {
            String v = host.env(name);
            if (v != null && !v.isBlank()) {
                try {
                    Path p = host.path(v);
                    if (p.isAbsolute()) {
                        return p.normalize();
                    }
                } catch (RuntimeException e) {
                    // not a path on this file system
                }
            }
        }
        return null;
    }

    /**
     * The copy's own file checks (those of {@code --all}) with its owner's fixes, and a build for another CUDA
     * major than the toolkit's when this machine has no cuBLASLt of that major (a {@code libcudnn9-cuda-12} on a
     * CUDA 13 image): an error. A pip or conda copy is judged against its own environment's runtime, not the
     * toolkit (cudnn-facts.md §4a): only its missing dependency is said.
     */
    static List<Finding> judge(Diagnosis d, CudnnCopy copy, Function<CudnnCopy, List<Finding>> files) {
        List<Finding> out = new ArrayList<>(OwnersFixes.apply(files.apply(copy), copy.owner()));
        Integer built = cudaMajorOf(copy);
        boolean environment = copy.origin() == CudnnCopy.Origin.PIP || copy.origin() == CudnnCopy.Origin.CONDA;
        if (built != null && !environment && d.toolkit() != null && d.toolkit().version() != null
                && d.toolkit().version().major() != built) {
            boolean noCublas = out.stream().anyMatch(f -> f.is(FindingId.CUDNN_DEPENDENCY_MISSING)
                    && f.message().startsWith("libcublasLt.so." + built + " "));
            if (noCublas) {
                int want = d.toolkit().version().major();
                out.removeIf(f -> f.is(FindingId.CUDNN_OK));
                out.add(Finding.error(FindingId.CUDNN_CUDART_MISMATCH, "the cuDNN programs get by name, " + copy.path()
                                + (copy.owner().name() == null ? "" : " (" + copy.owner().name() + ")") + ", is the CUDA " + built
                                + " build, but this machine's toolkit is CUDA " + d.toolkit().version() + " and no cuBLASLt of CUDA "
                                + built + " is found: its convolution, matmul and RNN engines cannot run",
                        copy.owner().kind() == Owner.Kind.DPKG && copy.owner().name() != null
                                ? Fix.packageManager("sudo apt-get install " + copy.owner().name().replaceAll("cuda-\\d+$", "cuda-" + want))
                                : Fix.text("install the CUDA " + want + " build of the same cuDNN release")));
            }
        }
        return out;
    }

    /** The CUDA major a copy is built for, when its owner's package name says; null when unknown. */
    static Integer cudaMajorOf(CudnnCopy copy) {
        Integer pip = VerifyService.cudaMajorOf(copy);
        if (pip != null) {
            return pip;
        }
        Owner o = copy.owner();
        if (o != null && o.name() != null && o.name().matches("libcudnn\\d+(-dev)?-cuda-\\d{2}")) {
            return Integer.valueOf(o.name().substring(o.name().lastIndexOf('-') + 1));
        }
        return null;
    }

    /** JSON {@code target} for a judged copy: the owner's kind (pip, conda, dpkg, rpm, tool), else how it was found. */
    static String kind(CudnnCopy copy) {
        return copy.owner() != null && copy.owner().kind() != Owner.Kind.NONE ? copy.owner().kind().label() : copy.origin().label();
    }
}
