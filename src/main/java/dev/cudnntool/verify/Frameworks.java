package dev.cudnntool.verify;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.OsFamily;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.diagnosis.CopyFinder;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.DriverMinimums;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.loader.ProgramLoader;
import dev.cudnntool.host.owner.Owner;
import dev.cudnntool.host.owner.Owners;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * #19 B16: the frameworks installed in the Python environments verify looks at, each with the cuDNN it
 * pins ({@code Requires-Dist: nvidia-cudnn-cuXX==…} in its METADATA) and the cuDNN it will really load:
 * its own CUDA library's DT_RPATH/DT_RUNPATH put through the loader's order ({@link ProgramLoader}), then
 * every sub-library as the dispatcher opens it (its own RUNPATH, {@code $ORIGIN}), then cuBLASLt of the
 * CUDA major as the sub-libraries open it, and the driver floor of that CUDA major. On Windows the
 * framework's own folders come first (it adds them with os.add_dll_directory), then the search by name.
 */
final class Frameworks {
    /** A framework verify knows: its distribution names, its CUDA library (Linux, relative to site-packages), its own DLL folders. */
    record Kind(String name, List<String> aliases, List<String> distributions, List<String> linuxLibraries, List<String> windowsDirs) {
    }

    static final Kind TORCH = new Kind("torch", List.of("pytorch"), List.of("torch"), List.of("torch/lib/libtorch_cuda.so"),
            List.of("torch/lib"));

    static final List<Kind> KNOWN = List.of(TORCH,
            new Kind("tensorflow", List.of("tf"), List.of("tensorflow", "tensorflow_gpu", "tf_nightly"),
                    List.of("tensorflow/python/_pywrap_tensorflow_internal.so", "tensorflow/libtensorflow_framework.so.2"),
                    List.of("tensorflow/python")),
            new Kind("onnxruntime-gpu", List.of("onnxruntime", "ort"), List.of("onnxruntime_gpu"),
                    List.of("onnxruntime/capi/libonnxruntime_providers_cuda.so"), List.of("onnxruntime/capi")),
            new Kind("jax", List.of("jaxlib"), List.of("jax_cuda13_plugin", "jax_cuda12_plugin", "jax_cuda12_pjrt"),
                    List.of("jax_plugins/xla_cuda13/xla_cuda_plugin.so", "jax_plugins/xla_cuda12/xla_cuda_plugin.so"), List.of()),
            new Kind("paddlepaddle-gpu", List.of("paddle", "paddlepaddle"), List.of("paddlepaddle_gpu"),
                    List.of("paddle/base/libpaddle.so", "paddle/fluid/libpaddle.so"), List.of("paddle/libs")));

    private static final Pattern PIN = Pattern.compile("^Requires-Dist:\\s*(nvidia-cudnn-cu(\\d{2}))\\s*(?:\\(\\s*)?"
            + "(==|>=|~=|<=|<|>|!=)?\\s*([0-9][0-9.]{0,40})?");

    private Frameworks() {
    }

    /** The framework {@code --for} names, or exit 2 naming those known. */
    static Kind named(String word) {
        String w = word.strip().toLowerCase(Locale.ROOT);
        for (Kind k : KNOWN) {
            if (k.name().equals(w) || k.aliases().contains(w)) {
                return k;
            }
        }
        throw new ToolException(ExitCode.USAGE, "--for " + Text.printable(word) + " is not a framework this tool knows",
                "name one of: " + String.join(", ", KNOWN.stream().map(Kind::name).toList()));
    }

    /**
     * The frameworks in {@code sites}, analysed.
     *
     * @param diagnose the file checks of a copy (verify --all's), run for a copy a framework loads
     */
    static List<FrameworkReport> analyse(Host host, List<Path> sites, Kind only, List<CudnnCopy> copies, DriverInfo driver,
                                         Function<CudnnCopy, List<Finding>> diagnose) {
        List<FrameworkReport> out = new ArrayList<>();
        LdSoCache cache = host.windows() ? LdSoCache.empty() : LdSoCache.of(host);
        Owners owners = new Owners(host);
        for (Path site : sites) {
            for (Kind k : KNOWN) {
                if (only != null && only != k) {
                    continue;
                }
                Optional<Path> info = distInfo(site, k);
                if (info.isPresent()) {
                    analyse(host, site, k, info.get(), copies, driver, cache, owners, diagnose).ifPresent(out::add);
                }
            }
        }
        return out;
    }

    private static Optional<FrameworkReport> analyse(Host host, Path site, Kind k, Path info, List<CudnnCopy> copies, DriverInfo driver,
                                                     LdSoCache cache, Owners owners, Function<CudnnCopy, List<Finding>> diagnose) {
        String version = versionOf(info);
        Optional<Pin> pin = pin(info);
        Optional<Path> library = k.linuxLibraries().stream().map(site::resolve).filter(Files::isRegularFile).findFirst();
        if (pin.isEmpty() && library.isEmpty() && !host.windows()) {
            return Optional.empty(); // a CPU build: it loads no cuDNN
        }
        List<String> problems = new ArrayList<>();
        int major = pin.map(p -> p.version() == null ? 9 : Integer.parseInt(p.version().split("\\.")[0])).orElse(9);
        ProgramLoader.Program program = library.map(ProgramLoader.Program::read).orElse(ProgramLoader.Program.plain());
        if (program.problem() != null) {
            problems.add(program.file() + " cannot be read (" + program.problem() + ")");
        }
        String soname = program.needed().stream().filter(n -> n.startsWith("libcudnn.so.")).findFirst()
                .orElse(host.windows() ? CopyFinder.bareName(host, major) : "libcudnn.so." + major);
        ProgramLoader.Loaders python = Interpreter.of(host, site);
        Optional<LoaderPath.Hit> hit = host.windows() ? windowsHit(host, site, k, soname, cache)
                : ProgramLoader.resolve(host, cache, program, soname, python);
        if (hit.isEmpty()) {
            problems.add("it finds no " + soname + " (" + (library.isPresent() ? library.get().getFileName() + " has "
                    + program.ownFolders() : "no library of its own found") + ")");
            return Optional.of(new FrameworkReport(k.name(), version, site.toString(), pin.map(Pin::text).orElse(null), null, false,
                    problems));
        }
        Path got = hit.get().file();
        CudnnCopy copy = copies.stream().filter(c -> host.sameFile(host.path(c.path()), got))
                .findFirst().orElse(null);
        // the copy's owner was looked up once already (CopyOwners); only a file no copy names is looked up here
        Owner owner = copy != null && copy.owner() != null ? copy.owner() : owners.of(got);
        String found = LibrarySearchCheck.versionOfLibrary(host, got);
        // a wheel's libcudnn.so.9 carries no full version in its name: the copy's headers say it
        String gotVersion = found != null && found.chars().filter(ch -> ch == '.').count() >= 2 ? found
                : copy != null && copy.version() != null ? copy.version() : found;
        Integer cudaMajor = owner.kind() == Owner.Kind.PIP && owner.name() != null && owner.name().matches("nvidia-cudnn-cu\\d+")
                ? Integer.valueOf(owner.name().substring("nvidia-cudnn-cu".length())) : pin.map(Pin::cudaMajor).orElse(null);
        pin.ifPresent(p -> pinProblems(p, gotVersion, owner, problems));
        if (!host.windows()) {
            ProgramLoader.Loaders underFramework = program.file() == null ? python : python.under(program);
            subLibraries(host, cache, got, major, underFramework, problems);
            if (cudaMajor != null) {
                cublasLt(host, cache, got, major, cudaMajor, underFramework, problems);
                driverFloor(driver, cudaMajor, problems);
            }
        }
        copyProblems(copy, diagnose, problems);
        FrameworkReport.Loads loads = new FrameworkReport.Loads(got.toString(), gotVersion, cudaMajor, hit.get().place().describe(),
                owner.kind() == Owner.Kind.NONE ? null : owner.describe());
        return Optional.of(new FrameworkReport(k.name(), version, site.toString(), pin.map(Pin::text).orElse(null), loads,
                problems.isEmpty(), List.copyOf(problems)));
    }

    /** What the framework pins against what it gets: another release, another wheel's copy. */
    private static void pinProblems(Pin p, String gotVersion, Owner owner, List<String> problems) {
        if (p.exact() && gotVersion != null && !sameRelease(gotVersion, p.version())) {
            problems.add("it pins cuDNN " + p.version() + " but gets cuDNN " + gotVersion);
        }
        if (owner.kind() == Owner.Kind.PIP && owner.name() != null && owner.name().startsWith("nvidia-cudnn-cu")
                && !owner.name().equals(p.wheel())) {
            problems.add("it pins " + p.wheel() + " but gets the copy of " + owner.name());
        }
    }

    /** The errors of the copy the framework gets, when it is not the target (verify --all diagnoses it). */
    private static void copyProblems(CudnnCopy copy, Function<CudnnCopy, List<Finding>> diagnose, List<String> problems) {
        if (copy == null || copy.origin() == CudnnCopy.Origin.TARGET || diagnose == null) {
            return;
        }
        for (Finding f : diagnose.apply(copy)) {
            if (f.isError()) {
                problems.add("its cuDNN copy: " + f.message());
            }
        }
    }

    /** Every sub-library as the dispatcher opens it: from its own folder ($ORIGIN), else wherever the loader finds one. */
    private static void subLibraries(Host host, LdSoCache cache, Path main, int major, ProgramLoader.Loaders above,
                                     List<String> problems) {
        ProgramLoader.Program dispatcher = ProgramLoader.Program.read(host.realPath(main));
        Path home = host.realPath(main).getParent();
        for (String base : CudnnComponents.subLibraries(major)) {
            String so = CudnnComponents.linuxSoname(base, major);
            Optional<LoaderPath.Hit> sub = ProgramLoader.resolve(host, cache, dispatcher, so, above);
            if (sub.isEmpty()) {
                problems.add(so + " is missing: no folder the dispatcher searches holds it");
            } else if (!host.samePath(host.realPath(sub.get().file()).getParent(), home)) {
                problems.add(MIXED + so + " comes from " + sub.get().file() + " (through " + sub.get().place().describe()
                        + "), not from " + home + " with " + main.getFileName());
            }
        }
    }

    /** Marks the problem {@code cudnn.mixed-copies} reports. */
    static final String MIXED = "mixed copies: ";

    private static void cublasLt(Host host, LdSoCache cache, Path main, int major, int cudaMajor, ProgramLoader.Loaders above,
                                 List<String> problems) {
        Path graph = host.realPath(main).getParent().resolve(CudnnComponents.linuxSoname(major >= 9 ? "cudnn_graph" : "cudnn_ops_infer", major));
        ProgramLoader.Program dispatcher = ProgramLoader.Program.read(host.realPath(main));
        boolean sub = Files.exists(graph);
        ProgramLoader.Program opener = sub ? ProgramLoader.Program.read(graph) : dispatcher;
        String name = "libcublasLt.so." + cudaMajor;
        if (ProgramLoader.resolve(host, cache, opener, name, sub ? above.under(dispatcher) : above).isEmpty()) {
            problems.add(name + " (cuBLASLt of CUDA " + cudaMajor + ") is not found where cuDNN opens it ("
                    + opener.file().getFileName() + " has " + opener.ownFolders() + "): "
                    + DependencyCheck.origin(name, major));
        }
    }

    private static void driverFloor(DriverInfo driver, int cudaMajor, List<String> problems) {
        if (driver == null || !driver.present()) {
            return;
        }
        Optional<String> min = DriverMinimums.minimum(cudaMajor, OsFamily.LINUX);
        if (min.isPresent() && NvidiaSmi.compareVersions(driver.driverVersion(), min.get()) < 0) {
            problems.add("its cuDNN is built for CUDA " + cudaMajor + ", which needs driver " + min.get() + " or newer; this driver is "
                    + driver.driverVersion());
        }
    }

    private static Optional<LoaderPath.Hit> windowsHit(Host host, Path site, Kind k, String dll, LdSoCache cache) {
        List<Path> own = new ArrayList<>();
        own.add(site.resolve("nvidia").resolve("cudnn").resolve("bin"));
        k.windowsDirs().forEach(d -> own.add(site.resolve(d)));
        for (Path d : own) {
            if (Files.isRegularFile(d.resolve(dll))) {
                return Optional.of(new LoaderPath.Hit(d.resolve(dll), new LoaderPath.Place(d, LoaderPath.Mechanism.APPLICATION_FOLDER,
                        "added by the framework with os.add_dll_directory")));
            }
        }
        return LoaderPath.find(host, cache, dll, List.of(), List.of());
    }

    /** The findings: framework.ok (info), framework.mismatch and cudnn.mixed-copies (errors). */
    static List<Finding> findings(List<FrameworkReport> reports) {
        List<Finding> out = new ArrayList<>();
        for (FrameworkReport r : reports) {
            String who = r.name() + " " + r.version() + " in " + r.site();
            if (r.ok()) {
                out.add(Finding.info(FindingId.FRAMEWORK_OK, who + " gets cuDNN " + (r.loads().version() == null ? "" : r.loads().version()
                        + " ") + "from " + r.loads().path() + " (through " + r.loads().via() + ")"
                        + (r.wants() == null ? "" : ", as it pins (" + r.wants() + ")")));
                continue;
            }
            List<String> mixed = r.problems().stream().filter(p -> p.startsWith(MIXED)).map(p -> p.substring(MIXED.length())).toList();
            if (!mixed.isEmpty()) {
                out.add(Finding.error(FindingId.CUDNN_MIXED_COPIES, who + " gets cuDNN's sub-libraries from more than one copy: "
                        + String.join("; ", mixed) + " (cuDNN then fails with SUBLIBRARY_VERSION_MISMATCH)",
                        (r.wants() == null ? "reinstall the copy it loads so every sub-library is beside its libcudnn"
                                : "put the missing sub-libraries back: pip install --force-reinstall --no-deps " + r.wants())
                                + "; and take the other copy's folder off the search path named above, so it cannot fill in"));
            }
            List<String> rest = r.problems().stream().filter(p -> !p.startsWith(MIXED)).toList();
            if (!rest.isEmpty()) {
                out.add(Finding.error(FindingId.FRAMEWORK_MISMATCH, who + (r.wants() == null ? "" : " pins " + r.wants())
                        + " but will not get it: " + String.join("; ", rest), fix(r)));
            }
        }
        return out;
    }

    /**
     * #33 item 4: the GPU against every framework copy that runs, not only the target. A framework whose cuDNN is a
     * CUDA 13 build (nvidia-cudnn-cu13) on a GPU CUDA 13 dropped (Pascal, compute capability 6.1) is
     * {@code cudnn.gpu-unsupported} (error), with the build for the newest CUDA major that still runs there.
     */
    static List<Finding> gpuFindings(List<FrameworkReport> reports, DriverInfo driver) {
        List<Finding> out = new ArrayList<>();
        if (driver == null || !driver.present()) {
            return out;
        }
        for (FrameworkReport r : reports) {
            Integer cuda = r.loads() == null ? null : r.loads().cudaMajor();
            if (cuda == null) {
                continue;
            }
            for (NvidiaSmi.Gpu gpu : driver.gpus()) {
                Optional<String> dropped = DriverMinimums.gpuDroppedBy(cuda, gpu.computeCapability());
                if (dropped.isEmpty()) {
                    continue;
                }
                int runs = cuda - 1;
                while (runs > 11 && DriverMinimums.gpuDroppedBy(runs, gpu.computeCapability()).isPresent()) {
                    runs--;
                }
                out.add(Finding.error(FindingId.CUDNN_GPU_UNSUPPORTED, r.name() + " " + r.version() + " in " + r.site()
                                + " is a CUDA " + cuda + " build (its cuDNN " + (r.loads().version() == null ? "" : r.loads().version() + " ")
                                + "at " + r.loads().path() + ") and cannot run on the " + gpu.name() + ": " + dropped.get(),
                        "in that environment, install the CUDA " + runs + " build of " + r.name()
                                + (r.name().equals("torch") ? " (pip install --force-reinstall torch --index-url"
                                + " https://download.pytorch.org/whl/" + torchIndex(runs) + ")"
                                : " and nvidia-cudnn-cu" + runs) + "; CUDA " + runs + " still runs on compute capability "
                                + gpu.computeCapability()));
                break; // one finding per framework names the fix
            }
        }
        return out;
    }

    /** PyTorch's wheel index of the newest toolkit minor it builds for a CUDA major (cu126 for 12, cu118 for 11). */
    static String torchIndex(int cudaMajor) {
        return switch (cudaMajor) {
            case 11 -> "cu118";
            case 12 -> "cu126";
            default -> "cu" + cudaMajor + "0";
        };
    }

    /** The problem texts whose fix is not cuDNN's (#33 item 3): cuBLASLt missing, a driver below the build's floor. */
    private static final Pattern CUBLAS_PROBLEM = Pattern.compile("^libcublasLt\\.so\\.(\\d{1,3}) \\(cuBLASLt of CUDA");
    private static final Pattern DRIVER_PROBLEM = Pattern.compile("^its cuDNN is built for CUDA (\\d{1,3}), which needs driver (\\S+) or newer");

    /**
     * The fix follows from the cause (#33 item 3): a missing cuBLASLt is its pip package, not a reinstall of cuDNN;
     * a driver too old is a driver update or the build for the CUDA major before, never the same wheel again. Other
     * problems keep {@link #cudnnFix}.
     */
    static String fix(FrameworkReport r) {
        List<String> fixes = new ArrayList<>();
        boolean other = false;
        for (String p : r.problems()) {
            if (p.startsWith(MIXED)) {
                continue;
            }
            Matcher cublas = CUBLAS_PROBLEM.matcher(p);
            Matcher drv = DRIVER_PROBLEM.matcher(p);
            if (cublas.find()) {
                int cuda = Integer.parseInt(cublas.group(1));
                fixes.add("cuBLASLt is missing, not cuDNN: in that environment, pip install "
                        + (cuda >= 13 ? "nvidia-cublas==" + cuda + ".*" : "nvidia-cublas-cu" + cuda));
            } else if (drv.find()) {
                int cuda = Integer.parseInt(drv.group(1));
                fixes.add("update the NVIDIA driver to " + drv.group(2) + " or newer (or use the " + r.name() + " build for CUDA "
                        + (cuda - 1) + (r.name().equals("torch") ? ": pip install --force-reinstall torch --index-url"
                        + " https://download.pytorch.org/whl/" + torchIndex(cuda - 1) : ", with nvidia-cudnn-cu" + (cuda - 1)) + ")");
            } else {
                other = true;
            }
        }
        if (other || fixes.isEmpty()) {
            fixes.add(0, cudnnFix(r));
        }
        return String.join("; ", fixes);
    }

    private static String cudnnFix(FrameworkReport r) {
        String via = r.loads() == null ? "" : r.loads().via();
        if (via.startsWith("the DT_RPATH of the executable ")) {
            return via.substring("the DT_RPATH of ".length()) + " searches the folder of " + r.loads().path() + " before LD_LIBRARY_PATH"
                    + " (its DT_RPATH): remove that cuDNN" + (r.loads().path().contains("conda") || r.loads().path().contains("/envs/")
                    ? " (conda remove cudnn, in that environment)" : "") + (r.wants() == null ? "" : ", or make it " + r.wants());
        }
        if (via.contains("LD_LIBRARY_PATH") || via.contains("LD_PRELOAD") || via.contains("preload")) {
            return "take that copy out of " + via + " where " + r.name() + " runs, so it gets its own wheel's cuDNN"
                    + (r.wants() == null ? "" : "; if that is missing or incomplete: pip install --force-reinstall --no-deps " + r.wants());
        }
        return r.wants() == null ? "reinstall " + r.name() + " with the cuDNN it needs (see its install guide)"
                : "in that environment: pip install --force-reinstall --no-deps " + r.wants()
                + " (and remove stray libcudnn* files from the folders it searches first)";
    }

    /** A pin: the wheel, the operator and version, the CUDA major. */
    record Pin(String wheel, int cudaMajor, String operator, String version) {
        boolean exact() {
            return "==".equals(operator) && version != null;
        }

        String text() {
            return wheel + (operator == null ? "" : operator) + (version == null ? "" : version);
        }
    }

    /** The first {@code Requires-Dist: nvidia-cudnn-cuXX…} of METADATA's header (bounded; printable only). */
    static Optional<Pin> pin(Path info) {
        try {
            for (String line : BoundedFiles.readLines(info.resolve("METADATA"), BoundedFiles.TEXT)) {
                if (line.isEmpty()) {
                    break;
                }
                Matcher m = PIN.matcher(line);
                if (m.find()) {
                    return Optional.of(new Pin(m.group(1), Integer.parseInt(m.group(2)), m.group(3), m.group(4)));
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // no readable METADATA: no pin
        }
        return Optional.empty();
    }

    static Optional<Path> distInfo(Path site, Kind k) {
        for (String dist : k.distributions()) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(site, dist + "-*.dist-info")) {
                for (Path p : ds) {
                    if (Files.isDirectory(p)) {
                        return Optional.of(p);
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // unreadable: not found
            }
        }
        return Optional.empty();
    }

    private static String versionOf(Path info) {
        try {
            for (String line : BoundedFiles.readLines(info.resolve("METADATA"), BoundedFiles.TEXT)) {
                if (line.isEmpty()) {
                    break;
                }
                if (line.startsWith("Version: ")) {
                    String v = line.substring(9).strip();
                    if (v.matches("[0-9A-Za-z.+!_-]{1,64}")) {
                        return v;
                    }
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // fall back to the folder's name
        }
        String n = info.getFileName().toString();
        String v = n.substring(n.indexOf('-') + 1, n.length() - ".dist-info".length());
        return Text.printable(v);
    }

    /** 9.24.0 and 9.24.0.43 are one release; 9.24.0.43 and 9.24.0.44 are not. */
    static boolean sameRelease(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        int n = Math.min(x.length, y.length);
        for (int i = 0; i < n; i++) {
            if (!x[i].equals(y[i])) {
                return false;
            }
        }
        return n >= 3;
    }
}
