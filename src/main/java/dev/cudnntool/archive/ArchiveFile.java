package dev.cudnntool.archive;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.ArchiveName;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The file a user passed as a cuDNN archive, told apart from the usual mistakes before its name is
 * judged: a path that does not exist (exit 2 whatever its name), a folder (the unpacked archive:
 * "pass the archive itself"), and files that are cuDNN in another form or another product (a
 * Python wheel other than NVIDIA's nvidia_cudnn_cuNN one, which is a source like an archive; NVIDIA's local-repo .deb/.rpm, the Windows .exe installer, TensorRT, CUDA, another NVIDIA
 * redist archive): each gets its own one-line message and fix (exit 3).
 */
public final class ArchiveFile {
    private static final Pattern WHEEL = Pattern.compile("nvidia_cudnn_cu(\\d{1,3})-(\\d{1,4}(?:\\.\\d{1,9}){1,3})-.*\\.whl",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern REDIST = Pattern.compile("([a-z0-9_]{1,64})-(linux|windows)-[a-z0-9_]{1,16}-[0-9.]{1,32}"
            + "(?:_cuda\\d{1,3})?-archive\\.(?:zip|tar\\.xz)", Pattern.CASE_INSENSITIVE);
    private static final int FOLDER_LOOK = 2048; // entries looked at, in all, when telling an unpacked archive from another folder

    private ArchiveFile() {
    }

    /** The archive's name, parsed, once the file is known to be a regular file that may be a cuDNN archive. */
    public static ArchiveName name(Path file) {
        String shown = Text.printable(file.toString());
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS) || !Files.exists(file)) {
            throw new ToolException(ExitCode.USAGE, "archive " + shown + " does not exist",
                    "check the path; `cudnn releases` names the archive to download for this machine");
        }
        if (Files.isDirectory(file)) {
            if (holdsCudnn(file)) {
                throw new ToolException(ExitCode.USAGE, shown + " is a folder holding an unpacked cuDNN archive, not the archive",
                        "pass the archive itself (the .tar.xz or .zip as downloaded), or check the folder with: cudnn verify --prefix "
                                + shown);
            }
            throw new ToolException(ExitCode.USAGE, shown + " is a folder, not an archive",
                    "pass the cuDNN archive file as downloaded from NVIDIA");
        }
        if (!Files.isRegularFile(file)) {
            throw new ToolException(ExitCode.USAGE, shown + " is not a regular file (a device, FIFO or socket)",
                    "pass the cuDNN archive file as downloaded from NVIDIA");
        }
        Path fn = file.getFileName();
        String name = fn == null ? "" : fn.toString();
        ToolException other = otherKind(name);
        if (other != null) {
            throw other;
        }
        return ArchiveName.parse(name);
    }

    /** A file that is cuDNN in another form, or another product; null when the name may be a cuDNN archive's. */
    static ToolException otherKind(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        String shown = "'" + Text.printable(name) + "'";
        if (WHEEL.matcher(name).matches()) {
            return null; // NVIDIA's pip wheel of cuDNN: a source like an archive (WheelName reads its name)
        }
        if (n.endsWith(".whl")) {
            return rejected(shown + " is a Python wheel, but not NVIDIA's cuDNN wheel (nvidia_cudnn_cuNN-VERSION-py3-none-PLATFORM.whl)",
                    "install it with pip; for cuDNN pass the nvidia_cudnn_cuNN wheel or the archive that `cudnn releases` names");
        }
        if (n.startsWith("tensorrt") || n.startsWith("nv-tensorrt")) {
            return rejected(shown + " is a TensorRT file, not cuDNN", "download cuDNN's archive: `cudnn releases` names it");
        }
        if (n.startsWith("cudnn") && n.contains("local-repo") && (n.endsWith(".deb") || n.endsWith(".rpm"))) {
            boolean deb = n.endsWith(".deb");
            return rejected(shown + " is NVIDIA's local " + (deb ? "apt" : "dnf/yum") + " repository of cuDNN, not an archive",
                    deb ? "install it with apt: sudo dpkg -i " + name + ", copy the keyring dpkg names, sudo apt-get update, "
                            + "sudo apt-get install cudnn; then check with cudnn verify"
                            : "install it with dnf: sudo rpm -i " + name + ", then sudo dnf install cudnn; then check with cudnn verify");
        }
        if (n.endsWith(".deb") || n.endsWith(".rpm")) {
            boolean deb = n.endsWith(".deb");
            return rejected(shown + " is a " + (deb ? "Debian" : "RPM") + " package, not a cuDNN archive",
                    deb ? "install it with: sudo apt-get install ./" + name : "install it with: sudo dnf install ./" + name);
        }
        if (n.endsWith(".exe") || n.endsWith(".msi")) {
            boolean cudnn = n.startsWith("cudnn");
            return rejected(shown + " is " + (cudnn ? "NVIDIA's Windows installer of cuDNN" : "a Windows installer") + ", not an archive",
                    cudnn ? "run it (it installs under C:\\Program Files\\NVIDIA\\CUDNN), then check with cudnn verify"
                            : "download cuDNN's archive: `cudnn releases` names it");
        }
        if (n.startsWith("cuda_") || n.startsWith("cuda-repo") || n.endsWith(".run")) {
            return rejected(shown + " is a CUDA toolkit file, not cuDNN",
                    "install the toolkit with it as NVIDIA describes, then cuDNN's archive: `cudnn releases` names it");
        }
        Matcher redist = REDIST.matcher(name);
        if (redist.matches() && !redist.group(1).equalsIgnoreCase("cudnn")) {
            return rejected(shown + " is NVIDIA's " + redist.group(1) + " archive, not cuDNN's",
                    "download cuDNN's archive: `cudnn releases` names it");
        }
        return null;
    }

    private static ToolException rejected(String message, String fix) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED, message, fix);
    }

    /** An unpacked cuDNN archive: a cuDNN header or library in the folder, in include/lib/bin, or one folder down. */
    private static boolean holdsCudnn(Path dir) {
        return holdsCudnn(dir, 2, new int[1]);
    }

    private static boolean holdsCudnn(Path dir, int depth, int[] seen) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (++seen[0] > FOLDER_LOOK) {
                    return false;
                }
                String name = String.valueOf(p.getFileName());
                if (CudnnFiles.isCudnnFile(name)) {
                    return true;
                }
                if (depth > 0 && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && holdsCudnn(p, depth - 1, seen)) {
                    return true;
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }
}
