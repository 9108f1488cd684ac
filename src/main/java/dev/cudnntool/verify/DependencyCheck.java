package dev.cudnntool.verify;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.diagnosis.InstalledCudnn;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.ElfFile;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LoaderPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The libraries cuDNN needs from elsewhere at run time (facts §4a): zlib when it is loaded, and
 * cuBLASLt (cuDNN 8: cuBLAS too) and NVRTC, which it opens by name only when an engine needs them:
 * a machine without them passes cudnnGetVersion and fails later inside a training job. Each is
 * looked up with the loader model cuDNN's own dlopen/LoadLibrary would use.
 */
final class DependencyCheck {
    private static final Pattern SO_MAJOR = Pattern.compile("\\.so\\.(\\d+)$|64_(\\d+)\\.dll$|nvrtc64_(\\d+)\\d_0\\.dll$");

    private DependencyCheck() {
    }

    /** @param cudaMajor the CUDA major cuDNN was built for, or null when unknown (then only zlib is checked) */
    static List<Finding> findings(Host host, InstalledCudnn c, Integer cudaMajor) {
        return findings(host, c, needingZlib(host, c), cudaMajor);
    }

    /** The libraries that need libz.so.1 at load time (Linux; read from their ELF headers). */
    static List<String> needingZlib(Host host, InstalledCudnn c) {
        List<String> needZ = new ArrayList<>();
        if (host.windows()) {
            return needZ;
        }
        boolean anyRead = false;
        for (Path lib : FileChecks.libraries(c)) {
            try {
                ElfFile.Info info = ElfFile.read(lib, false);
                anyRead = true;
                if (info.needed().contains("libz.so.1")) {
                    needZ.add(lib.getFileName().toString());
                }
            } catch (IOException | RuntimeException ignored) {
                // not readable as ELF: damage is reported elsewhere
            }
        }
        if (!anyRead && c.major() >= 9) {
            needZ.add("libcudnn_graph.so." + c.major()); // facts §4a, when the files cannot be read
        }
        return needZ;
    }

    /** @param needZ what {@link #needingZlib} found (read while the probe runs) */
    static List<Finding> findings(Host host, InstalledCudnn c, List<String> needZ, Integer cudaMajor) {
        Map<String, String> needs = new LinkedHashMap<>(); // library -> what needs it
        List<Path> libs = FileChecks.libraries(c);
        List<Path> runpath = new ArrayList<>(List.of(c.runtimeDir()));
        if (!needZ.isEmpty()) {
            needs.put("libz.so.1", String.join(", ", needZ) + " (at load time)");
        }
        if (cudaMajor != null && cudaMajor > 0) {
            String engines = "cuDNN " + c.major() + " (opened by name at run time by ";
            if (host.windows()) {
                needs.put("cublasLt64_" + cudaMajor + ".dll", engines + "matmul, convolution and RNN engines)");
                if (c.major() <= 8) {
                    needs.put("cublas64_" + cudaMajor + ".dll", engines + "legacy convolution and RNN APIs)");
                }
                needs.put("nvrtc64_" + cudaMajor + (cudaMajor == 11 ? "2" : "0") + "_0.dll", engines + "runtime-compiled engines)");
            } else {
                needs.put("libcublasLt.so." + cudaMajor, engines + "matmul, convolution and RNN engines)");
                if (c.major() <= 8) {
                    needs.put("libcublas.so." + cudaMajor, engines + "legacy convolution and RNN APIs)");
                }
                needs.put("libnvrtc.so." + cudaMajor, engines + "runtime-compiled engines)");
            }
        }
        List<Finding> out = new ArrayList<>();
        LdSoCache cache = host.windows() ? LdSoCache.empty() : LdSoCache.of(host);
        // The libraries open their dependencies with their own DT_RUNPATH: $ORIGIN, and in NVIDIA's wheels also
        // $ORIGIN/../../cublas/lib, ../../cuda_nvrtc/lib (CUDA 12) or ../../cu13/lib (CUDA 13), read from the files.
        if (!host.windows()) {
            for (Path lib : libs) {
                try {
                    ElfFile.Info info = ElfFile.read(lib, false);
                    for (Path d : ElfFile.expand(info.runpath().isEmpty() ? info.rpath() : info.runpath(), lib)) {
                        if (runpath.stream().noneMatch(r -> host.samePath(r, d))) {
                            runpath.add(d);
                        }
                    }
                } catch (IOException | RuntimeException ignored) {
                    // unreadable: its damage is reported elsewhere
                }
            }
        }
        for (Map.Entry<String, String> e : needs.entrySet()) {
            String name = e.getKey();
            boolean found = Files.exists(c.runtimeDir().resolve(name))
                    || LoaderPath.find(host, cache, name, List.of(), runpath).isPresent();
            if (!found) {
                out.add(Finding.warn(FindingId.CUDNN_DEPENDENCY_MISSING, name + " is needed by " + e.getValue()
                                + " but the loader cannot find it (not next to cuDNN in " + c.runtimeDir() + ", not on "
                                + (host.windows() ? "PATH" : "LD_LIBRARY_PATH or in /etc/ld.so.cache") + ")",
                        origin(name, c.major())));
            }
        }
        return out;
    }

    /** Where a dependency normally comes from, as a fix. */
    static String origin(String name, int cudnnMajor) {
        Matcher m = SO_MAJOR.matcher(name);
        String cuda = "";
        if (m.find()) {
            cuda = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.startsWith("libz") || lower.startsWith("zlib")) {
            return "install zlib: sudo apt install zlib1g (Debian, Ubuntu) or sudo dnf install zlib (Fedora, RHEL)";
        }
        // From CUDA 13 NVIDIA's wheels drop the -cuNN suffix (nvidia-cublas 13.x, nvidia-cuda-nvrtc 13.x).
        boolean suffix = cuda.isEmpty() || Integer.parseInt(cuda) < 13;
        String pip = (lower.contains("nvrtc") ? "nvidia-cuda-nvrtc" : "nvidia-cublas") + (suffix ? "-cu" + cuda : "==" + cuda + ".*");
        String what = lower.contains("nvrtc") ? "NVRTC" : lower.contains("cublaslt") ? "cuBLASLt" : "cuBLAS";
        boolean windows = lower.endsWith(".dll");
        return name + " is " + what + " from the CUDA " + cuda + " toolkit: it is in the toolkit's "
                + (windows ? "bin" : "lib64") + " folder (install the toolkit's " + what + " component), or in the pip"
                + " package " + pip + "; put that folder on " + (windows ? "PATH" : "LD_LIBRARY_PATH");
    }
}
