package dev.cudnntool;

import static dev.cudnntool.Severity.ERROR;
import static dev.cudnntool.Severity.INFO;
import static dev.cudnntool.Severity.WARN;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every finding id the tool reports, written once: the id scripts depend on, a one-line meaning and
 * the severities it is raised with. The first severity is the usual one; where more are listed the
 * call site decides by the situation (a shadowing copy is an error only when it wins). Severities a
 * finding is turned into afterwards ({@code --force}, the post-install probe) are not listed here.
 * The README's "Finding ids" table documents the same ids; {@code FindingIdTest} checks both ways.
 * Adding an id is one line here and one row there.
 */
public enum FindingId {
    ARCHIVE_NAME_TYPO("archive.name-typo", "the blog's spelling of the archive name; NVIDIA's name is given", WARN),
    ARCHIVE_BROWSER_COPY("archive.browser-copy", "a browser's copy of the archive (`… (1).zip`)", INFO),
    ARCHIVE_RENAMED_TGZ("archive.renamed-tgz", "an archive renamed by the browser (`.solitairetheme8`)", WARN),
    ARCHIVE_TOP_FOLDER("archive.top-folder", "the top folder differs from NVIDIA's (repacked?)", WARN),
    ARCHIVE_VERSION_MISMATCH("archive.version-mismatch", "the contents disagree with the file name", ERROR),
    ARCHIVE_FOREIGN_FILE("archive.foreign-file", "files that are not cuDNN's or not where NVIDIA puts them", ERROR),
    ARCHIVE_INCOMPLETE("archive.incomplete", "a library, header or import library of that major is missing", ERROR),
    ARCHIVE_CHECKSUM_MISMATCH("archive.checksum-mismatch", "the sha256 is not the expected one", ERROR),
    ARCHIVE_CHECKSUM_OK("archive.checksum-ok", "the sha256 is the expected one", INFO),
    ARCHIVE_SHA256("archive.sha256", "the computed sha256", INFO),
    ARCHIVE_GENUINE("archive.genuine", "the sha256 matches NVIDIA's published sha256", INFO),
    ARCHIVE_NOT_IN_CATALOGUE("archive.not-in-catalogue", "the name is not in the catalogue; nothing compared", INFO),
    ARCHIVE_CHECKSUM_DISPUTED("archive.checksum-disputed", "a name public sources disagree on matches one listed value", WARN),
    WHEEL_RECORD_MISMATCH("wheel.record-mismatch", "a file of the pip wheel is missing from, extra to or different from its RECORD", ERROR),
    WHEEL_RECORD_OK("wheel.record-ok", "every file of the pip wheel has the sha256 and size its RECORD lists", INFO),
    ARCHIVE_REJECTED("archive.rejected", "(dry run) the archive would be rejected after an earlier stop", ERROR),
    JVM_32BIT("jvm.32bit", "the Java runtime is 32-bit; cuDNN is 64-bit only", ERROR),
    PLATFORM_WSL("platform.wsl", "running in WSL", INFO),
    PLATFORM_MISMATCH("platform.mismatch", "wrong OS or CPU for the archive", ERROR),
    DRIVER_MISSING("driver.missing", "no nvidia-smi (fine on a build machine)", WARN),
    DRIVER_FAILED("driver.failed", "nvidia-smi fails or hangs", ERROR),
    DRIVER_TOO_OLD("driver.too-old", "the driver is older than the cuDNN build's CUDA major needs", ERROR),
    DRIVER_LIBCUDA_MISSING("driver.libcuda-missing", "nvidia-smi answers but the driver's CUDA library (libcuda.so.1, nvcuda.dll)"
            + " is missing or not loadable", ERROR),
    DRIVER_WSL_LINUX_DRIVER("driver.wsl-linux-driver", "inside WSL2, a Linux NVIDIA driver is installed (libcuda.so.1 from a"
            + " libnvidia-compute or nvidia-driver package, or an nvidia-smi not WSL's): it breaks CUDA there; WSL's driver comes"
            + " from Windows", ERROR),
    DRIVER_NO_GPU("driver.no-gpu", "the driver works but no GPU is visible to this process", WARN),
    DRIVER_OK("driver.ok", "the driver, its CUDA ceiling and the GPUs", INFO),
    COPY_SKIPPED_UNTRUSTED("copy.skipped-untrusted", "a folder the tool found by itself (a .venv, a conda env) belongs to another"
            + " user or is writable by others: not searched", WARN),
    SCAN_INCOMPLETE(Verdict.NOT_CHECKED, "scan.incomplete", "a folder holds more cuDNN names than the tool reads; the rest were not looked at", WARN),
    TOOLKIT_MISSING("toolkit.missing", "no CUDA toolkit (only noted by a plain verify)", ERROR, INFO),
    TOOLKIT_NOT_A_TOOLKIT("toolkit.not-a-toolkit", "CUDA_PATH/CUDA_HOME names a folder that is not a toolkit", WARN),
    TOOLKIT_CUDA_MAJOR_MISMATCH("toolkit.cuda-major-mismatch", "the archive is built for another CUDA major than the toolkit", ERROR),
    TOOLKIT_UNSUPPORTED_MINOR("toolkit.unsupported-minor", "the toolkit is outside the release's supported range", WARN),
    TOOLKIT_OK("toolkit.ok", "the toolkit and which rule chose it", INFO),
    TOOLKIT_ENV_MISMATCH("toolkit.env-mismatch", "CUDA_PATH, CUDA_HOME and the nvcc on PATH name different toolkits", WARN),
    SEARCH_PATH_MISSING("search-path.missing", "the library folder is not on the loader's search path", WARN),
    SEARCH_PATH_CURRENT_DIR("search-path.current-dir", "an empty LD_LIBRARY_PATH entry, which means the current folder", WARN),
    SEARCH_PATH_CONF_SKIPPED("search-path.conf-skipped", "a line or file of ld.so.conf the tool did not follow", WARN),
    CUDNN_SHADOW("cudnn.shadow", "another cuDNN the loader could find; an error when it wins for the same major", WARN, ERROR),
    CUDNN_ZLIBWAPI_MISSING("cudnn.zlibwapi-missing", "Windows cuDNN 8.3-9.1 lacks a 64-bit zlibwapi.dll", ERROR),
    CUDNN_ZLIBWAPI_OK("cudnn.zlibwapi-ok", "a 64-bit zlibwapi.dll is found", INFO),
    INSTALL_TARGET_NOT_WRITABLE("install.target-not-writable", "(dry run) the real run would stop with exit 5", ERROR),
    INSTALL_FILE_IN_USE("install.file-in-use", "(dry run) a file to replace is held open by a running program", ERROR),
    INSTALL_OTHER_MAJOR_KEPT("install.other-major-kept", "runtime libraries of another major stay", INFO),
    INSTALL_PACKAGE_OWNED("install.package-owned", "cuDNN files the install would replace belong to dpkg, rpm, pip or conda", ERROR),
    INSTALL_DOWNGRADE("install.downgrade", "the archive is older than the cuDNN it replaces in the target", WARN),
    INSTALL_FAILED("install.failed", "the install failed (exit 6)", ERROR),
    INSTALL_ROLLBACK_FAILED("install.rollback-failed", "the install failed and undoing it failed too (exit 7)", ERROR),
    INSTALL_PROBE_OK("install.probe-ok", "the installed library loads and answers", INFO),
    INSTALL_PROBE_SKIPPED("install.probe-skipped", "the installed library was not loaded", INFO),
    INSTALL_ADD_TO_PATH("install.add-to-path", "the folder --add-to-path added (or would add, or found there)", INFO),
    ROLLBACK_SEARCH_PATH("rollback.search-path", "the search path restored, or only the added entry removed; or left as it is because"
            + " it no longer holds what the tool wrote (warn, the file or value named)", INFO, WARN),
    INSTALL_UNFINISHED("install.unfinished", "an interrupted install or rollback is pending", ERROR),
    INSTALL_STATE_DAMAGED("install.state-damaged", "(dry run) a record or the journal is damaged (exit 8)", ERROR),
    CLEANUP_OTHER_FILE_SYSTEM("cleanup.other-file-system", "a folder inside the tool's folder is on another file system; left in place", WARN),
    TARGET_OUTSIDE_LINK("target.outside-link", "a folder of the target is a link leading outside it", WARN),
    ROLLBACK_UNACCOUNTED("rollback.unaccounted", "--repair set aside a record whose files it cannot account for", WARN),
    ROLLBACK_NOTHING("rollback.nothing", "nothing to roll back (exit 8)", ERROR),
    ROLLBACK_REFUSED("rollback.refused", "the rollback is refused (exit 8)", ERROR),
    ROLLBACK_FAILED("rollback.failed", "the rollback failed (exit 6)", ERROR),
    CUDNN_MISSING("cudnn.missing", "no cuDNN in the target (an error with --expect or a --prefix that is no folder)", INFO, ERROR),
    CUDNN_INCOMPLETE("cudnn.incomplete", "a sub-library, header or import library is missing", ERROR),
    CUDNN_MIXED_VERSIONS("cudnn.mixed-versions", "library files or functions from different releases", ERROR),
    CUDNN_HEADER_LIBRARY_MISMATCH("cudnn.header-library-mismatch", "cudnn_version.h and cudnnGetVersion disagree", ERROR),
    CUDNN_EXPECT_MISMATCH("cudnn.expect-mismatch", "not the --expect version", ERROR),
    CUDNN_LOAD_FAILED("cudnn.load-failed", "the probe could not load or call cuDNN", ERROR),
    CUDNN_NOT_FOUND_BY_NAME("cudnn.not-found-by-name", "a program loading cuDNN by name gets nothing", ERROR),
    CUDNN_DAMAGED_FILE("cudnn.damaged-file", "a library whose headers or segments do not fit the file", ERROR),
    CUDNN_DANGLING_LINK("cudnn.dangling-link", "a link whose target does not exist, or a link loop", ERROR),
    CUDNN_NO_SONAME_LINK("cudnn.no-soname-link", "a library only under its full-version name, without the soname link the loader opens", ERROR),
    CUDNN_UNREADABLE("cudnn.unreadable", "a library, or a library folder, the current user cannot read; a warning for an"
            + " unreadable cudnn_version.h", ERROR, WARN),
    CUDNN_HEADER_ALTERNATIVE("cudnn.header-alternative", "a cuDNN header link through /etc/alternatives (NVIDIA's Debian"
            + " packages) leads to another cuDNN than the runtime: another version, or another major with no runtime here (warn: a"
            + " major whose runtime is here too)", ERROR, WARN),
    CUDNN_DEV_LINK_MISMATCH("cudnn.dev-link-mismatch", "the development link libcudnn.so leads to another major than the soname"
            + " link, so -lcudnn links the old one", ERROR),
    CUDNN_TWO_MAJORS("cudnn.two-majors", "cuDNN 8 and 9 in one folder", WARN),
    CUDNN_DEPENDENCY_MISSING("cudnn.dependency-missing", "a library cuDNN needs is not found by name", WARN),
    CUDNN_COPIES("cudnn.copies", "how many copies, and which one a program gets by name", INFO),
    FRAMEWORK_OK("framework.ok", "a framework gets the cuDNN it pins, complete, from one copy, with its cuBLASLt", INFO),
    FRAMEWORK_MISMATCH("framework.mismatch", "a framework will not get the cuDNN it pins (version, CUDA major, a missing piece, the driver)", ERROR),
    FRAMEWORK_NOT_FOUND("framework.not-found", "the framework --for names is not installed in the environments searched", ERROR),
    CUDNN_MIXED_COPIES("cudnn.mixed-copies", "a framework gets cuDNN's sub-libraries from more than one copy", ERROR),
    CUDNN_TWO_CUDARTS("cudnn.two-cudarts", "CUDA runtimes of two majors are reachable by name from one program", WARN),
    CUDNN_INSTALLER("cudnn.installer", "NVIDIA's Windows cuDNN installer layout: the folder for the toolkit's CUDA, its PATH line and build hints", INFO, WARN),
    CUDNN_TORCH_COPY("cudnn.torch-copy", "which copy PyTorch in a site-packages really loads (its DT_RPATH or DT_RUNPATH in the"
            + " loader's order); a warning when that is not its own wheel's, or none", INFO, WARN),
    CUDNN_PRELOADED("cudnn.preloaded", "a cuDNN library named by LD_PRELOAD or /etc/ld.so.preload, which wins over every folder;"
            + " an error when it is the verified major from another copy", ERROR, WARN, INFO),
    CUDNN_SUBLIBRARY_ELSEWHERE("cudnn.sublibrary-elsewhere", "the probe's program-like load mapped a cuDNN sub-library from"
            + " another folder than the main library's (an empty LD_LIBRARY_PATH entry: the current folder)", WARN),
    CUDNN_SHADOWED("cudnn.shadowed", "loading by name finds another file than the toolkit's", ERROR),
    CUDNN_CUDART_MISMATCH("cudnn.cudart-mismatch", "built for another CUDA major than the toolkit", ERROR),
    CUDNN_HANDLE_FAILED("cudnn.handle-failed", "cudnnCreate failed although a driver is present", ERROR),
    CUDNN_NO_GPU("cudnn.no-gpu", "no driver, so no handle", INFO),
    CUDNN_GPU_UNSUPPORTED("cudnn.gpu-unsupported", "NVIDIA's support matrix of the cuDNN release lacks the GPU's compute capability;"
            + " the newest catalogued release that supports it is named (warn: a release the matrix does not hold, inferred from"
            + " the releases around it)", ERROR, WARN),
    CUDNN_GPU_REPORTED("cudnn.gpu-reported", "a third party (not NVIDIA) reports a fact about the cuDNN release that bears on the"
            + " GPU: shown as reported, with its source; never an error or a warning on its own", INFO),
    CUDNN_WRONG_ARCH("cudnn.wrong-arch", "libraries built for another CPU than this machine's; the archive for this one is named", ERROR),
    CUDNN_DLL_ARCH("cudnn.dll-arch", "a cuDNN or zlib DLL that is not x64", ERROR),
    CUDNN_FILE_VERSION("cudnn.file-version", "the DLL's FileVersion agrees (info) or disagrees (error) with the header", INFO, ERROR),
    CUDNN_OTHER_MAJOR("cudnn.other-major", "another major is present too", INFO),
    CUDNN_OK("cudnn.ok", "version, where, loaded from where, CUDA runtime, handle result", INFO),
    PROBE_NOT_CHECKED(Verdict.NOT_CHECKED, "probe.not-checked", "whether cuDNN loads and answers could not be checked: the probe"
            + " child timed out, crashed outside cuDNN (before any cuDNN call), or could not start (verify's exit 9)", WARN),
    OWNER_UNREADABLE(Verdict.NOT_CHECKED, "owner.unreadable", "a package manager's record (a dpkg list or status, a pip RECORD,"
            + " a conda-meta file) could not be read, so which package owns a copy was not checked (verify's exit 9)", WARN),
    EXPLAIN_NOT_FOUND("explain.not-found", "`explain`: the library an error line names is not found by name here: no copy of"
            + " that major or sub-library, or copies in folders the loader does not search (named, with the fix)", ERROR),
    EXPLAIN_FOUND_FIRST("explain.found-first", "`explain`: the cuDNN a version-mismatch line reports is the one found first"
            + " here (its folder, and what put it first)", ERROR),
    EXPLAIN_DEPENDENCY("explain.dependency", "`explain`: a library a found cuDNN needs is missing (zlibwapi.dll for Windows error"
            + " 126; cuBLASLt, NVRTC, zlib for a sub-library or prerequisite status), or the DLL found first is not x64 (error 193)", ERROR),
    EXPLAIN_NO_GPU("explain.no-gpu", "`explain`: a status cuDNN answers without a usable GPU (NOT_INITIALIZED, a CUDA driver"
            + " failure) on a machine where verify finds no driver, no visible GPU or a driver too old", ERROR),
    EXPLAIN_RULED_OUT("explain.ruled-out", "`explain`: what was checked for a line and found fine here", INFO),
    EXPLAIN_NOT_CHECKED(Verdict.NOT_CHECKED, "explain.not-checked", "`explain`: the check that answers a line could not run here (another OS's"
            + " error, no cuDNN to load, the probe did not finish)", WARN);

    private static final Map<String, FindingId> BY_ID = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(FindingId::id, Function.identity()));

    /**
     * What a finding of this id says of the verdict when it is not an error: {@link #NOT_CHECKED} ids say the tool could
     * not look (verify's "unknown" verdict, exit 9); an error finding of any id makes the verdict "problems" whatever else.
     */
    public enum Verdict {
        /** An ordinary finding: as its severity says. */
        JUDGED,
        /** Something the tool itself could not observe; nothing observed is broken by it. */
        NOT_CHECKED
    }

    private final Verdict verdict;
    private final String id;
    private final String meaning;
    private final Severity severity;
    private final Set<Severity> severities;

    FindingId(String id, String meaning, Severity severity, Severity... alsoAs) {
        this(Verdict.JUDGED, id, meaning, severity, alsoAs);
    }

    FindingId(Verdict verdict, String id, String meaning, Severity severity, Severity... alsoAs) {
        this.verdict = verdict;
        this.id = id;
        this.meaning = meaning;
        this.severity = severity;
        this.severities = Collections.unmodifiableSet(EnumSet.of(severity, alsoAs));
    }

    /** The id as reports and scripts spell it, e.g. {@code install.failed}. */
    public String id() {
        return id;
    }

    public String meaning() {
        return meaning;
    }

    /** The usual severity. */
    public Severity severity() {
        return severity;
    }

    /** Every severity the id is raised with, the usual one included. */
    public Set<Severity> severities() {
        return severities;
    }

    /** A finding of this id says "could not check" (see {@link Verdict#NOT_CHECKED}). */
    public boolean notChecked() {
        return verdict == Verdict.NOT_CHECKED;
    }

    /** Whether a finding with this id string is a "could not check" one; false for an id this table does not hold. */
    public static boolean notChecked(String id) {
        return of(id).map(FindingId::notChecked).orElse(false);
    }

    public static Optional<FindingId> of(String id) {
        return Optional.ofNullable(BY_ID.get(id));
    }

    @Override
    public String toString() {
        return id;
    }
}
