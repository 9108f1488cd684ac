package dev.cudnntool.host;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.OsFamily;
import dev.cudnntool.Text;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.CudnnVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Chooses the toolkit to install into, in a fixed order, and says which rule chose it:
 * --cuda-path, CUDA_PATH, CUDA_HOME, the newest CUDA_PATH_V&lt;maj&gt;_&lt;min&gt; of the archive's
 * major, then the usual install locations. {@code verify} adds the nvcc on PATH after CUDA_HOME
 * ({@link #locateForVerify}).
 */
public final class ToolkitLocator {
    private static final Pattern CUDA_PATH_V = Pattern.compile("CUDA_PATH_V(\\d+)_(\\d+)", Pattern.CASE_INSENSITIVE);
    private static final JsonFactory VERSION_JSON = new JsonFactory();
    private static final Pattern VERSIONED_DIR = Pattern.compile("(?:v|cuda-)(\\d{1,9})\\.(\\d{1,9})");

    /** The choice; {@code chosen} is null when none was found. */
    public record Selection(Toolkit chosen, List<Toolkit> found, List<Finding> findings) {
    }

    private ToolkitLocator() {
    }

    public static Selection locate(Host host, Path cudaPathOption, ArchiveName archive) {
        return locate(host, cudaPathOption, archive, false);
    }

    /**
     * {@code verify}'s order (#33 item 4, settled "Trust"): --cuda-path, CUDA_PATH, CUDA_HOME, the toolkit of the
     * {@code nvcc} on PATH (found from its real path, read from version.json, never run), then the usual places.
     * CUDA_PATH, CUDA_HOME and that nvcc naming different toolkits is {@code toolkit.env-mismatch}.
     */
    public static Selection locateForVerify(Host host, Path cudaPathOption) {
        Selection s = locate(host, cudaPathOption, null, true);
        List<Finding> findings = new ArrayList<>(s.findings());
        envMismatch(host).ifPresent(findings::add);
        return new Selection(s.chosen(), s.found(), findings);
    }

    /**
     * The toolkit root of the first {@code nvcc} on PATH, from its real path (bin/nvcc's parent's parent), when that
     * folder is a toolkit; never run.
     */
    public static Optional<Path> nvccOnPath(Host host) {
        String path = host.env("PATH");
        if (path == null || path.length() > 131_072) {
            return Optional.empty();
        }
        String exe = host.windows() ? "nvcc.exe" : "nvcc";
        for (String e : path.split(Pattern.quote(host.pathSeparator()), -1)) {
            if (e.isBlank() || e.length() > 4096) {
                continue;
            }
            try {
                Path dir = host.path(e.replace("\"", ""));
                if (!dir.isAbsolute()) {
                    continue; // a relative entry names the current folder's nvcc: nothing to trust as a toolkit
                }
                Path nvcc = dir.resolve(exe);
                if (Files.isRegularFile(nvcc)) {
                    Path real = host.realPath(nvcc);
                    Path bin = real.getParent();
                    Path root = bin == null ? null : bin.getParent();
                    // a wrapper script in /usr/local/bin is not a toolkit's nvcc: its folder above is no toolkit
                    // (bin/nvcc alone does not make /usr/local a toolkit): a toolkit's root holds version.json or version.txt
                    return root == null || !(Files.isRegularFile(root.resolve("version.json"))
                            || Files.isRegularFile(root.resolve("version.txt"))) ? Optional.empty() : Optional.of(root);
                }
            } catch (RuntimeException bad) {
                // an invalid entry names nothing
            }
        }
        return Optional.empty();
    }

    /** CUDA_PATH, CUDA_HOME and the nvcc on PATH naming two or more different toolkits (by real path). */
    static Optional<Finding> envMismatch(Host host) {
        List<String> names = new ArrayList<>();
        List<Path> roots = new ArrayList<>();
        for (String var : List.of("CUDA_PATH", "CUDA_HOME")) {
            String v = host.env(var);
            if (v == null || v.isBlank() || v.length() > 4096) {
                continue;
            }
            try {
                Path p = host.path(v.replace("\"", ""));
                if (p.isAbsolute()) {
                    names.add(var + "=" + Text.printable(v) + describe(host, p));
                    roots.add(host.realPath(p));
                }
            } catch (RuntimeException bad) {
                // an unusable value names no toolkit
            }
        }
        Optional<Path> nvcc = nvccOnPath(host);
        nvcc.ifPresent(r -> {
            names.add("the nvcc on PATH (" + r.resolve("bin").resolve(host.windows() ? "nvcc.exe" : "nvcc") + ")" + describe(host, r));
            roots.add(host.realPath(r));
        });
        List<Path> distinct = new ArrayList<>();
        for (Path r : roots) {
            if (distinct.stream().noneMatch(x -> host.samePath(x, r))) {
                distinct.add(r);
            }
        }
        if (distinct.size() < 2) {
            return Optional.empty();
        }
        return Optional.of(Finding.warn(FindingId.TOOLKIT_ENV_MISMATCH, "the environment names " + distinct.size()
                        + " different CUDA toolkits: " + String.join(", ", names) + "; torch extensions, CMake and other builds pick"
                        + " one by their own rule and may build against another toolkit than the one verified",
                "point CUDA_PATH, CUDA_HOME and PATH at one toolkit (e.g. export CUDA_HOME=DIR CUDA_PATH=DIR PATH=DIR/bin:$PATH),"
                        + " or unset the ones you do not use"));
    }

    private static String describe(Host host, Path root) {
        Toolkit t = readWithoutRunning(host, root, "");
        return t.version() == null ? "" : " (CUDA " + t.version() + ")";
    }

    private static Selection locate(Host host, Path cudaPathOption, ArchiveName archive, boolean viaNvcc) {
        List<Toolkit> found = new ArrayList<>();
        Reads reads = new Reads(host);
        Integer wantMajor = archive == null ? null : archive.cudaVariant().major();
        List<Finding> findings = new ArrayList<>();
        if (cudaPathOption != null) {
            if (!Files.isDirectory(cudaPathOption)) {
                findings.add(Finding.error(FindingId.TOOLKIT_MISSING, "--cuda-path " + cudaPathOption + " is not a folder",
                        "pass the toolkit's root folder (the one holding bin, include and lib), or --prefix DIR for a stand-alone folder"));
                return new Selection(null, found, findings);
            }
            if (!looksLikeToolkit(host, cudaPathOption)) {
                findings.add(Finding.error(FindingId.TOOLKIT_MISSING, "--cuda-path " + cudaPathOption + " is not a CUDA toolkit (it has"
                                + " no version.json, version.txt, bin/nvcc or include/cuda.h)",
                        "pass the toolkit's root folder (the one holding bin, include and lib), or --prefix DIR for a stand-alone folder"));
                return new Selection(null, found, findings);
            }
            found.add(reads.read(cudaPathOption, "--cuda-path"));
        }
        addIfDir(reads, found, host.env("CUDA_PATH"), "CUDA_PATH");
        addIfDir(reads, found, host.env("CUDA_HOME"), "CUDA_HOME");
        for (String rule : List.of("CUDA_PATH", "CUDA_HOME")) {
            if (host.env(rule) != null && found.stream().noneMatch(t -> t.foundBy().equals(rule)) && isDir(host, host.env(rule))) {
                findings.add(Finding.warn(FindingId.TOOLKIT_NOT_A_TOOLKIT, rule + "=" + host.env(rule) + " is not a CUDA toolkit (it has no"
                        + " version.json, version.txt, bin/nvcc or include/cuda.h), so it was not used",
                        "point " + rule + " at the toolkit's root folder, or unset it"));
            }
        }
        if (viaNvcc) {
            Optional<Path> nvcc = nvccOnPath(host);
            if (nvcc.isPresent()) {
                found.add(readWithoutRunning(host, nvcc.get(), "nvcc on PATH"));
            }
        }
        List<Toolkit> versioned = new ArrayList<>();
        for (var e : host.env().entrySet()) {
            Matcher m = CUDA_PATH_V.matcher(e.getKey());
            if (m.matches()) {
                addIfDir(reads, versioned, e.getValue(), e.getKey().toUpperCase(Locale.ROOT));
            }
        }
        versioned.sort(byVersionDescending());
        found.addAll(versioned);
        List<Toolkit> usual = new ArrayList<>();
        for (Path p : usualPlaces(host)) {
            usual.add(reads.read(p, "usual location"));
        }
        usual.sort(byVersionDescending());
        found.addAll(usual);
        found = dedupe(host, found);

        Toolkit chosen = null;
        for (Toolkit t : found) {
            boolean versionedRule = t.foundBy().startsWith("CUDA_PATH_V") || t.foundBy().equals("usual location");
            if (versionedRule && wantMajor != null && (t.version() == null || t.version().major() != wantMajor)) {
                continue; // these rules pick only a toolkit of the archive's major
            }
            chosen = t;
            break;
        }
        if (chosen == null && !found.isEmpty() && wantMajor == null) {
            chosen = found.get(0);
        }
        if (chosen == null && !found.isEmpty()) {
            // Only toolkits of another major exist: choose the first so the mismatch is reported plainly.
            chosen = found.get(0);
        }
        if (chosen == null) {
            findings.add(Finding.error(FindingId.TOOLKIT_MISSING, "no CUDA toolkit found (looked at --cuda-path, CUDA_PATH, CUDA_HOME,"
                            + " CUDA_PATH_V*_*, and " + (host.windows() ? "%ProgramFiles%\\NVIDIA GPU Computing Toolkit\\CUDA"
                            : "/usr/local/cuda*") + ")",
                    "install the CUDA Toolkit" + (wantMajor == null ? "" : " " + wantMajor + ".x")
                            + ", pass --cuda-path DIR, or use --prefix DIR to install cuDNN into a stand-alone folder"));
        }
        return new Selection(chosen, found, findings);
    }

    /** Checks the chosen toolkit against the archive: the CUDA major must match. */
    public static List<Finding> checkAgainst(Toolkit t, ArchiveName archive) {
        return checkAgainst(t, archive, ArchiveAdvice.bundled(DriverInfo.NONE));
    }

    /** As {@link #checkAgainst(Toolkit, ArchiveName)}; a mismatch names the archive {@code advice} picks for the toolkit's major. */
    public static List<Finding> checkAgainst(Toolkit t, ArchiveName archive, ArchiveAdvice advice) {
        return checkAgainst(t, archive, advice, archive == null ? null : new PlatformCheck.Target(archive.os(), archive.arch()));
    }

    /**
     * As {@link #checkAgainst(Toolkit, ArchiveName, ArchiveAdvice)}, the archive named built for {@code to}: this
     * machine's platform ({@link PlatformCheck#right}), so a wrong platform and a wrong CUDA major name one archive.
     */
    public static List<Finding> checkAgainst(Toolkit t, ArchiveName archive, ArchiveAdvice advice, PlatformCheck.Target to) {
        List<Finding> out = new ArrayList<>();
        if (t == null) {
            return out;
        }
        String where = "CUDA toolkit " + (t.version() == null ? "(version unknown)" : t.version()) + " at " + t.root()
                + " (chosen by " + t.foundBy() + ")";
        if (archive != null && t.version() != null) {
            int want = archive.cudaVariant().major();
            if (t.version().major() != want) {
                out.add(Finding.error(FindingId.TOOLKIT_CUDA_MAJOR_MISMATCH, archive.fileName() + " is built for CUDA " + want
                                + ".x but the " + where + " is CUDA " + t.version().major(),
                        mismatchFix(advice.sameOrNewest(sameRelease(archive, to, t.version().major()), to.os(), to.arch(),
                                t.version().major()), want)));
                return out;
            }
            Optional<CudaVersion[]> range = supportedRange(archive.version(), want);
            if (range.isPresent() && (t.version().compareTo(range.get()[0]) < 0 || t.version().compareTo(range.get()[1]) > 0)) {
                out.add(Finding.warn(FindingId.TOOLKIT_UNSUPPORTED_MINOR, "cuDNN " + archive.version().releaseString() + " (cuda" + want
                                + ") supports CUDA " + range.get()[0] + " to " + range.get()[1] + "; the " + where
                                + " is outside that range and may work, untested by NVIDIA",
                        "use a toolkit in " + range.get()[0] + "–" + range.get()[1] + ", or a newer cuDNN release that supports CUDA "
                                + t.version()));
                return out;
            }
        }
        out.add(Finding.info(FindingId.TOOLKIT_OK, where));
        return out;
    }

    /** The archive's release built for another CUDA major, in NVIDIA's spelling (it may not exist: the advice looks it up). */
    private static String sameRelease(ArchiveName archive, PlatformCheck.Target to, int cudaMajor) {
        String name = to.os() == archive.os() && to.arch() == archive.arch() ? archive.canonicalName()
                : to.os() == OsFamily.WINDOWS ? archive.windowsEquivalent() : archive.linuxEquivalent(to.arch());
        return name.replaceAll("_cuda[0-9.]+-", "_cuda" + cudaMajor + "-");
    }

    private static String mismatchFix(ArchiveAdvice.Pick pick, int archiveMajor) {
        String other = "pass --cuda-path to a CUDA " + archiveMajor + ".x toolkit";
        return pick.entry().isPresent() ? "download " + pick.text() + ", or " + other : pick.text() + "; " + other;
    }

    /** Supported toolkit ranges that the facts file confirms; no entry means no warning either way. */
    static Optional<CudaVersion[]> supportedRange(CudnnVersion cudnn, int cudaMajor) {
        if (cudnn.sameRelease(CudnnVersion.of(8, 9, 5))) {
            if (cudaMajor == 12) {
                return Optional.of(new CudaVersion[] {new CudaVersion(12, 0), new CudaVersion(12, 2)});
            }
            if (cudaMajor == 11) {
                return Optional.of(new CudaVersion[] {new CudaVersion(11, 0), new CudaVersion(11, 8)});
            }
        }
        return Optional.empty();
    }

    /** As {@link #read} but never runs anything: version.json, version.txt, else the folder's name. */
    static Toolkit readWithoutRunning(Host host, Path root, String foundBy) {
        return named(root, foundBy, readContent(host, root, false));
    }

    /** Reads the toolkit's version: version.json, else version.txt, else nvcc --version. */
    public static Toolkit read(Host host, Path root, String foundBy) {
        return named(root, foundBy, readContent(host, root, true));
    }

    /** The toolkit at {@code root} by the version its content gave, else by its folder's own name (v12.2, cuda-12.2). */
    private static Toolkit named(Path root, String foundBy, Optional<Toolkit> content) {
        if (content.isPresent()) {
            return new Toolkit(root, content.get().version(), content.get().versionSource(), foundBy);
        }
        // Last resort: the folder's own name (v12.2, cuda-12.2), as the installers name it.
        Matcher m = VERSIONED_DIR.matcher(root.getFileName() == null ? "" : root.getFileName().toString());
        if (m.matches()) {
            return new Toolkit(root, new CudaVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))),
                    "folder name", foundBy);
        }
        return new Toolkit(root, null, null, foundBy);
    }

    /** The version the folder's content gives: version.json, else version.txt, else nvcc --version; empty if none does. */
    private static Optional<Toolkit> readContent(Host host, Path root, boolean runNvcc) {
        String foundBy = null;
        Path json = root.resolve("version.json");
        try {
            if (BoundedFiles.isRegularFile(json)) {
                Optional<CudaVersion> v = CudaVersion.parse(cudaVersionOf(BoundedFiles.read(json, BoundedFiles.TEXT)));
                if (v.isPresent()) {
                    return Optional.of(new Toolkit(root, v.get(), "version.json", foundBy));
                }
            }
            Path txt = root.resolve("version.txt");
            if (BoundedFiles.isRegularFile(txt)) {
                Optional<CudaVersion> v = CudaVersion.fromVersionTxt(BoundedFiles.readString(txt, BoundedFiles.TEXT,
                        StandardCharsets.UTF_8));
                if (v.isPresent()) {
                    return Optional.of(new Toolkit(root, v.get(), "version.txt", foundBy));
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through to nvcc; a broken file is as good as none
        }
        Optional<Path> trusted = runNvcc ? TrustedPrograms.nvcc(host, root) : Optional.empty(); // the toolkit's own bin only, never PATH
        if (trusted.isPresent()) {
            ProcessResult r = host.runner().run(List.of(trusted.get().toString(), "--version"), Duration.ofSeconds(10));
            Optional<CudaVersion> v = r.ok() ? CudaVersion.fromNvcc(r.out()) : Optional.empty();
            if (v.isPresent()) {
                return Optional.of(new Toolkit(root, v.get(), "nvcc", foundBy));
            }
        }
        return Optional.empty();
    }

    /**
     * The value of {@code cuda.version} in a toolkit's version.json, or null: read with the streaming
     * parser (a data-binding mapper costs a start-up a tenth of a second, #31 item 5), skipping
     * every other value. Malformed JSON throws, as the mapper did.
     */
    static String cudaVersionOf(byte[] json) throws IOException {
        try (JsonParser p = VERSION_JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if ("cuda".equals(field) && value == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String inner = p.currentName();
                        JsonToken v = p.nextToken();
                        if ("version".equals(inner)) {
                            return v.isScalarValue() ? p.getText() : null;
                        }
                        p.skipChildren();
                    }
                    return null;
                }
                p.skipChildren();
            }
            return null;
        }
    }

    /**
     * One read of each real toolkit folder per {@link #locate}: /usr/local/cuda, /usr/local/cuda-12.2 and a
     * CUDA_PATH naming either are one folder, whose version (and, without version.json or version.txt,
     * {@code nvcc --version}) is read once; each name keeps its own root and rule, and a folder whose
     * content gives no version is still named by its own folder name (cuda-12.2), as before.
     */
    private static final class Reads {
        private final Host host;
        private final List<Path> real = new ArrayList<>();
        private final List<Optional<Toolkit>> done = new ArrayList<>();

        Reads(Host host) {
            this.host = host;
        }

        Toolkit read(Path root, String foundBy) {
            Path r;
            try {
                r = host.realPath(root);
            } catch (RuntimeException e) {
                return ToolkitLocator.read(host, root, foundBy);
            }
            for (int i = 0; i < real.size(); i++) {
                if (host.samePath(real.get(i), r)) {
                    return named(root, foundBy, done.get(i));
                }
            }
            Optional<Toolkit> content = readContent(host, root, true);
            real.add(r);
            done.add(content);
            return named(root, foundBy, content);
        }
    }

    private static void addIfDir(Reads reads, List<Toolkit> out, String value, String rule) {
        if (value == null) {
            return;
        }
        Host host = reads.host;
        try {
            Path p = host.path(value.replace("\"", ""));
            if (Files.isDirectory(p) && looksLikeToolkit(host, p)) {
                out.add(reads.read(p, rule));
            }
        } catch (RuntimeException ignored) {
            // an unusable value is as good as none
        }
    }

    private static boolean isDir(Host host, String value) {
        try {
            return Files.isDirectory(host.path(value.replace("\"", "")));
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * A folder is taken for a toolkit only if it holds something every toolkit has: a CUDA_PATH
     * of "/" or "/etc" would otherwise receive include/cudnn*.h, lib64 and the tool's own folder.
     */
    static boolean looksLikeToolkit(Host host, Path root) {
        for (String marker : List.of("version.json", "version.txt", "include/cuda.h", "include/cuda_runtime.h",
                host.windows() ? "bin/nvcc.exe" : "bin/nvcc")) {
            Path p = root;
            for (String seg : marker.split("/")) {
                p = p.resolve(seg);
            }
            if (Files.isRegularFile(p)) {
                return true;
            }
        }
        return false;
    }

    private static List<Path> usualPlaces(Host host) {
        List<Path> out = new ArrayList<>();
        if (host.windows()) {
            listVersioned(host.programFiles().resolve("NVIDIA GPU Computing Toolkit").resolve("CUDA"), "v", out);
        } else {
            Path cuda = host.path("/usr/local/cuda");
            if (Files.isDirectory(cuda)) {
                out.add(cuda);
            }
            listVersioned(host.path("/usr/local"), "cuda-", out);
        }
        return out;
    }

    private static void listVersioned(Path parent, String prefix, List<Path> out) {
        if (!Files.isDirectory(parent)) {
            return;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent, prefix + "*")) {
            for (Path p : ds) {
                if (Files.isDirectory(p)) {
                    out.add(p);
                }
            }
        } catch (IOException ignored) {
            // unreadable: nothing found there
        }
    }

    private static Comparator<Toolkit> byVersionDescending() {
        return Comparator.comparing(Toolkit::version, Comparator.nullsLast(Comparator.reverseOrder()));
    }

    /** /usr/local/cuda and /usr/local/cuda-12.2 are usually one folder: keep the first name found. */
    private static List<Toolkit> dedupe(Host host, List<Toolkit> in) {
        List<Toolkit> out = new ArrayList<>();
        List<Path> real = new ArrayList<>();
        for (Toolkit t : in) {
            Path r = host.realPath(t.root());
            final Path rr = r;
            if (real.stream().noneMatch(x -> host.samePath(x, rr))) {
                real.add(r);
                out.add(t);
            }
        }
        return out;
    }
}
