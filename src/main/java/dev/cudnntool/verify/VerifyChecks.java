package dev.cudnntool.verify;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.CopyFinder;
import dev.cudnntool.diagnosis.CudnnScan;
import dev.cudnntool.diagnosis.Diagnosis;
import dev.cudnntool.diagnosis.InstalledCudnn;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.diagnosis.WindowsInstallerLayout;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.FolderListing;
import dev.cudnntool.host.GpuSupport;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.PlatformCheck;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.loader.Preload;
import dev.cudnntool.host.owner.WslLinuxDriver;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.Journal;
import dev.cudnntool.target.JournalRunner;
import dev.cudnntool.verify.machine.DriverFit;
import dev.cudnntool.verify.machine.StaleLoaderCache;
import dev.cudnntool.verify.machine.TwoCudarts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * verify's checks, each one judgement of a {@link Diagnosis}, in the order their findings are told.
 * {@link #TARGET}: the host, the target and the cuDNN in it; {@link #MACHINE}: the rest of the machine
 * (other copies, installers, environments). verify --all adds each copy's own file checks.
 */
final class VerifyChecks {
    static final List<Check> TARGET = List.of(VerifyChecks::platform, VerifyChecks::driver, VerifyChecks::target,
            VerifyChecks::unfinished, VerifyChecks::missing, VerifyChecks::damaged, VerifyChecks::files, VerifyChecks::headers,
            VerifyChecks::searchPath, VerifyChecks::byName, VerifyChecks::probe, VerifyChecks::driverFit, VerifyChecks::dependencies,
            VerifyChecks::preload, VerifyChecks::gpu, VerifyChecks::expected);

    static final List<Check> MACHINE = List.of(d -> CopiesFindings.findings(d.host(), d.copies()),
            d -> WindowsInstallerLayout.findings(d.host(), d.toolkit()), d -> TwoCudarts.findings(d.host(), d.copies(), d.environments()),
            d -> LoaderPath.environmentFindings(d.host()), StaleLoaderCache::copies,
            d -> d.cudnn() == null ? Preload.findings(d.host(), null, 0) : List.of(), // with a copy, said by preload
            VerifyChecks::unreadRecords, VerifyChecks::scanBound, VerifyChecks::skippedFolders);

    private VerifyChecks() {
    }

    /** Records the owners could not be read from: which package owns a copy was not checked (verify's exit 9). */
    static List<Finding> unreadRecords(Diagnosis d) {
        List<Path> unread = d.unreadRecords() == null ? List.of() : d.unreadRecords();
        if (unread.isEmpty()) {
            return List.of();
        }
        int shown = Math.min(unread.size(), 5);
        String named = String.join(", ", unread.subList(0, shown).stream().map(Path::toString).toList())
                + (unread.size() > shown ? " and " + (unread.size() - shown) + " more" : "");
        return List.of(Finding.warn(FindingId.OWNER_UNREADABLE, "could not check which package owns the cuDNN copies found: "
                        + unread.size() + " package record" + (unread.size() == 1 ? "" : "s") + " could not be read (" + named + ")",
                Fix.text("run verify as a user who can read " + (unread.size() == 1 ? "it" : "them")
                        + ", or make the record readable (its package manager can repair it)")));
    }

    /** #32 item 7: a folder whose cuDNN names were not all read; the answer may miss what is in the rest. */
    static List<Finding> scanBound(Diagnosis d) {
        List<Finding> out = new ArrayList<>();
        for (FolderListing.Cut c : d.scanCuts()) {
            out.add(Finding.warn(FindingId.SCAN_INCOMPLETE, c.folder() + " holds more cuDNN names than the tool reads: "
                    + c.read() + " names were read, the rest were not looked at, so this answer may be incomplete",
                    Fix.text("remove the stray libcudnn names from " + c.folder())));
        }
        return out;
    }

    /** #32 item 4: a discovered folder that is not the user's own was not searched; one line each. */
    static List<Finding> skippedFolders(Diagnosis d) {
        List<Finding> out = new ArrayList<>();
        for (CopyFinder.Skipped s : d.skipped()) {
            out.add(Finding.warn(FindingId.COPY_SKIPPED_UNTRUSTED, s.folder() + " was not searched: " + s.why()
                    + " (a folder the tool found by itself counts only when it is yours or root's and not writable by others)",
                    Fix.text("if it is yours to use, name it (VIRTUAL_ENV or CONDA_PREFIX); else remove it")));
        }
        return out;
    }

    /** The files are safe to load: no damaged image, no other CPU's build (the loader would die or skip it). */
    static boolean loadable(Host host, InstalledCudnn c, Toolkit toolkit) {
        return FileChecks.damaged(host, c).isEmpty() && FileChecks.wrongArch(host, c, toolkit != null && toolkit.version() != null
                ? Integer.valueOf(toolkit.version().major()) : null).isEmpty();
    }

    static List<Finding> platform(Diagnosis d) {
        return PlatformCheck.check(d.platform(), null);
    }

    static List<Finding> driver(Diagnosis d) {
        List<Finding> out = new ArrayList<>(d.driver().findings());
        out.addAll(DriverFit.driverLibrary(d.host(), d.driver().driver()));
        out.addAll(DriverFit.visibility(d.host(), d.driver().driver()));
        out.addAll(WslLinuxDriver.findings(d.host(), d.platform()));
        return out;
    }

    static List<Finding> target(Diagnosis d) {
        List<Finding> out = new ArrayList<>();
        if (d.question().prefix() != null) {
            if (d.target() == null) {
                out.add(Finding.error(FindingId.CUDNN_MISSING, "--prefix " + d.question().prefix() + " is not a folder",
                        Fix.tool("pass the folder cudnn install --prefix installed into")));
            }
            return out;
        }
        for (Finding f : d.located().findings()) {
            // Without anything asserted, "no toolkit" is the plain answer, not a failure.
            out.add(f.is(FindingId.TOOLKIT_MISSING) && !d.question().asserted()
                    ? new Finding(f.id(), Severity.INFO, f.message(), f.remedy()) : f);
        }
        if (d.toolkit() != null) {
            out.addAll(ToolkitLocator.checkAgainst(d.toolkit(), null));
        }
        return out;
    }

    static List<Finding> unfinished(Diagnosis d) {
        InstallTarget target = d.target();
        // Looked at without touching JournalRunner unless there is a journal: its ObjectMapper costs verify ~50 ms to set up.
        if (target == null || !Files.exists(target.state().journal(), LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        try {
            Journal j = JournalRunner.read(target.stateDir());
            return j == null ? List.of() : List.of(Finding.error(FindingId.INSTALL_UNFINISHED, "an interrupted " + j.kind() + " ("
                            + j.id() + ", started " + j.startedAt() + ") is pending in " + target.root() + "; its files may be half in place",
                    Fix.tool("run cudnn rollback" + (target.kind() == InstallTarget.Kind.PREFIX ? " --prefix " + target.root() : "")
                            + " to complete it")));
        } catch (IOException e) {
            return List.of(Finding.error(FindingId.INSTALL_UNFINISHED, "the journal in " + target.stateDir() + " cannot be read: "
                    + e.getMessage(), Fix.tool("run cudnn rollback to repair it")));
        }
    }

    /** No cuDNN in the target: a folder the user cannot read, else "none here". */
    static List<Finding> missing(Diagnosis d) {
        if (d.target() == null || d.cudnn() != null) {
            return List.of();
        }
        for (Path dir : d.runtimeDirs()) {
            Optional<Path> denied = CudnnScan.deniedFolder(dir);
            if (denied.isPresent()) {
                return List.of(FileChecks.unreadableFolder(d.host(), denied.get(), dir));
            }
        }
        Path prefix = d.question().prefix();
        CudnnVersion expect = d.question().expect();
        // #31 item 7: the release the user expects is the one to install, fetched by the tool itself.
        String source = expect != null ? "--release " + expect.releaseString() : "--archive <cudnn archive>";
        return List.of(Finding.of(FindingId.CUDNN_MISSING, expect != null ? Severity.ERROR : Severity.INFO,
                "no cuDNN runtime library in " + String.join(" or ", d.runtimeDirs().stream().map(Path::toString).toList()),
                Fix.tool("install it with: cudnn install " + source + (prefix != null ? " --prefix " + prefix : ""))));
    }

    static List<Finding> damaged(Diagnosis d) {
        if (d.cudnn() == null) {
            return List.of();
        }
        List<Finding> out = new ArrayList<>(FileChecks.damaged(d.host(), d.cudnn()));
        out.addAll(FileChecks.wrongArch(d.host(), d.cudnn(), toolkitMajor(d)));
        return out;
    }

    static List<Finding> files(Diagnosis d) {
        return d.cudnn() == null ? List.of() : InstallFiles.findings(d.host(), d.cudnn());
    }

    static List<Finding> headers(Diagnosis d) {
        if (d.cudnn() == null) {
            return List.of();
        }
        List<Finding> out = new ArrayList<>(HeaderFiles.findings(d.host(), d.headerDir(), d.cudnn().major()));
        out.addAll(HeaderFiles.alternatives(d.host(), d.headerDir(), d.cudnn()));
        return out;
    }

    static List<Finding> searchPath(Diagnosis d) {
        // #33 item 3: over a stale cache of a hand-made folder, the copy found first is fixed by sudo ldconfig, not its removal
        return d.cudnn() == null ? List.of() : StaleLoaderCache.target(d, d.search().findings());
    }

    static List<Finding> byName(Diagnosis d) {
        if (d.cudnn() == null) {
            return List.of();
        }
        List<Finding> byName = ByNameCheck.findings(d.host(), d.probe(), d.cudnn(), d.bareName());
        if (!d.host().windows() && !d.cudnn().mainLibrary().getFileName().toString().equals(d.bareName())) {
            // said better, with the right fix, by cudnn.no-soname-link
            return byName.stream().filter(f -> !f.is(FindingId.CUDNN_NOT_FOUND_BY_NAME)).toList();
        }
        if (!d.host().windows() && LinkChecks.loop(d.cudnn().runtimeDir().resolve(d.bareName())).isPresent()) {
            // #33 item 6: a soname link that loops is said, with the chain and its fix, by cudnn.dangling-link
            return byName.stream().filter(f -> !f.is(FindingId.CUDNN_NOT_FOUND_BY_NAME)).toList();
        }
        return byName;
    }

    static List<Finding> probe(Diagnosis d) {
        ProbeResult p = d.probe();
        if (d.cudnn() == null || p == null) {
            return List.of();
        }
        List<Finding> out = new ArrayList<>();
        for (Finding f : ProbeCheck.findings(d.host(), p, d.cudnn().headerVersion(), d.toolkit() == null ? null : d.toolkit().version(),
                d.driver().driver())) {
            out.add(f.is(FindingId.CUDNN_SHADOWED) && p.loadedByNamePath() != null && p.loadedPath() != null
                    ? f.withFix(Fix.text(ByNameCheck.shadowedFix(d.host(), d.host().path(p.loadedByNamePath()),
                    d.host().path(p.loadedPath()).getParent()))) : f);
        }
        return out;
    }

    static List<Finding> driverFit(Diagnosis d) {
        if (d.cudnn() == null) {
            return List.of();
        }
        ProbeResult p = d.probe();
        return DriverFit.findings(d.host(), d.driver().driver(), built(d), p != null && p.versionString() != null ? p.versionString()
                : d.cudnn().headerVersion() == null ? null : d.cudnn().headerVersion().toString());
    }

    static List<Finding> dependencies(Diagnosis d) {
        if (d.cudnn() == null) {
            return List.of();
        }
        CudaVersion built = built(d);
        return DependencyCheck.findings(d.host(), d.cudnn(), built != null ? Integer.valueOf(built.major()) : toolkitMajor(d));
    }

    static List<Finding> preload(Diagnosis d) {
        return d.cudnn() == null ? List.of() : Preload.findings(d.host(), d.cudnn().mainLibrary(), d.cudnn().major());
    }

    static List<Finding> gpu(Diagnosis d) {
        if (d.cudnn() == null) {
            return List.of();
        }
        CudnnVersion actual = actual(d);
        CudaVersion built = built(d);
        return GpuSupport.findings(d.host(), d.driver().driver(), actual == null ? null : actual.releaseString(),
                built == null ? null : Integer.valueOf(built.major()));
    }

    static List<Finding> expected(Diagnosis d) {
        CudnnVersion expect = d.question().expect();
        if (d.cudnn() == null || expect == null) {
            return List.of();
        }
        CudnnVersion actual = actual(d);
        if (actual != null && actual.sameRelease(expect)) {
            return List.of();
        }
        return List.of(Finding.error(FindingId.CUDNN_EXPECT_MISMATCH, "expected cuDNN " + expect.releaseString() + " but "
                        + (actual == null ? "the installed version cannot be read" : "cuDNN " + actual + " is installed")
                        + " in " + d.cudnn().runtimeDir(),
                Fix.reinstall("install cuDNN " + expect.releaseString() + " with cudnn install, or correct --expect")));
    }

    /** {@code cudnn.ok} when nothing of the target is an error, said after every check ran. */
    static List<Finding> ok(Diagnosis d, List<Finding> findings) {
        InstalledCudnn c = d.cudnn();
        if (c == null || Finding.anyError(findings)) {
            return List.of();
        }
        ProbeResult p = d.probe();
        CudnnVersion actual = actual(d);
        return List.of(p != null && p.versionString() != null ? ProbeCheck.ok(p, c)
                : Finding.info(FindingId.CUDNN_OK, "cuDNN " + (actual == null ? c.major() : actual) + " in " + c.runtimeDir()
                + (p == null ? " (not loaded: --no-probe)" : p.incomplete() ? " (files checked; whether it loads could not be checked)" : "")));
    }

    private static CudnnVersion actual(Diagnosis d) {
        ProbeResult p = d.probe();
        return p != null && p.versionString() != null ? CudnnVersion.parse(p.versionString()) : d.cudnn().headerVersion();
    }

    private static CudaVersion built(Diagnosis d) {
        ProbeResult p = d.probe();
        return p != null && p.cudartVersion() != null && p.cudartVersion() > 0 ? CudaVersion.fromCudartNumber(p.cudartVersion()) : null;
    }

    private static Integer toolkitMajor(Diagnosis d) {
        return d.toolkit() != null && d.toolkit().version() != null ? Integer.valueOf(d.toolkit().version().major()) : null;
    }
}
