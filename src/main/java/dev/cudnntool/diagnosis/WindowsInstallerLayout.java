package dev.cudnntool.diagnosis;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.host.searchpath.SearchPath;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * #19 B21: the layout of NVIDIA's Windows cuDNN 9 {@code .exe} installer,
 * {@code %ProgramFiles%\NVIDIA\CUDNN\v9.x\{bin,include,lib}\<CUDA M.m>\[x64]}: one folder per CUDA
 * version the user ticked, several side by side, never on {@code PATH} by itself. Each is a copy
 * (origin {@code installer}); the one for the toolkit's CUDA version (same major and minor, else the
 * newest of the same major) is told with the {@code PATH} line and the {@code CUDNN_PATH} / CMake
 * hints a build needs. The newest {@value #MAX_FOLDERS} release and CUDA folders are kept.
 */
public final class WindowsInstallerLayout {
    static final int MAX_FOLDERS = 64;
    /** Matching folders looked at before the newest {@value #MAX_FOLDERS} are kept (every name fits the patterns' digits). */
    static final int MAX_SCANNED = 4096;
    private static final Pattern RELEASE = Pattern.compile("v\\d{1,2}\\.\\d{1,3}");
    private static final Pattern CUDA = Pattern.compile("\\d{1,2}\\.\\d{1,2}");

    /** One CUDA folder of one installed release: where its DLLs, headers and import library are. */
    public record Folder(Path release, String cuda, Path bin, Path include, Path lib) {
        CudaVersion cudaVersion() {
            return CudaVersion.parse(cuda).orElseThrow();
        }
    }

    private WindowsInstallerLayout() {
    }

    /** {@code %ProgramFiles%\NVIDIA\CUDNN}, or C:\Program Files's when the variable is unset, not absolute or no path. */
    static Path root(Host host) {
        return host.programFiles().resolve("NVIDIA").resolve("CUDNN");
    }

    /** Every CUDA folder of every installed release, newest release first, newest CUDA first. */
    public static List<Folder> folders(Host host) {
        List<Folder> out = new ArrayList<>();
        if (!host.windows()) {
            return out;
        }
        for (Path release : children(root(host), RELEASE)) {
            for (Path cuda : children(release.resolve("bin"), CUDA)) {
                if (out.size() >= MAX_FOLDERS) {
                    return out;
                }
                String m = cuda.getFileName().toString();
                Path x64 = cuda.resolve("x64");
                Path bin = Files.isDirectory(x64) ? x64 : cuda;
                Path lib = release.resolve("lib").resolve(m);
                out.add(new Folder(release, m, bin, release.resolve("include").resolve(m),
                        Files.isDirectory(lib.resolve("x64")) ? lib.resolve("x64") : lib));
            }
        }
        return out;
    }

    /** The folder for a toolkit of {@code cuda}: the same major.minor, else the newest of the same major. */
    static Optional<Folder> forToolkit(List<Folder> folders, CudaVersion cuda) {
        Optional<Folder> exact = folders.stream().filter(f -> f.cudaVersion().equals(cuda)).findFirst();
        return exact.or(() -> folders.stream().filter(f -> f.cudaVersion().major() == cuda.major())
                .max(Comparator.comparing(Folder::cudaVersion)));
    }

    /**
     * {@code cudnn.installer}: info naming the folder for the toolkit, its PATH line and build hints (and whether
     * it is on PATH); a warning when the installer holds no folder for the toolkit's CUDA major.
     */
    public static List<Finding> findings(Host host, Toolkit toolkit) {
        List<Folder> folders = folders(host);
        List<Finding> out = new ArrayList<>();
        if (folders.isEmpty()) {
            return out;
        }
        String all = String.join(", ", folders.stream().map(f -> f.release().getFileName() + " for CUDA " + f.cuda()).toList());
        if (toolkit == null || toolkit.version() == null) {
            out.add(Finding.info(FindingId.CUDNN_INSTALLER, "NVIDIA's cuDNN installer put " + all + " under " + root(host)
                    + "; no CUDA toolkit was found to match one of them to"));
            return out;
        }
        Optional<Folder> match = forToolkit(folders, toolkit.version());
        if (match.isEmpty()) {
            out.add(Finding.of(FindingId.CUDNN_INSTALLER, Severity.WARN, "NVIDIA's cuDNN installer put " + all + " under "
                            + root(host) + ", none for the toolkit's CUDA " + toolkit.version(),
                    "run NVIDIA's cuDNN installer again and tick CUDA " + toolkit.version().major()
                            + ", or take the cuda" + toolkit.version().major() + " archive: cudnn releases --cuda "
                            + toolkit.version().major()));
            return out;
        }
        Folder f = match.get();
        boolean onPath = SearchPath.entries(host, host.env("PATH")).stream().anyMatch(p -> host.samePath(p, f.bin()));
        String hints = "CUDNN_PATH=" + f.release() + "; CMake: -DCUDNN_INCLUDE_DIR=\"" + f.include() + "\" -DCUDNN_LIBRARY=\""
                + f.lib().resolve("cudnn.lib") + "\"";
        out.add(Finding.info(FindingId.CUDNN_INSTALLER, "NVIDIA's cuDNN installer put " + all + " under " + root(host)
                + "; for the toolkit's CUDA " + toolkit.version() + " use " + f.bin()
                + (onPath ? " (on PATH)" : " (not on PATH: " + LibrarySearchCheck.fixLine(host, f.bin()) + ")") + "; " + hints));
        return out;
    }

    private static List<Path> children(Path dir, Pattern name) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (out.size() >= MAX_SCANNED) {
                    break;
                }
                if (name.matcher(p.getFileName().toString()).matches() && Files.isDirectory(p)) {
                    out.add(p);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // unreadable: nothing there
        }
        out.sort(Comparator.comparing((Path p) -> version(p.getFileName().toString().replaceFirst("^v", ""))).reversed());
        return out.size() > MAX_FOLDERS ? List.copyOf(out.subList(0, MAX_FOLDERS)) : out; // the newest, whatever the listing order
    }

    private static long version(String dotted) {
        String[] parts = dotted.split("\\.");
        return Long.parseLong(parts[0]) * 1000 + Long.parseLong(parts[1]);
    }
}
