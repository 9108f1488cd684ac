package dev.cudnntool.verify;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.PlatformFiles;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.InstalledCudnn;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.diagnosis.Prober;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.install.PostInstallCheck;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.verify.machine.DriverFit;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Turns what the probe learned into findings with causes and fixes. */
public final class ProbeCheck {
    /** The reinstall advice of a library that does not load: a package manager's copy gets its owner's command. */
    static final String REINSTALL = "reinstall the complete archive with cudnn install (it replaces every sub-library together)";

    private ProbeCheck() {
    }

    /**
     * @param header        the installed header's version, or null
     * @param toolkitCuda   the toolkit's CUDA version, or null (prefix, unknown)
     * @param driverPresent whether nvidia-smi reported a working driver
     */
    public static List<Finding> findings(Host host, ProbeResult p, CudnnVersion header, CudaVersion toolkitCuda,
                                         boolean driverPresent) {
        return findings(host, p, header, toolkitCuda, driverPresent
                ? new DriverInfo(null, "unknown", null, List.of()) : DriverInfo.NONE);
    }

    /** @param driver what nvidia-smi reported ({@link DriverInfo#NONE} without one) */
    public static List<Finding> findings(Host host, ProbeResult p, CudnnVersion header, CudaVersion toolkitCuda,
                                         DriverInfo driver) {
        List<Finding> out = new ArrayList<>(loading(host, p));
        if (p.incomplete()) {
            out.add(crashFinding(p));
        }
        out.addAll(shadowed(host, p));
        out.addAll(subLibraryVersions(p));
        out.addAll(mappedElsewhere(host, p));
        out.addAll(versions(p, header, toolkitCuda));
        out.addAll(handle(host, p, driver));
        return out;
    }

    /** The main library and its sub-libraries as the loader took them (unreadable, rejected, mixed releases). */
    private static List<Finding> loading(Host host, ProbeResult p) {
        List<Finding> out = new ArrayList<>();
        if (p.loadError() != null && denied(p.loadError())) {
            out.add(FileChecks.unreadableFinding(host, p.library()));
        } else if (p.loadError() != null) {
            out.add(Finding.error(FindingId.CUDNN_LOAD_FAILED, "could not load " + p.library() + ": " + p.loadError(),
                    p.loadError().contains("193") ? Fix.text("replace it with the 64-bit (x64) build") : Fix.reinstall(REINSTALL)));
        }
        List<String> failedSubs = new ArrayList<>();
        boolean mixed = false;
        for (ProbeResult.SubLibrary s : p.subLibraries()) {
            if (!s.loaded() && denied(s.error())) {
                out.add(FileChecks.unreadableFinding(host, s.path()));
            } else if (!s.loaded()) {
                failedSubs.add(s.path() + ": " + s.error());
                mixed |= s.errorCode() != null && s.errorCode() == 127 || String.valueOf(s.error()).contains("undefined symbol");
            }
        }
        if (!failedSubs.isEmpty()) {
            out.add(Finding.error(FindingId.CUDNN_LOAD_FAILED, "the loader rejects " + failedSubs.size() + " sub-librar"
                            + (failedSubs.size() == 1 ? "y" : "ies") + ": " + String.join("; ", failedSubs),
                    Fix.reinstall(mixed ? "sub-libraries from different cuDNN releases are mixed: " + REINSTALL : REINSTALL)));
        }
        return out;
    }

    /** Programs loading cuDNN by name get another file than the one checked. */
    private static List<Finding> shadowed(Host host, ProbeResult p) {
        if (p.loadedByNamePath() == null || p.loadedPath() == null || sameFile(host, p.loadedByNamePath(), p.loadedPath())) {
            return List.of();
        }
        String other = LibrarySearchCheck.versionOfLibrary(host, host.path(p.loadedByNamePath()));
        return List.of(Finding.error(FindingId.CUDNN_SHADOWED, "programs loading cuDNN by name get " + p.loadedByNamePath()
                        + (other == null ? "" : " (cuDNN " + other + ")") + ", not " + p.loadedPath()
                        + (p.versionString() == null ? "" : " (cuDNN " + p.versionString() + ")"),
                "remove the other copy's folder from " + (host.windows() ? "PATH" : "LD_LIBRARY_PATH")
                        + " or delete it; put " + host.path(p.loadedPath()).getParent() + " first"));
    }

    /**
     * cuDNN's own per-sub-library version checks and each mapped file's own version, against the main library's
     * answer: 9.24's ops library under 9.5.1's name loads, but cudnnOpsVersionCheck answers 1002
     * (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH) and the file's version symbol says 9.24.0. A matching copy answers
     * 0 to every check without a GPU (measured with the real 9.5.1, 9.24.0 and 8.9.7).
     */
    static List<Finding> subLibraryVersions(ProbeResult p) {
        List<String> failed = new ArrayList<>();
        for (ProbeResult.VersionCheck c : p.versionChecks()) {
            if (c.status() != 0) {
                failed.add(c.function() + " answered " + c.status() + (c.statusName() == null ? "" : " " + c.statusName()));
            }
        }
        List<String> other = new ArrayList<>();
        for (ProbeResult.Mapped m : p.mapped()) {
            if (m.version() != null && p.versionString() != null && !m.version().equals(p.versionString())) {
                other.add(m.path() + " is cuDNN " + m.version());
            }
        }
        if (failed.isEmpty() && other.isEmpty()) {
            return List.of();
        }
        String main = p.loadedPath() + (p.versionString() == null ? "" : " (cuDNN " + p.versionString() + ")");
        return List.of(Finding.error(FindingId.CUDNN_MIXED_VERSIONS, "sub-libraries of another release than the main library "
                        + main + ": " + String.join("; ", failed) + (failed.isEmpty() || other.isEmpty() ? "" : "; ")
                        + String.join("; ", other) + " (each file's own version, not its name)",
                Fix.reinstall("sub-libraries from different cuDNN releases are mixed: " + REINSTALL)));
    }

    /**
     * A cuDNN file the program-like load mapped from another folder than the main library's: the dispatcher
     * loads its sub-libraries by name, LD_LIBRARY_PATH before its own RUNPATH $ORIGIN, and tries the full-version
     * name first (libcudnn_ops.so.9.5.1, then .so.9.5, .so.9, .so: seen with LD_DEBUG on the real 9.5.1), so a
     * file of that name in a folder of LD_LIBRARY_PATH, or in the current folder through an empty entry, wins.
     */
    static List<Finding> mappedElsewhere(Host host, ProbeResult p) {
        if (p.loadedPath() == null || p.mapped().isEmpty()) {
            return List.of();
        }
        Path home;
        List<String> away = new ArrayList<>();
        try {
            home = host.path(p.loadedPath()).getParent();
            for (ProbeResult.Mapped m : p.mapped()) {
                Path dir = host.path(m.path()).getParent();
                if (home != null && dir != null && !host.sameFile(home, dir)) {
                    away.add(m.path() + (m.version() == null ? "" : " (cuDNN " + m.version() + ")"));
                }
            }
        } catch (InvalidPathException e) {
            return List.of(); // the child's names are not this file system's: nothing to compare
        }
        if (away.isEmpty()) {
            return List.of();
        }
        if (host.windows()) {
            // The DLL search order: the program's folder, System32, the Windows folder, the current folder, then PATH.
            return List.of(Finding.warn(FindingId.CUDNN_SUBLIBRARY_ELSEWHERE, "a program loading " + p.loadedPath()
                            + " gets " + String.join(", ", away) + " from another folder than " + home
                            + " (Windows looks in the program's folder, System32, the Windows folder and the current"
                            + " folder before PATH)",
                    "delete or rename the stray cuDNN files named here (a copy in System32 or the Windows folder wins over"
                            + " every PATH folder), or put " + home + " before their folder on PATH"));
        }
        String ld = host.env("LD_LIBRARY_PATH");
        boolean empty = ld != null && (ld.isEmpty() || ld.startsWith(":") || ld.endsWith(":") || ld.contains("::"));
        return List.of(Finding.warn(FindingId.CUDNN_SUBLIBRARY_ELSEWHERE, "a program loading " + p.loadedPath()
                        + " gets " + String.join(", ", away) + " from another folder than " + home
                        + (empty ? " (LD_LIBRARY_PATH has an empty entry, which means the current folder)" : ""),
                (empty ? "remove the empty entry from LD_LIBRARY_PATH (no leading, trailing or doubled ':'); " : "")
                        + "remove that folder from LD_LIBRARY_PATH or the stray files from it, so cuDNN's sub-libraries come from "
                        + home));
    }

    /** The library's answer against the header and the toolkit's CUDA. */
    private static List<Finding> versions(ProbeResult p, CudnnVersion header, CudaVersion toolkitCuda) {
        List<Finding> out = new ArrayList<>();
        if (p.versionString() != null && header != null
                && !CudnnVersion.parse(p.versionString()).sameRelease(header)) {
            out.add(Finding.error(FindingId.CUDNN_HEADER_LIBRARY_MISMATCH, "the header says cuDNN " + header
                            + " but the library answers " + p.versionString() + " (cudnnGetVersion " + p.version()
                            + "): a half-finished manual upgrade",
                    Fix.reinstall(REINSTALL + " so headers and libraries come from one release")));
        }
        if (p.cudartVersion() != null && p.cudartVersion() > 0 && toolkitCuda != null) {
            CudaVersion built = CudaVersion.fromCudartNumber(p.cudartVersion());
            if (built.major() != toolkitCuda.major()) {
                out.add(Finding.error(FindingId.CUDNN_CUDART_MISMATCH, "this cuDNN was built for CUDA " + built
                                + " (cudnnGetCudartVersion " + p.cudartVersion() + ") but the toolkit is CUDA " + toolkitCuda,
                        "install the _cuda" + toolkitCuda.major() + " build of the same cuDNN release"));
            }
        }
        return out;
    }

    /** cudnnCreate's answer: no GPU is said plainly, a failure with a GPU gets its cause. */
    private static List<Finding> handle(Host host, ProbeResult p, DriverInfo driver) {
        if (p.handleStatus() == null || p.handleStatus() == 0) {
            return List.of();
        }
        String status = p.handleStatus() + (p.handleStatusName() == null ? "" : " " + p.handleStatusName());
        if (driver == null || !driver.present()) {
            return List.of(Finding.info(FindingId.CUDNN_NO_GPU, (driver != null && driver.nvidiaSmi() != null
                    ? "no usable GPU (nvidia-smi gives no driver version)" : "no NVIDIA driver")
                    + ", so no cuDNN handle can be made (cudnnCreate returned "
                    + status + "); the library itself loads and answers"));
        }
        CudaVersion built = p.cudartVersion() != null && p.cudartVersion() > 0
                ? CudaVersion.fromCudartNumber(p.cudartVersion()) : null;
        String[] cause = DriverFit.handleCause(host, driver, built);
        return List.of(Finding.error(FindingId.CUDNN_HANDLE_FAILED, "cudnnCreate failed with status " + status + " " + cause[0],
                cause[1]));
    }

    /**
     * Why the child died, by signal: SIGBUS or SIGSEGV while the loader was mapping a file is a
     * damaged (cut short) or foreign file, named; SIGABRT is cuDNN's own abort() with its message.
     */
    static Finding crashFinding(ProbeResult p) {
        ProbeResult.Crash c = p.crash();
        String said = p.stderrTail() == null || p.stderrTail().isBlank() ? "" : "; it said: \"" + p.stderrTail() + "\"";
        if (p.timedOut()) {
            return Finding.warn(FindingId.PROBE_NOT_CHECKED, NOT_CHECKED + "the probe process did not answer within "
                            + Prober.TIMEOUT.toSeconds() + " s" + (p.lastCall() == null ? "" : " while calling " + p.lastCall()),
                    Fix.text("a hang inside cuDNN usually means a driver problem: check that nvidia-smi answers, then run verify"
                            + " again; if it hangs again, reinstall the complete archive"));
        }
        if (outsideCudnn(p)) {
            return notStartedOrOutside(p, said);
        }
        String signal = c == null ? null : c.signal();
        if (c != null && c.loading() != null && signal != null && !signal.equals("SIGABRT")) {
            return Finding.error(FindingId.CUDNN_DAMAGED_FILE, "the probe process died of " + signal + " while the loader was mapping "
                            + c.loading() + (c.frame() == null ? "" : " (problematic frame: " + c.frame() + ")")
                            + ": the file is damaged (cut short) or not a library for this machine"
                            + (c.errorLog() == null ? "" : "; the JVM's report is " + c.errorLog()),
                    Fix.reinstall("replace " + c.loading() + ": " + REINSTALL));
        }
        if ("SIGABRT".equals(signal)) {
            return Finding.error(FindingId.CUDNN_LOAD_FAILED, "cuDNN aborted the probe process (SIGABRT, exit status " + p.childExit() + ")"
                            + (p.lastCall() == null ? "" : " while calling " + p.lastCall()) + said,
                    Fix.reinstall("a sub-library is missing or from another release (the message above names it): " + REINSTALL));
        }
        if (signal != null) {
            return Finding.error(FindingId.CUDNN_LOAD_FAILED, "the probe process crashed with " + signal
                            + (c.frame() == null ? "" : " in " + c.frame())
                            + (p.lastCall() == null ? "" : " while calling " + p.lastCall())
                            + (c.errorLog() == null ? "" : "; the JVM's report is " + c.errorLog()),
                    Fix.reinstall("the library crashes when called: " + REINSTALL + "; if it persists, update the NVIDIA driver"));
        }
        return Finding.error(FindingId.CUDNN_LOAD_FAILED, "the probe process ended with exit status " + p.childExit()
                        + (p.lastCall() == null ? "" : " while calling " + p.lastCall()) + said,
                Fix.reinstall("a sub-library is missing or from another release (the message above names it): " + REINSTALL));
    }

    /** How every "could not check" message of the probe begins (verify's summary line repeats it). */
    static final String NOT_CHECKED = "could not check whether cuDNN loads: ";

    /**
     * The child did not get as far as cuDNN: it could not start, or it ended (a crash, a non-zero exit) before it
     * mapped any library or called any cuDNN function, with no cuDNN frame in its crash report and no abort.
     * Such an ending says nothing about cuDNN; any other is cuDNN's problem (an error, as before).
     */
    static boolean outsideCudnn(ProbeResult p) {
        if (p.crashed() && p.childExit() == null) {
            return true; // never started
        }
        ProbeResult.Crash c = p.crash();
        boolean touchedCudnn = p.lastCall() != null || p.loadedPath() != null || p.loadError() != null
                || !p.subLibraries().isEmpty() || p.version() != null || c != null && c.loading() != null;
        boolean cudnnFrame = c != null && c.frame() != null && c.frame().toLowerCase(Locale.ROOT).contains("cudnn");
        boolean abort = c != null && "SIGABRT".equals(c.signal()) || Integer.valueOf(134).equals(p.childExit());
        return p.crashed() && !touchedCudnn && !cudnnFrame && !abort && !Integer.valueOf(0).equals(p.childExit());
    }

    private static Finding notStartedOrOutside(ProbeResult p, String said) {
        ProbeResult.Crash c = p.crash();
        String how = p.childExit() == null ? "the probe process could not start" + (p.stderrTail() == null ? "" : " (" + p.stderrTail() + ")")
                : "the probe process " + (c != null && c.signal() != null ? "crashed with " + c.signal()
                + (c.frame() == null ? "" : " in " + c.frame()) : "ended with exit status " + p.childExit())
                + " before it loaded any cuDNN library" + (c == null || c.errorLog() == null ? "" : "; the JVM's report is " + c.errorLog())
                + (c != null && c.frame() != null ? "" : said);
        return Finding.warn(FindingId.PROBE_NOT_CHECKED, NOT_CHECKED + how,
                Fix.text("the Java runtime that runs the probe failed, not cuDNN: check free memory and the temporary folder,"
                        + " then run verify again (--verbose shows more; --no-probe checks the files only)"));
    }

    private static boolean denied(String loaderError) {
        return loaderError != null && loaderError.toLowerCase(Locale.ROOT).contains("permission denied");
    }

    static boolean sameFile(Host host, String a, String b) {
        return host.sameFile(host.path(a), host.path(b));
    }

    /** The one-line summary finding of a working install. */
    public static Finding ok(ProbeResult p, InstalledCudnn c) {
        String handle = p.handleStatus() == null ? "no handle tried"
                : p.handleStatus() == 0 ? "cudnnCreate succeeded" : "cudnnCreate " + p.handleStatus()
                + (p.handleStatusName() == null ? "" : " " + p.handleStatusName());
        return Finding.of(FindingId.CUDNN_OK, Severity.INFO, "cuDNN " + p.versionString() + " (" + p.version() + ") in "
                + c.runtimeDir() + ", loaded from " + p.loadedPath()
                + (p.cudartVersionString() == null ? "" : ", built for CUDA " + p.cudartVersionString()) + ", " + handle, "");
    }

    /**
     * The check cudnn install runs after its commit: load the installed library in a child and
     * confirm it answers with the archive's version. Skipped where it cannot run (another OS's
     * archive, a target not on this machine's file system).
     */
    public static PostInstallCheck forInstall(Host host, Prober runner) {
        return (target, report) -> afterInstall(host, runner, target, report);
    }

    static List<Finding> afterInstall(Host host, Prober runner, InstallTarget target, ArchiveReport report) {
        ArchiveName n = report.name();
        if (n.os() != host.os() || !PlatformFiles.openableByName(target.root())) {
            return List.of(Finding.info(FindingId.INSTALL_PROBE_SKIPPED, "the installed library was not loaded: "
                    + (n.os() != host.os() ? "it is a " + n.os().label() + " build" : "the target is not on this machine's disks")));
        }
        Path dir = target.runtimeDir(n);
        int major = n.major();
        Path main = dir.resolve(host.windows() ? CudnnComponents.windowsDll("cudnn", major) : CudnnComponents.linuxSoname("cudnn", major));
        List<Path> subs = CudnnComponents.subLibraries(major).stream()
                .map(b -> dir.resolve(host.windows() ? CudnnComponents.windowsDll(b, major) : CudnnComponents.linuxSoname(b, major)))
                .toList();
        ProbeResult p = runner.probe(main, null, subs);
        List<Finding> out = new ArrayList<>();
        for (Finding f : findings(host, p, n.version().release(), null, false)) {
            boolean blocking = f.is(FindingId.CUDNN_LOAD_FAILED) || f.is(FindingId.CUDNN_HEADER_LIBRARY_MISMATCH);
            out.add(blocking || !f.isError() ? f : new Finding(f.id(), Severity.WARN, f.message(), f.remedy()));
        }
        if (p.versionString() != null && !Finding.anyError(out)) {
            out.add(Finding.info(FindingId.INSTALL_PROBE_OK, "the installed library answers cudnnGetVersion = " + p.version()
                    + " (cuDNN " + p.versionString() + ")"));
        }
        return out;
    }
}
