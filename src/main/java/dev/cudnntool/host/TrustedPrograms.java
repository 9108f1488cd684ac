package dev.cudnntool.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one place that says where the programs the tool runs (as root or Administrator) come from:
 * a fixed, trusted folder each, never {@code PATH} and never the current folder. {@code ldconfig}:
 * {@code /sbin} or {@code /usr/sbin}, a regular file owned by root; {@code nvidia-smi}: the driver's
 * own folders ({@code /usr/bin}, {@code /usr/sbin}, {@code /bin}, WSL's {@code /usr/lib/wsl/lib};
 * Windows {@code %SystemRoot%\System32} and {@code C:\Program Files\NVIDIA Corporation\NVSMI});
 * {@code nvcc}: the {@code bin} of the toolkit it describes; {@code rpm} (asked who owns a cuDNN copy):
 * {@code /usr/bin} or {@code /bin}. Each must be a regular file (a link is
 * judged by the file it leads to) that neither its group nor others may write, and, where the file
 * system tells owners by number ({@code unix:uid}), owned by root ({@code nvcc}: by root or by the
 * owner of the toolkit's folder). The probe child is this process's own Java, by absolute path.
 */
public final class TrustedPrograms {
    private TrustedPrograms() {
    }

    /** The folders ldconfig is taken from, in order. */
    public static final List<String> LDCONFIG_DIRS = List.of("/sbin", "/usr/sbin");
    /** The folders the NVIDIA driver puts nvidia-smi into on Linux (WSL's own is added in WSL). */
    public static final List<String> NVIDIA_SMI_DIRS = List.of("/usr/bin", "/usr/sbin", "/bin");
    static final String WSL_DIR = "/usr/lib/wsl/lib";
    /** The folders rpm is taken from, in order. */
    public static final List<String> RPM_DIRS = List.of("/usr/bin", "/bin");

    /** ldconfig from /sbin or /usr/sbin, if one there can be trusted. */
    public static Optional<Path> ldconfig(Host host) {
        for (String d : LDCONFIG_DIRS) {
            Path p = host.path(d, "ldconfig");
            if (untrusted(p, true, null) == null) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** rpm from /usr/bin or /bin, if one there can be trusted (root's, not writable by others). */
    public static Optional<Path> rpm(Host host) {
        if (host.windows()) {
            return Optional.empty();
        }
        for (String d : RPM_DIRS) {
            Path p = host.path(d, "rpm");
            if (untrusted(p, true, null) == null) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** nvidia-smi from the driver's folders, if one there can be trusted. */
    public static Optional<Path> nvidiaSmi(Host host, boolean wsl) {
        for (Path p : nvidiaSmiPlaces(host, wsl)) {
            if (untrusted(p, !host.windows(), null) == null) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Where nvidia-smi is looked for, in order: the driver's folders only. */
    public static List<Path> nvidiaSmiPlaces(Host host, boolean wsl) {
        List<Path> out = new ArrayList<>();
        if (host.windows()) {
            String root = host.env("SystemRoot");
            if (root == null || !host.path(root).isAbsolute()) {
                root = "C:\\Windows";
            }
            out.add(host.path(root, "System32", "nvidia-smi.exe"));
            out.add(host.path("C:\\Program Files", "NVIDIA Corporation", "NVSMI", "nvidia-smi.exe"));
            return out;
        }
        for (String d : NVIDIA_SMI_DIRS) {
            out.add(host.path(d, "nvidia-smi"));
        }
        if (wsl) {
            out.add(host.path(WSL_DIR, "nvidia-smi"));
        }
        return out;
    }

    /** nvcc from the toolkit's own bin, if it can be trusted. */
    public static Optional<Path> nvcc(Host host, Path toolkitRoot) {
        Path p = toolkitRoot.resolve("bin").resolve(host.windows() ? "nvcc.exe" : "nvcc");
        return untrusted(p, false, toolkitRoot) == null ? Optional.of(p) : Optional.empty();
    }

    /**
     * Why {@code program} may not be run, or null when it may: not a regular file, writable by group
     * or others, or (where the file system says owners by number) not owned by root, or, with
     * {@code ownerOf}, by neither root nor the owner of that folder.
     */
    static String untrusted(Path program, boolean rootOwned, Path ownerOf) {
        try {
            if (!program.isAbsolute()) {
                return program + " is not an absolute path";
            }
            if (!Files.isRegularFile(program)) {
                return program + " is not a regular file";
            }
            var views = program.getFileSystem().supportedFileAttributeViews();
            if (views.contains("posix")) {
                PosixFileAttributes a = Files.readAttributes(program, PosixFileAttributes.class);
                if (a.permissions().contains(PosixFilePermission.GROUP_WRITE)
                        || a.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
                    return program + " may be changed by users other than its owner";
                }
            }
            if (views.contains("unix")) {
                int uid = (Integer) Files.getAttribute(program, "unix:uid");
                boolean ok = uid == 0 || !rootOwned && ownerOf != null && uid == (Integer) Files.getAttribute(ownerOf, "unix:uid");
                if (!ok) {
                    return program + " is not owned by root";
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return program + " cannot be examined (" + e.getMessage() + ")";
        }
    }
}
