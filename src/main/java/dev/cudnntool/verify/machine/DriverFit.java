package dev.cudnntool.verify.machine;
import dev.cudnntool.Arch;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.Text;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.DriverMinimums;
import dev.cudnntool.host.GpuSupport;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.host.ReleaseFit;
import dev.cudnntool.host.loader.ElfFile;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.loader.PeFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The installed cuDNN's CUDA build against the driver's CUDA ceiling. Minor-version
 * compatibility (facts §6): any 13.x build runs on a driver that supports 13.0, so only a build of
 * a newer CUDA major than the ceiling needs a newer driver. Three causes of a GPU that cannot be
 * used are told apart: the driver's CUDA library (libcuda.so.1, nvcuda.dll) missing or not
 * loadable although nvidia-smi answers ({@code driver.libcuda-missing}), a driver too old for the
 * build ({@code driver.too-old}), and no GPU visible to this process ({@code driver.no-gpu}).
 */
public final class DriverFit {
    private DriverFit() {
    }

    /** @param built the CUDA version cuDNN was built for (cudnnGetCudartVersion), or null */
    public static List<Finding> findings(Host host, DriverInfo driver, CudaVersion built) {
        return findings(host, driver, built, null);
    }

    /**
     * As above; {@code release} ("9.10.2", or null) picks the driver minimum of its support-matrix row for this GPU
     * (9.10.2 on Blackwell: 570.26) instead of the CUDA major's, where the matrix holds the release.
     */
    public static List<Finding> findings(Host host, DriverInfo driver, CudaVersion built, String release) {
        List<Finding> out = new ArrayList<>();
        if (built == null || driver == null || !driver.present() || driver.cudaCeiling() == null) {
            return out;
        }
        Optional<CudaVersion> ceiling = CudaVersion.parse(driver.cudaCeiling());
        if (ceiling.isEmpty()) {
            return out;
        }
        String rowMinimum = release == null ? null : SupportMatrix.bundled()
                .fit(release, built.major(), null, ReleaseFit.lowestGpu(driver), host.windows()).driverMinimum();
        Optional<String> min = rowMinimum != null ? Optional.of(rowMinimum) : DriverMinimums.minimum(built.major(), host.os());
        boolean belowMinimum = min.isPresent() && NvidiaSmi.compareVersions(driver.driverVersion(), min.get()) < 0;
        String cc = ReleaseFit.lowestGpu(driver);
        if ((built.major() > ceiling.get().major() || belowMinimum) && min.isPresent() && DriverMinimums.outOfReach(cc, min.get())) {
            out.add(Finding.error(FindingId.DRIVER_TOO_OLD, "this cuDNN is a CUDA " + built + " build but driver "
                            + driver.driverVersion() + " supports CUDA only up to " + ceiling.get() + ", and the " + gpuName(driver, cc)
                            + " (compute capability " + cc + ") gets no driver newer than the " + DriverMinimums.newestDriverBranch(cc).get()
                            + " branch, so no CUDA " + built.major() + " build (driver " + min.get() + " or newer) will ever run on it",
                    Fix.tool("do not update the driver past its branch: use a cuDNN build this GPU can still run, "
                            + GpuSupport.stillUsable(host, cc).orElse("one for CUDA " + ceiling.get().major()
                            + " (cudnn releases --gpu " + cc + " lists them)")
                            + "; with pip, the -cu" + ceiling.get().major() + " wheels (nvidia-cudnn-cu" + ceiling.get().major() + ")")));
            return out;
        }
        if (built.major() > ceiling.get().major() || belowMinimum) {
            out.add(Finding.error(FindingId.DRIVER_TOO_OLD, "this cuDNN is a CUDA " + built + " build but driver "
                            + driver.driverVersion() + " supports CUDA only up to " + ceiling.get()
                            + ", so cuDNN cannot create a handle or run anything on the GPU",
                    "update the NVIDIA driver to " + min.map(m -> m + " or newer (the minimum for " + (rowMinimum != null
                            ? "cuDNN " + SupportMatrix.release(release) + " on this GPU, by NVIDIA's support matrix"
                            : "any CUDA " + built.major() + ".x") + ")").orElse("one that supports CUDA " + built.major())
                            + ", or install the cuDNN build for CUDA " + ceiling.get().major()));
        }
        return out;
    }

    /** {@code driver.libcuda-missing}: nvidia-smi answers, but the library CUDA programs load to reach the driver is not there. */
    public static List<Finding> driverLibrary(Host host, DriverInfo driver) {
        if (driver == null || !driver.present()) {
            return List.of();
        }
        return libcudaProblem(host).map(p -> List.of(Finding.error(FindingId.DRIVER_LIBCUDA_MISSING, "nvidia-smi answers (driver "
                + driver.driverVersion() + ") but " + p + ": every CUDA program, cuDNN included, needs it to reach the GPU,"
                + " so none can run here whatever the driver's version", host.windows()
                ? "reinstall the NVIDIA driver (it puts nvcuda.dll into System32)"
                : "reinstall the driver's compute library (e.g. sudo apt-get install --reinstall libnvidia-compute-"
                + driverBranch(driver) + ", or the .run installer) and run sudo ldconfig; in a container, give it the compute"
                + " capability (docker run --gpus all, or NVIDIA_DRIVER_CAPABILITIES=compute,utility: 'utility' alone mounts"
                + " nvidia-smi but not libcuda.so.1)"))).orElse(List.of());
    }

    /** Why the driver's CUDA library cannot be loaded, or empty when it can. */
    public static Optional<String> libcudaProblem(Host host) {
        if (host.windows()) {
            String root = host.env("SystemRoot") == null ? "C:\\Windows" : host.env("SystemRoot");
            Path dll = host.path(root, "System32", "nvcuda.dll");
            if (!Files.exists(dll)) {
                return Optional.of("nvcuda.dll, the driver's CUDA library, is not in " + dll.getParent());
            }
            try {
                PeFile.Info info = PeFile.read(dll);
                return info.x64() ? Optional.empty() : Optional.of(dll + " is a " + info.machineName() + " image, not x64");
            } catch (IOException | RuntimeException e) {
                return Optional.of(dll + " is not a valid DLL (" + e.getMessage() + ")");
            }
        }
        Optional<LoaderPath.Hit> hit = LoaderPath.find(host, LdSoCache.of(host), "libcuda.so.1", List.of(), List.of());
        if (hit.isEmpty()) {
            return Optional.of("libcuda.so.1, the driver's CUDA library, is not found by the loader (not in /etc/ld.so.cache,"
                    + " on LD_LIBRARY_PATH or in the system folders)");
        }
        Path f = hit.get().file();
        try {
            Optional<String> damage = ElfFile.damage(f);
            if (damage.isPresent()) {
                return Optional.of(f + " (libcuda.so.1) cannot be loaded: " + damage.get());
            }
            Optional<ElfFile.Machine> m = ElfFile.machine(f);
            if (m.isPresent() && m.get().arch() != host.arch() && !(host.arch() == Arch.SBSA
                    && m.get().arch() == Arch.AARCH64)) {
                return Optional.of(f + " (libcuda.so.1) is built for " + m.get().name() + ", not this machine's CPU");
            }
        } catch (IOException | RuntimeException e) {
            return Optional.of(f + " (libcuda.so.1) cannot be read: " + e.getMessage());
        }
        return Optional.empty();
    }

    /** {@code driver.no-gpu}: CUDA_VISIBLE_DEVICES hides every GPU from programs started with this environment. */
    public static List<Finding> visibility(Host host, DriverInfo driver) {
        String v = host.env("CUDA_VISIBLE_DEVICES");
        if (driver == null || !driver.present() || v == null || !hidesAll(v)) {
            return List.of();
        }
        return List.of(Finding.warn(FindingId.DRIVER_NO_GPU, "CUDA_VISIBLE_DEVICES=" + Text.printable(v)
                        + " hides every GPU from programs started here, so cuDNN cannot create a handle (the driver itself is fine)",
                "unset CUDA_VISIBLE_DEVICES, or set it to the GPUs to use (e.g. export CUDA_VISIBLE_DEVICES=0)"));
    }

    /** Whether a CUDA_VISIBLE_DEVICES value leaves no device: empty, or starting with an invalid index such as -1. */
    public static boolean hidesAll(String v) {
        String first = v.strip().split(",", -1)[0].strip().toLowerCase(Locale.ROOT);
        return first.isEmpty() || first.startsWith("-") || first.equals("nodevfiles") || first.equals("none")
                || first.equals("void");
    }

    /**
     * Why cudnnCreate failed while nvidia-smi answers, in the order the causes exclude each other:
     * no driver library, no GPU visible, a driver too old for the build; else not the driver's version.
     *
     * @return the cause in words and its fix
     */
    public static String[] handleCause(Host host, DriverInfo driver, CudaVersion built) {
        Optional<String> lib = libcudaProblem(host);
        if (lib.isPresent()) {
            return new String[] {"because " + lib.get() + " (driver.libcuda-missing)", "make the driver's CUDA library loadable"
                    + " (see driver.libcuda-missing)"};
        }
        String v = host.env("CUDA_VISIBLE_DEVICES");
        if (v != null && hidesAll(v)) {
            return new String[] {"because CUDA_VISIBLE_DEVICES=" + Text.printable(v) + " hides every GPU",
                    "unset CUDA_VISIBLE_DEVICES or name the GPU to use"};
        }
        Optional<CudaVersion> ceiling = driver.cudaCeiling() == null ? Optional.empty() : CudaVersion.parse(driver.cudaCeiling());
        if (built != null && ceiling.isPresent() && built.major() > ceiling.get().major()) {
            return new String[] {"because driver " + driver.driverVersion() + " supports CUDA only up to " + ceiling.get()
                    + " and this is a CUDA " + built + " build (driver.too-old)", "update the NVIDIA driver (see driver.too-old)"};
        }
        String fits = ceiling.isPresent() ? "driver " + driver.driverVersion() + " supports CUDA up to " + ceiling.get()
                + (built == null ? "" : ", enough for this CUDA " + built + " build") + ", so its version is not the cause"
                : "driver " + driver.driverVersion() + " is present";
        return new String[] {"although " + fits, "check that nvidia-smi lists the GPU without errors, that this user may open"
                + (host.windows() ? " the GPU (not in use by another session in exclusive mode)" : " /dev/nvidia* (the video or render"
                + " group)") + ", that no other process holds it in Exclusive Process compute mode (nvidia-smi -q -d COMPUTE), and"
                + " that this cuDNN release supports the GPU's compute capability"};
    }

    private static String gpuName(DriverInfo driver, String cc) {
        return driver.gpus().stream().filter(g -> cc.equals(g.computeCapability())).map(NvidiaSmi.Gpu::name).findFirst().orElse("GPU");
    }

    private static String driverBranch(DriverInfo driver) {
        String v = driver.driverVersion();
        int dot = v.indexOf('.');
        return dot > 0 ? v.substring(0, dot) : "<branch>";
    }
}
