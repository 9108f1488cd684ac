package dev.cudnntool.verify;

import dev.cudnntool.diagnosis.CudnnCopy;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Text;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.loader.ProgramLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code cudnn.torch-copy}: which cuDNN PyTorch in one site-packages really loads. On Linux, read
 * from torch/lib/libtorch_cuda.so itself: the cuDNN soname it needs and its DT_RPATH or DT_RUNPATH,
 * put through the loader's order ({@link ProgramLoader}). Wheels built with DT_RPATH get their own
 * nvidia/cudnn/lib whatever LD_LIBRARY_PATH holds; builds with DT_RUNPATH get a copy on
 * LD_LIBRARY_PATH first; a preloaded copy wins over both. A warning when PyTorch gets another copy
 * than its own wheel's, or none.
 */
final class TorchLoad {
    private TorchLoad() {
    }

    static Finding finding(Host host, Path site, List<CudnnCopy> copies, LdSoCache cache) {
        Path wheel = site.resolve("nvidia").resolve("cudnn").resolve(host.windows() ? "bin" : "lib");
        Path bundled = site.resolve("torch").resolve("lib");
        if (host.windows()) {
            Optional<CudnnCopy> own = copies.stream().filter(c -> host.samePath(host.path(c.path()).getParent(), wheel)).findFirst()
                    .or(() -> copies.stream().filter(c -> host.samePath(host.path(c.path()).getParent(), bundled)).findFirst());
            return Finding.info(FindingId.CUDNN_TORCH_COPY, own.map(c -> "PyTorch in " + site + " loads its own wheel's cuDNN first"
                    + " (torch adds its folders with os.add_dll_directory): " + c.path() + version(c.version()))
                    .orElse("PyTorch in " + site + " has no cuDNN of its own there: it loads cuDNN by name like any program"));
        }
        Path library = bundled.resolve("libtorch_cuda.so");
        if (!Files.exists(library)) {
            return Finding.info(FindingId.CUDNN_TORCH_COPY, "PyTorch in " + site + " has no torch/lib/libtorch_cuda.so (a CPU-only"
                    + " build): it does not load cuDNN");
        }
        ProgramLoader.Program program = ProgramLoader.Program.read(library);
        if (program.problem() != null) {
            return Finding.warn(FindingId.CUDNN_TORCH_COPY, "PyTorch in " + site + ": " + library + " cannot be read ("
                    + program.problem() + "), so which cuDNN it loads is not known", reinstall(site, "torch"));
        }
        Optional<String> soname = program.needed().stream().filter(n -> n.startsWith("libcudnn.so.")).findFirst();
        if (soname.isEmpty()) {
            return Finding.info(FindingId.CUDNN_TORCH_COPY, "PyTorch in " + site + " does not link cuDNN (" + library
                    + " needs no libcudnn.so)");
        }
        String so = soname.get();
        Path own = Files.exists(wheel.resolve(so)) ? wheel.resolve(so) : Files.exists(bundled.resolve(so)) ? bundled.resolve(so) : null;
        String ownWords = own == null ? null : own + version(versionOf(host, copies, own));
        Optional<LoaderPath.Hit> hit = ProgramLoader.resolve(host, cache, program, so, Interpreter.of(host, site));
        String how = library.getFileName() + " has " + program.ownFolders();
        if (hit.isEmpty()) {
            return Finding.warn(FindingId.CUDNN_TORCH_COPY, "PyTorch in " + site + " finds no " + so + " (" + how
                            + "; no folder it searches holds one): import torch fails with '" + so
                            + ": cannot open shared object file'", reinstall(site, null));
        }
        Path got = hit.get().file();
        String gotWords = got + version(versionOf(host, copies, got)) + ", through " + hit.get().place().describe();
        if (own != null && same(host, own, got)) {
            return Finding.info(FindingId.CUDNN_TORCH_COPY, "PyTorch in " + site + " loads its own wheel's cuDNN: " + gotWords
                    + "; " + how + (program.searchesRpath() ? ", /etc/ld.so.cache and the system folders, so it wins whatever"
                    + " they hold" : ": a " + so + " put in a folder on LD_LIBRARY_PATH would win over it (none is there now)"));
        }
        String why = hit.get().place().mechanism() == LoaderPath.Mechanism.PRELOAD ? "a preloaded object comes before every folder"
                : how;
        if (own == null) {
            return Finding.info(FindingId.CUDNN_TORCH_COPY, "PyTorch in " + site + " has no cuDNN of its own there: it loads "
                    + gotWords + " (" + why + ")");
        }
        return Finding.warn(FindingId.CUDNN_TORCH_COPY, "PyTorch in " + site + " loads " + gotWords + ", not its own wheel's "
                + ownWords + ": " + why, fix(host, hit.get(), own));
    }

    private static String fix(Host host, LoaderPath.Hit hit, Path own) {
        return switch (hit.place().mechanism()) {
            case LD_LIBRARY_PATH -> "remove " + hit.place().dir() + " from LD_LIBRARY_PATH where PyTorch runs (or start python"
                    + " with env -u LD_LIBRARY_PATH), so it gets " + own;
            case PRELOAD -> "remove " + hit.file() + " from " + (hit.place().detail().startsWith("LD_PRELOAD") ? "LD_PRELOAD"
                    : hit.place().detail()) + ", so PyTorch gets " + own;
            default -> LibrarySearchCheck.shadowFix(host, hit.file(), hit.place(), own.getParent());
        };
    }

    /** The owner's command: pip, with the version torch pins when its METADATA says. */
    private static String reinstall(Path site, String what) {
        if ("torch".equals(what)) {
            return "reinstall PyTorch: pip install --force-reinstall torch";
        }
        return pin(site).map(p -> "pip install --force-reinstall " + p).orElse("reinstall the cuDNN wheel PyTorch pins"
                + " (pip show torch lists it): pip install --force-reinstall nvidia-cudnn-cu<CUDA major>==<version>");
    }

    /** "nvidia-cudnn-cu13==9.24.0.43" from torch's METADATA, when it pins one exactly (read as the framework report reads it). */
    static Optional<String> pin(Path site) {
        return Frameworks.distInfo(site, Frameworks.TORCH).flatMap(Frameworks::pin).filter(Frameworks.Pin::exact)
                .map(p -> Text.printable(p.text()));
    }

    private static String versionOf(Host host, List<CudnnCopy> copies, Path file) {
        return copies.stream().filter(c -> same(host, host.path(c.path()), file)).map(CudnnCopy::version)
                .filter(v -> v != null).findFirst().orElseGet(() -> LibrarySearchCheck.versionOfLibrary(host, file));
    }

    private static String version(String v) {
        return v == null ? "" : " (cuDNN " + v + ")";
    }

    private static boolean same(Host host, Path a, Path b) {
        return host.sameFile(a, b);
    }
}
