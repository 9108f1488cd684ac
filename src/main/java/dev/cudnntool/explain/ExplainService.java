package dev.cudnntool.explain;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.Severity;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.loader.PeFile;
import dev.cudnntool.verify.VerifyReport;
import dev.cudnntool.verify.VerifyService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code cudnn explain}: for each recognised error line, runs the part of {@code verify} that answers it on this machine
 * and says what it found. Load failures: is the wanted file found by name, where are the copies, why the loader misses
 * them. Version mismatches: which cuDNN a program finds first, and through what. Status codes: verify's own diagnosis of
 * the copy programs load (with the probe). Windows 126/193: the DLL found, its zlibwapi.dll, its architecture.
 */
public final class ExplainService {
    private final Host host;
    private final VerifyService withProbe;
    private final VerifyService filesOnly;

    /**
     * @param withProbe verify as {@code cudnn verify} runs it (loads the library): for status codes
     * @param filesOnly verify without loading anything: the copies on the machine
     */
    public ExplainService(Host host, VerifyService withProbe, VerifyService filesOnly) {
        this.host = host;
        this.withProbe = withProbe;
        this.filesOnly = filesOnly;
    }

    /** The cuDNN lines of what was read, explained; a usage error (exit 2) when it holds none. */
    public Explanation explain(ExplainInput input) {
        List<ErrorLine> lines = Recognizer.recognize(input.text());
        if (lines.isEmpty()) {
            throw new ToolException(ExitCode.USAGE, "no cuDNN error line in " + Text.printable(input.source())
                    + " (" + input.read() + " bytes read)", "paste the line that names cuDNN or libcudnn (the error itself, not"
                    + " only the traceback), or the whole log with --file LOG");
        }
        return explain(lines);
    }

    public Explanation explain(List<ErrorLine> lines) {
        List<Finding> out = new ArrayList<>();
        Facts facts = new Facts();
        for (ErrorLine line : lines) {
            out.addAll(switch (line.kind()) {
                case LOAD_FAILURE -> linuxLoad(line, facts);
                case WINDOWS_LOAD_FAILURE -> windowsLoad(line, facts);
                case ONNXRUNTIME_PROVIDER -> line.windowsError() != null ? onnxWindows(line, facts) : linuxLoad(line, facts);
                case TORCH_VERSION_MISMATCH, TENSORFLOW_VERSION_MISMATCH -> mismatch(line);
                case CUDNN_STATUS -> status(line, facts);
            });
        }
        return new Explanation(lines, dedupe(out));
    }

    /** Verify's reports, each made at most once per explain. */
    private final class Facts {
        private VerifyReport files;
        private VerifyReport probed;

        VerifyReport files() {
            if (files == null) {
                files = filesOnly.verify(null, null, null, false);
            }
            return files;
        }

        VerifyReport probed() {
            if (probed == null) {
                probed = withProbe.verify(null, null, null, false);
            }
            return probed;
        }

        List<CudnnCopy> copies() {
            return files().copies() == null ? List.of() : files().copies();
        }
    }

    private static List<Finding> dedupe(List<Finding> findings) {
        Set<String> seen = new LinkedHashSet<>();
        return findings.stream().filter(f -> seen.add(f.id() + "|" + f.message())).toList();
    }

    private static Finding ruledOut(ErrorLine line, String what) {
        return Finding.info(FindingId.EXPLAIN_RULED_OUT, "line " + line.number() + ": " + what);
    }

    private static Finding notChecked(ErrorLine line, String why, Fix fix) {
        return Finding.warn(FindingId.EXPLAIN_NOT_CHECKED, "line " + line.number() + ": " + why, fix);
    }

    private Finding otherOs(ErrorLine line, String os) {
        return notChecked(line, "the line is " + os + "'s and this machine is " + (host.windows() ? "Windows" : "Linux")
                + ", so the loader that failed is not here", Fix.tool("run cudnn explain on the machine that printed it"));
    }

    /** The file a Linux program really asks the loader for: "libcudnn_graph.so.9" for "libcudnn_graph.so.9.1.0". */
    private static String soname(ErrorLine line) {
        if (line.dependency() != null) {
            return line.dependency();
        }
        if (line.major() == null) {
            return line.library();
        }
        return "libcudnn" + (line.subLibrary() == null ? "" : "_" + line.subLibrary()) + ".so." + line.major();
    }

    private Optional<LoaderPath.Hit> byName(String name) {
        return LoaderPath.findFrom(host, host.windows() ? LdSoCache.empty() : LdSoCache.of(host), name, List.of(), List.of());
    }

    private List<Finding> linuxLoad(ErrorLine line, Facts facts) {
        if (host.windows()) {
            return List.of(otherOs(line, "Linux"));
        }
        String name = soname(line);
        Optional<LoaderPath.Hit> hit = byName(name);
        if (hit.isPresent()) {
            return List.of(ruledOut(line, name + " is found by name here: " + hit.get().file() + " (through "
                    + hit.get().place().describe() + "); a program with another environment (LD_LIBRARY_PATH, venv, container)"
                    + " may not see it"));
        }
        return List.of(notFound(line, name, facts));
    }

    /** The error for a file not found by name: where copies that hold it are, or which majors are here instead, and the fix. */
    private Finding notFound(ErrorLine line, String name, Facts facts) {
        List<CudnnCopy> copies = facts.copies();
        List<Path> holding = new ArrayList<>();
        for (CudnnCopy c : copies) {
            Path dir = host.path(c.path()).getParent();
            if (dir != null && Files.exists(dir.resolve(name)) && holding.stream().noneMatch(h -> host.samePath(h, dir))) {
                holding.add(dir);
            }
        }
        String what = "line " + line.number() + ": " + name + " is not found by name here";
        if (!holding.isEmpty()) {
            return Finding.error(FindingId.EXPLAIN_NOT_FOUND, what + ", but it is in " + join(holding) + ", a folder the loader"
                    + " does not search (not on " + (host.windows() ? "PATH" : "LD_LIBRARY_PATH, not in /etc/ld.so.cache") + ")",
                    Fix.text("put that folder on the search path: " + LibrarySearchCheck.fixLine(host, holding.get(0))));
        }
        if (line.dependency() != null) {
            return Finding.error(FindingId.EXPLAIN_NOT_FOUND, what + " (" + line.library() + " needs it)", dependencyFix(name));
        }
        Integer major = line.major();
        List<CudnnCopy> sameMajor = copies.stream().filter(c -> major != null && c.major() == major).toList();
        List<CudnnCopy> others = copies.stream().filter(c -> major == null || c.major() != major).toList();
        StringBuilder m = new StringBuilder(what);
        if (!sameMajor.isEmpty()) {
            m.append(": the cuDNN ").append(major).append(" here (").append(describe(sameMajor)).append(") lacks it (incomplete,"
                    + " or another layout)");
        } else if (major != null) {
            m.append(": there is no cuDNN ").append(major).append(" on this machine");
            if (!others.isEmpty()) {
                m.append("; ").append(describe(others)).append(others.size() == 1 ? " is" : " are").append(" another major,"
                        + " which a program built for cuDNN ").append(major).append(" cannot use (it needs cuDNN ").append(major)
                        .append(" beside it)");
            }
        }
        return Finding.error(FindingId.EXPLAIN_NOT_FOUND, m.toString(), installFix(major, !sameMajor.isEmpty()));
    }

    /** The tool's own cudnn install is offered (beside pip's wheel): a fix of the tool's kind. */
    private Fix installFix(Integer major, boolean incomplete) {
        boolean win = host.windows();
        String prefix = win ? "C:\\cudnn" + (major == null ? "" : major) : "/opt/cudnn" + (major == null ? "" : major);
        Path lib = win ? host.path(prefix, "bin") : host.path(prefix, "lib");
        String line = LibrarySearchCheck.fixLine(host, lib);
        if (major != null && major == 8) {
            return Fix.tool((incomplete ? "reinstall it complete, or " : "") + "install cuDNN 8 beside the other: pip install"
                    + " nvidia-cudnn-cu12==8.9.7.29 (CUDA 11: nvidia-cudnn-cu11==8.9.7.29) and put its nvidia/cudnn/"
                    + (win ? "bin" : "lib") + " folder on the search path, or cudnn install --release 8.9.7 --prefix " + prefix
                    + " and then " + line);
        }
        String m = major == null ? "9" : String.valueOf(major);
        String release = m.equals("9") ? "9.5.1" : m + ".x.y";
        return Fix.tool((incomplete ? "reinstall it complete, or " : "") + "install cuDNN " + m + ": pip install nvidia-cudnn-cu12"
                + " and put its nvidia/cudnn/" + (win ? "bin" : "lib") + " folder on the search path, or cudnn install --release "
                + release + " --prefix " + prefix + " (cudnn releases lists the others) and then " + line);
    }

    /** pip's cuBLAS wheel for a cuBLAS library (the package manager's command), else advice in words. */
    private static Fix dependencyFix(String name) {
        Matcher m = Pattern.compile("(?i)(cublas(?:Lt)?)(?:\\.so\\.|64_)(\\d+)").matcher(name);
        if (m.find()) {
            return Fix.packageManager("install cuBLAS for CUDA " + m.group(2) + ": pip install nvidia-cublas-cu" + m.group(2)
                    + " (and put its lib folder on the search path), or install the CUDA " + m.group(2) + " toolkit's cuBLAS");
        }
        return Fix.text("install the package that provides " + name + " and put its folder on the search path");
    }

    private String describe(List<CudnnCopy> copies) {
        List<String> parts = new ArrayList<>();
        for (CudnnCopy c : copies.subList(0, Math.min(copies.size(), 4))) {
            parts.add("cuDNN " + (c.version() == null ? c.major() : c.version()) + " at " + c.path());
        }
        return String.join(", ", parts) + (copies.size() > 4 ? " and " + (copies.size() - 4) + " more" : "");
    }

    private static String join(List<Path> paths) {
        return String.join(", ", paths.stream().map(Path::toString).toList());
    }

    private List<Finding> windowsLoad(ErrorLine line, Facts facts) {
        if (!host.windows()) {
            return List.of(otherOs(line, "Windows"));
        }
        String name = line.library();
        Optional<LoaderPath.Hit> hit = byName(name);
        if (hit.isEmpty()) {
            return List.of(notFound(line, name, facts));
        }
        return foundDll(line, hit.get(), line.major());
    }

    /** A DLL Windows does find: what error 126 or 193 then means here. */
    private List<Finding> foundDll(ErrorLine line, LoaderPath.Hit hit, Integer major) {
        List<Finding> out = new ArrayList<>();
        Path file = hit.file();
        Integer code = line.windowsError();
        try {
            PeFile.Info info = PeFile.read(file);
            if (!info.x64()) {
                out.add(Finding.error(FindingId.EXPLAIN_DEPENDENCY, "line " + line.number() + ": " + file + ", the "
                        + file.getFileName() + " Windows finds first (through " + hit.place().describe() + "), is "
                        + info.machineName() + ", not x64", Fix.text("replace it with the x64 DLL of NVIDIA's Windows x86_64 archive, or"
                        + " remove its folder from PATH")));
                return out;
            }
            if (major != null && major == 8 && (info.fileVersion() == null || needsZlib(info.fileVersion()))) {
                Optional<LoaderPath.Hit> zlib = byName("zlibwapi.dll");
                boolean beside = Files.exists(file.resolveSibling("zlibwapi.dll"));
                if (zlib.isEmpty() && !beside) {
                    out.add(Finding.error(FindingId.EXPLAIN_DEPENDENCY, "line " + line.number() + ": " + file + " is found"
                            + " (cuDNN " + (info.fileVersion() == null ? "8" : info.fileVersion()) + ") but zlibwapi.dll, which"
                            + " cuDNN 8.3 to 9.1 load and NVIDIA does not ship, is found nowhere on the search path",
                            Fix.text("put the x64 zlibwapi.dll (NVIDIA's install guide links the zlib build) in " + file.getParent()
                                    + ", or use cuDNN 9.2 or newer, which does not need it")));
                    return out;
                }
            }
        } catch (IOException | RuntimeException e) {
            out.add(notChecked(line, file + " could not be read as a DLL (" + e.getMessage() + ")", Fix.text("check the file; reinstall it")));
            return out;
        }
        out.add(ruledOut(line, file.getFileName() + " is found here at " + file + " (through " + hit.place().describe()
                + "), x64" + (major != null && major == 8 ? ", with zlibwapi.dll" : "") + (code != null && code == 126
                ? "; error 126 may then be another DLL it needs: cuBLAS (cublas64_*.dll, cublasLt64_*.dll) of its CUDA major"
                : "")));
        return out;
    }

    private static boolean needsZlib(String fileVersion) {
        try {
            return LibrarySearchCheck.needsZlibwapi(CudnnVersion.parse(fileVersion));
        } catch (RuntimeException e) {
            return true;
        }
    }

    private List<Finding> onnxWindows(ErrorLine line, Facts facts) {
        if (!host.windows()) {
            return List.of(otherOs(line, "Windows"));
        }
        for (int major : new int[] {9, 8}) {
            Optional<LoaderPath.Hit> hit = byName("cudnn64_" + major + ".dll");
            if (hit.isPresent()) {
                return foundDll(line, hit.get(), major);
            }
        }
        ErrorLine wanted = new ErrorLine(line.number(), line.text(), line.kind(), line.meaning(), "cudnn64_9.dll", 9, null,
                null, null, null, null, null, null, line.windowsError());
        return List.of(notFound(wanted, "cudnn64_9.dll", facts));
    }

    /** PyTorch and TensorFlow: which cuDNN a program finds first here, and whether it is the one the line reports. */
    private List<Finding> mismatch(ErrorLine line) {
        boolean torch = line.kind() == LineKind.TORCH_VERSION_MISMATCH;
        int major = Recognizer.majorOf(line.runtime());
        String name = host.windows() ? "cudnn64_" + major + ".dll" : "libcudnn.so." + major;
        Optional<LoaderPath.Hit> hit = byName(name);
        if (hit.isEmpty()) {
            return List.of(ruledOut(line, "no " + name + " is found by name here, so no other cuDNN " + line.runtime()
                    + " is put before the framework's own" + (host.windows() ? "" : " (LD_LIBRARY_PATH, /etc/ld.so.cache and the"
                    + " system folders searched)")));
        }
        String version = LibrarySearchCheck.versionOfLibrary(host, hit.get().file());
        String where = hit.get().file() + " (through " + hit.get().place().describe() + ")";
        boolean same = version != null && sameRelease(version, line.runtime());
        if (torch) {
            if (same || version == null) {
                return List.of(Finding.error(FindingId.EXPLAIN_FOUND_FIRST, "line " + line.number() + ": the cuDNN found first"
                        + " by name here is " + where + (version == null ? "" : ", cuDNN " + version) + ", not the cuDNN "
                        + line.compiled() + " PyTorch brings", foundFirstFix(hit.get(), line.compiled())));
            }
            return List.of(ruledOut(line, "the cuDNN found first by name here is " + where + ", cuDNN " + version + ", not "
                    + line.runtime()));
        }
        if (version != null && fits(version, line.compiled())) {
            return List.of(ruledOut(line, "the cuDNN found first by name here is " + where + ", cuDNN " + version + ", which"
                    + " fits a TensorFlow built with " + line.compiled()));
        }
        return List.of(Finding.error(FindingId.EXPLAIN_FOUND_FIRST, "line " + line.number() + ": the cuDNN found first by name"
                + " here is " + where + (version == null ? "" : ", cuDNN " + version) + ", older than the "
                + line.compiled() + " TensorFlow was built with (it needs cuDNN " + Recognizer.majorOf(line.compiled()) + "."
                + Recognizer.minorOf(line.compiled()) + " or a newer " + Recognizer.majorOf(line.compiled()) + ".x)",
                Fix.packageManager("install cuDNN " + Recognizer.majorOf(line.compiled()) + "." + Recognizer.minorOf(line.compiled())
                        + " or newer (pip install 'nvidia-cudnn-cu12>=" + Recognizer.majorOf(line.compiled()) + "."
                        + Recognizer.minorOf(line.compiled()) + "' in TensorFlow's environment), or " + foundFirstFix(hit.get(),
                        line.compiled()).text())));
    }

    private Fix foundFirstFix(LoaderPath.Hit hit, String wanted) {
        if (hit.place().mechanism() == LoaderPath.Mechanism.LD_LIBRARY_PATH) {
            return Fix.text("remove " + hit.place().dir() + " from LD_LIBRARY_PATH (where your shell profile or job script sets it);"
                    + " the framework's wheel brings its own cuDNN " + wanted);
        }
        return Fix.text(LibrarySearchCheck.shadowFix(host, hit.file(), hit.place(), hit.place().dir()));
    }

    /** "8.3.3" is the release of "8.3.3" and "8.3.3.40"; a line's three numbers are compared. */
    private static boolean sameRelease(String version, String line) {
        String[] a = version.split("\\.");
        String[] b = line.split("\\.");
        for (int i = 0; i < Math.min(3, Math.min(a.length, b.length)); i++) {
            if (!a[i].equals(b[i])) {
                return false;
            }
        }
        return true;
    }

    /** Same major, minor at least the built-with one. */
    private static boolean fits(String version, String compiled) {
        try {
            return Recognizer.majorOf(version).equals(Recognizer.majorOf(compiled))
                    && Recognizer.minorOf(version) >= Recognizer.minorOf(compiled);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * What verify only warns about but is this status's cause: no driver or GPU for a status cuDNN answers without one,
     * a missing library cuDNN needs for a sub-library or prerequisite status.
     */
    private static List<Finding> causes(ErrorLine line, CudnnStatus.Entry s, List<Finding> verified) {
        List<Finding> out = new ArrayList<>();
        boolean needsGpu = s.name().equals("CUDNN_STATUS_NOT_INITIALIZED") || s.name().startsWith("CUDNN_STATUS_EXECUTION_FAILED");
        boolean needsLibraries = s.name().equals("CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED") || s.name().contains("PREREQUISITE_MISSING")
                || s.name().equals("CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE");
        for (Finding f : verified) {
            if (needsGpu && (f.is(FindingId.DRIVER_MISSING) || f.is(FindingId.DRIVER_NO_GPU) || f.is(FindingId.DRIVER_TOO_OLD))) {
                out.add(Finding.error(FindingId.EXPLAIN_NO_GPU, "line " + line.number() + ": " + s.name() + " is what cuDNN answers"
                        + " here: " + f.message() + " (" + f.id() + ")", f.remedy()));
            }
            if (needsLibraries && f.is(FindingId.CUDNN_DEPENDENCY_MISSING)) {
                out.add(Finding.error(FindingId.EXPLAIN_DEPENDENCY, "line " + line.number() + ": " + f.message(), f.remedy()));
            }
        }
        return out;
    }

    private List<Finding> status(ErrorLine line, Facts facts) {
        CudnnStatus.Entry s = CudnnStatus.named(line.status()).orElseThrow();
        if (!CudnnStatus.aboutInstallation(s)) {
            return List.of(ruledOut(line, s.name() + " is about the calling program's own use of cuDNN, not this machine's"
                    + " installation: nothing here to check"));
        }
        VerifyReport r = facts.probed();
        if (r.cudnn() == null) {
            return List.of(notChecked(line, "there is no cuDNN here for verify to load", Fix.tool("run cudnn explain on the machine"
                    + " that printed it, in the same environment")));
        }
        List<Finding> out = new ArrayList<>();
        for (Finding f : r.findings()) {
            if (f.severity() != Severity.INFO) {
                out.add(f);
            }
        }
        out.addAll(causes(line, s, r.findings()));
        if (r.probe() != null && r.probe().incomplete()) {
            out.add(notChecked(line, "the probe that loads cuDNN did not finish (" + (r.probe().timedOut() ? "timed out" : "crashed")
                    + ")", Fix.tool("run cudnn verify --verbose for the details")));
        } else if (!Finding.anyError(out)) {
            out.add(ruledOut(line, "verify found nothing wrong with cuDNN " + r.cudnn().major() + " at " + r.cudnn().runtimeDir()
                    + (r.probe() != null && r.probe().versionString() != null ? " (it loads: cuDNN " + r.probe().versionString()
                    + ")" : "")));
        }
        return out;
    }
}
