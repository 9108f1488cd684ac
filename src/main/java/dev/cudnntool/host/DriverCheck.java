package dev.cudnntool.host;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.archive.catalogue.SupportMatrix;
import dev.cudnntool.archive.name.ArchiveName;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Finds nvidia-smi, asks it about the driver, and compares with what the archive needs. */
public final class DriverCheck {
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    public record Result(DriverInfo driver, List<Finding> findings) {
    }

    private DriverCheck() {
    }

    public static Result check(Host host, Platform platform, ArchiveName archive) {
        List<Finding> out = new ArrayList<>();
        Optional<Path> smi = locate(host, platform);
        if (smi.isEmpty()) {
            out.add(Finding.warn(FindingId.DRIVER_MISSING, "nvidia-smi was not found, so no NVIDIA driver seems to be installed;"
                            + " cuDNN can be installed but not used on this machine",
                    "install the NVIDIA driver for your GPU (nothing to do on a build machine without a GPU)"));
            return new Result(DriverInfo.NONE, out);
        }
        String exe = smi.get().toString();
        ProcessResult header = host.runner().run(List.of(exe), TIMEOUT);
        Optional<NvidiaSmi.Header> parsed = header.started() && !header.timedOut()
                ? NvidiaSmi.parseHeader(header.out()) : Optional.empty();
        if (header.started() && !header.timedOut() && (header.out() + header.err()).contains("No devices were found")) {
            out.add(Finding.warn(FindingId.DRIVER_NO_GPU, exe + " says \"No devices were found\": the driver is loaded but no GPU is"
                            + " visible (a GPU not passed through to this VM or container, fallen off the bus, or bound to another driver)",
                    "check lspci | grep -i nvidia and dmesg for NVRM errors; in a container, start it with --gpus all"));
            return new Result(new DriverInfo(exe, null, null, List.of()), out);
        }
        if (parsed.isEmpty() || header.exitCode() != 0) {
            String why;
            if (!header.started()) {
                why = "could not be started: " + header.startFailure();
            } else if (header.timedOut()) {
                why = "did not answer within " + TIMEOUT.toSeconds() + " s (a hung driver)";
            } else {
                String tail = header.tail(2);
                why = "failed (exit " + header.exitCode() + ")" + (tail.isEmpty() ? " with no output" : ": \"" + tail + "\"");
            }
            out.add(Finding.error(FindingId.DRIVER_FAILED, exe + " " + why,
                    "reinstall or restart the NVIDIA driver (reboot after an update); on Linux check that the kernel module"
                            + " is loaded (lsmod | grep nvidia)"));
            return new Result(new DriverInfo(exe, null, null, List.of()), out);
        }
        List<NvidiaSmi.Gpu> gpus = gpus(host, exe);
        NvidiaSmi.Header h = parsed.get();
        DriverInfo info = new DriverInfo(exe, h.driverVersion(), h.cudaCeiling(), gpus);
        String ceiling = h.cudaCeiling() == null ? "" : ", supports CUDA up to " + h.cudaCeiling()
                + " (the driver's ceiling, not the installed toolkit)";
        if (archive != null) {
            int cuda = archive.cudaVariant().major();
            String release = archive.version().toString();
            SupportMatrix.Fit fit = SupportMatrix.bundled().fit(release, cuda, null, ReleaseFit.lowestGpu(info), host.windows());
            Optional<String> min = DriverMinimums.minimum(fit, cuda, host.os());
            if (min.isPresent() && NvidiaSmi.compareVersions(h.driverVersion(), min.get()) < 0) {
                out.add(Finding.error(FindingId.DRIVER_TOO_OLD, "driver " + h.driverVersion() + ceiling + " is older than "
                                + min.get() + ", the minimum for " + archive.fileName() + " (a CUDA " + cuda + " build"
                                + (fit.driverMinimum() != null ? "; NVIDIA's support matrix of cuDNN " + SupportMatrix.release(release)
                                + (Boolean.TRUE.equals(fit.gpuOk()) ? " for this GPU" : "") : "") + ")",
                        "update the NVIDIA driver to " + min.get() + " or newer"
                                + (cuda == 13 && host.windows() ? " (NVIDIA publishes no Windows minimum for CUDA 13; R580 is the Linux one)" : "")));
                return new Result(info, out);
            }
        }
        String gpuText = gpus.isEmpty() ? "no GPU listed" : gpus.size() + " GPU(s): "
                + gpus.stream().map(NvidiaSmi.Gpu::name).collect(Collectors.joining(", "));
        out.add(Finding.info(FindingId.DRIVER_OK, "NVIDIA driver " + h.driverVersion() + ceiling + "; " + gpuText));
        return new Result(info, out);
    }

    /**
     * The GPUs with their compute capability; an nvidia-smi too old for {@code compute_cap} fails that query, and the
     * plain one is asked instead (GPUs without a compute capability).
     */
    static List<NvidiaSmi.Gpu> gpus(Host host, String exe) {
        ProcessResult withCc = host.runner().run(List.of(exe, NvidiaSmi.GPU_QUERY_CC, "--format=csv,noheader"), TIMEOUT);
        List<NvidiaSmi.Gpu> gpus = withCc.ok() ? NvidiaSmi.parseGpuListWithCc(withCc.out()) : List.of();
        if (!gpus.isEmpty()) {
            return gpus;
        }
        ProcessResult query = host.runner().run(List.of(exe, NvidiaSmi.GPU_QUERY, "--format=csv,noheader"), TIMEOUT);
        return query.ok() ? NvidiaSmi.parseGpuList(query.out()) : List.of();
    }

    /**
     * The driver's own nvidia-smi, from its fixed folders only ({@link TrustedPrograms}): never from
     * PATH, where anyone who can write one of its folders could plant a program the tool runs as root.
     */
    static Optional<Path> locate(Host host, Platform platform) {
        return TrustedPrograms.nvidiaSmi(host, platform.wsl());
    }
}
