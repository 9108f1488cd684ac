package dev.cudnntool.verify;

import dev.cudnntool.diagnosis.WindowsInstallerLayout;

import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.diagnosis.CudnnScan;
import dev.cudnntool.diagnosis.CopyFinder;
import dev.cudnntool.diagnosis.InstalledCudnn;
import dev.cudnntool.diagnosis.CudnnCopy;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.DriverCheck;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.owner.Owner;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.loader.PeFile;
import dev.cudnntool.host.loader.Preload;
import dev.cudnntool.host.Platform;
import dev.cudnntool.host.PlatformCheck;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.Journal;
import dev.cudnntool.target.JournalRunner;
import dev.cudnntool.diagnosis.Prober;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Diagnoses an existing install: host, driver, toolkit, the cuDNN files, the search path, and
 * finally the library itself through the probe. Every finding has a cause and a fix.
 */
public final class VerifyService {
    private final Host host;
    private final Prober probe;

    /** @param probe null to skip loading the library (--no-probe) */
    public VerifyService(Host host, Prober probe) {
        this.host = host;
        this.probe = probe;
    }

    public VerifyReport verify(Path cudaPath, Path prefix, CudnnVersion expect) {
        return verify(cudaPath, prefix, expect, false);
    }

    /** @param all diagnose every cuDNN copy found, not only the target (verify --all) */
    public VerifyReport verify(Path cudaPath, Path prefix, CudnnVersion expect, boolean all) {
        return verify(cudaPath, prefix, expect, all, null);
    }

    /**
     * @param all          diagnose every cuDNN copy found and the frameworks of every environment (verify --all)
     * @param forFramework {@code --for}: only this framework's report (exit 2 for one this tool does not know), or null
     */
    public VerifyReport verify(Path cudaPath, Path prefix, CudnnVersion expect, boolean all, String forFramework) {
        Frameworks.Kind only = forFramework == null ? null : Frameworks.named(forFramework);
        VerifyReport r = verifyTarget(cudaPath, prefix, expect);
        Path runtime = r.cudnn() != null ? r.cudnn().runtimeDir() : null;
        List<CudnnCopy> copies = r.copies() != null && !r.copies().isEmpty() ? r.copies() // found while the probe ran
                : CopyFinder.find(host, runtime, r.toolkitsFound() == null ? List.of() : r.toolkitsFound());
        copies = CopyOwners.attach(host, copies);
        // A target a package manager answers for (verify --prefix /usr, a conda env's toolkit) is fixed with its command.
        Owner targetOwner = copies.stream().filter(c -> c.origin() == CudnnCopy.Origin.TARGET).map(CudnnCopy::owner).findFirst()
                .orElse(Owner.NONE);
        List<Finding> targetFindings = CopyOwners.ownersFixes(r.findings(), targetOwner);
        List<Finding> findings = new ArrayList<>(targetFindings);
        findings.addAll(CopiesFindings.findings(host, copies));
        findings.addAll(WindowsInstallerLayout.findings(host, r.toolkit()));
        findings.addAll(TwoCudarts.findings(host, copies));
        findings.addAll(LoaderPath.environmentFindings(host));
        if (r.cudnn() == null) {
            findings.addAll(Preload.findings(host, null, 0)); // with a copy verified, said in verifyTarget
        }
        List<Path> sites = all ? CopyFinder.sitePackages(host) : CopyFinder.activeSitePackages(host);
        List<FrameworkReport> frameworks = Frameworks.analyse(host, sites, only, copies, r.driver(), this::diagnose);
        List<Finding> frameworkFindings = new ArrayList<>(Frameworks.findings(frameworks));
        if (only != null && frameworks.isEmpty()) {
            frameworkFindings.add(Finding.error(FindingId.FRAMEWORK_NOT_FOUND, only.name() + " is not installed in "
                            + (sites.isEmpty() ? "any Python environment found" : String.join(", ", sites.stream().map(Path::toString).toList())),
                    all ? "install it, or activate the environment that has it (VIRTUAL_ENV, CONDA_PREFIX) and run verify there"
                            : "activate the environment that has it, or add --all to search every environment found"));
        }
        findings.addAll(frameworkFindings);
        boolean ok = r.ok() && !Finding.anyError(frameworkFindings);
        if (all) {
            List<CudnnCopy> diagnosed = new ArrayList<>();
            for (CudnnCopy copy : copies) {
                List<Finding> f = copy.origin() == CudnnCopy.Origin.TARGET ? targetFindings
                        : CopyOwners.ownersFixes(diagnose(copy), copy.owner());
                ok &= !Finding.anyError(f);
                diagnosed.add(copy.withFindings(f));
            }
            copies = diagnosed;
        }
        return new VerifyReport(r.platform(), r.driver(), r.toolkit(), r.toolkitsFound(), r.target(), r.cudnn(), r.probe(),
                List.copyOf(findings), ok, copies, List.copyOf(frameworks));
    }

    /** The CUDA major a copy is built for, when its owner says (NVIDIA's wheel nvidia-cudnn-cuNN); null when unknown. */
    static Integer cudaMajorOf(CudnnCopy copy) {
        var o = copy.owner();
        if (o != null && o.kind() == dev.cudnntool.host.owner.Owner.Kind.PIP && o.name() != null && o.name().matches("nvidia-cudnn-cu\\d{2}")) {
            return Integer.valueOf(o.name().substring("nvidia-cudnn-cu".length()));
        }
        return null;
    }

    /** verify --all for a copy other than the target: its files, read-only (nothing of it is loaded). */
    List<Finding> diagnose(CudnnCopy copy) {
        Path lib = host.path(copy.path());
        Optional<InstalledCudnn> c = CudnnScan.scan(host, List.of(lib.getParent()),
                copy.includeDir() == null ? lib.getParent().resolve("include") : copy.includeDir(), null, copy.major());
        List<Finding> out = new ArrayList<>();
        if (c.isEmpty()) {
            return out;
        }
        out.addAll(FileChecks.damaged(host, c.get()));
        out.addAll(FileChecks.wrongArch(host, c.get(), null));
        if (c.get().headerFile() != null || copy.includeDir() != null && Files.isDirectory(copy.includeDir())) {
            out.addAll(HeaderFiles.findings(host, copy.includeDir() == null ? lib.getParent().resolve("include") : copy.includeDir(),
                    c.get().major()));
        }
        InstalledCudnn found = c.get();
        if (found.headerFile() == null) {
            // pip and conda copies keep headers elsewhere or none: missing headers are not this copy's fault
            found = new InstalledCudnn(found.major(), found.runtimeDir(), found.mainLibrary(), found.subLibraries(),
                    found.missing().stream().filter(m -> !m.startsWith("include/")).toList(), null, null,
                    found.fileVersions(), found.otherMajors());
        }
        files(found, out);
        out.addAll(DependencyCheck.findings(host, found, cudaMajorOf(copy)));
        if (!Finding.anyError(out)) {
            out.add(Finding.info(FindingId.CUDNN_OK, "cuDNN " + (copy.version() == null ? copy.major() : copy.version()) + " in "
                    + found.runtimeDir() + " (files checked, not loaded)"));
        }
        return out;
    }

    private VerifyReport verifyTarget(Path cudaPath, Path prefix, CudnnVersion expect) {
        List<Finding> findings = new ArrayList<>();
        Platform platform = Platform.detect(host);
        findings.addAll(PlatformCheck.check(platform, null));
        boolean asserted = expect != null || cudaPath != null || prefix != null;
        // Where cuDNN is comes first (cheap); the probe child then starts at once and runs while
        // this process asks nvidia-smi and checks the files: the two JVMs overlap.
        Toolkit toolkit = null;
        InstallTarget target = null;
        List<Finding> targetFindings = new ArrayList<>();
        List<Toolkit> found = List.of();
        if (prefix != null) {
            target = InstallTarget.prefix(prefix, host.os());
            if (!Files.isDirectory(prefix)) {
                targetFindings.add(Finding.error(FindingId.CUDNN_MISSING, "--prefix " + prefix + " is not a folder",
                        "pass the folder cudnn-install --prefix installed into"));
                target = null;
            }
        } else {
            ToolkitLocator.Selection sel = ToolkitLocator.locate(host, cudaPath, null);
            toolkit = sel.chosen();
            found = sel.found();
            for (Finding f : sel.findings()) {
                // Without anything asserted, "no toolkit" is the plain answer, not a failure.
                targetFindings.add(f.is(FindingId.TOOLKIT_MISSING) && !asserted
                        ? new Finding(f.id(), Severity.INFO, f.message(), f.fix()) : f);
            }
            if (toolkit != null) {
                targetFindings.addAll(ToolkitLocator.checkAgainst(toolkit, null));
                target = InstallTarget.toolkit(toolkit, host.os());
            }
        }
        Optional<InstalledCudnn> scanned = Optional.empty();
        Path headerDir = null;
        List<Path> runtimeDirs = new ArrayList<>();
        if (target != null) {
            Path includeDir = target.root().resolve("include");
            Path importDir = null;
            if (target.kind() == InstallTarget.Kind.PREFIX) {
                // each OS's own folders only: a Linux prefix has no bin/x64 to name in messages
                for (String d : host.windows() ? List.of("bin/x64", "bin") : List.of("lib", "lib64")) {
                    runtimeDirs.add(target.root().resolve(d));
                }
                Path multiarch = target.root().resolve("lib").resolve(host.arch() == dev.cudnntool.Arch.X86_64 ? "x86_64-linux-gnu"
                        : "aarch64-linux-gnu");
                if (!host.windows() && Files.isDirectory(multiarch)) {
                    runtimeDirs.add(multiarch); // --prefix /usr on Debian/Ubuntu: NVIDIA's packages put cuDNN there
                }
                importDir = Files.isDirectory(target.root().resolve("lib").resolve("x64"))
                        ? target.root().resolve("lib").resolve("x64") : target.root().resolve("lib");
            } else if (host.windows()) {
                runtimeDirs.add(target.root().resolve("bin"));
                importDir = target.root().resolve("lib").resolve("x64");
            } else {
                runtimeDirs.add(target.linuxLibDir());
                // cuDNN copied into targets/<cpu>-linux/lib while lib64 is a folder of its own is found there too
                for (Path d : CopyFinder.targetLibDirs(host, target.root())) {
                    if (runtimeDirs.stream().noneMatch(r -> sameFolder(host, r, d))) {
                        runtimeDirs.add(d);
                        Path inc = d.getParent().resolve("include");
                        if (!Files.isDirectory(includeDir) || Files.isDirectory(inc) && !sameFolder(host, inc, includeDir)
                                && !Files.exists(includeDir.resolve("cudnn_version.h")) && Files.exists(inc.resolve("cudnn_version.h"))) {
                            includeDir = inc;
                        }
                    }
                }
            }
            scanned = CudnnScan.scan(host, runtimeDirs, includeDir, importDir, expect == null ? 0 : expect.major());
            headerDir = includeDir;
        }
        CompletableFuture<ProbeResult> probing = null;
        // A damaged image would kill the probe inside the loader: caught from its headers first.
        // So would another CPU's build: the loader skips it as if it were absent (cudnn.wrong-arch).
        List<Finding> damaged = new ArrayList<>();
        if (scanned.isPresent()) {
            damaged.addAll(FileChecks.damaged(host, scanned.get()));
            damaged.addAll(FileChecks.wrongArch(host, scanned.get(), toolkit != null && toolkit.version() != null
                    ? Integer.valueOf(toolkit.version().major()) : null));
        }
        String bareName = scanned.isEmpty() ? null : host.windows() ? CudnnComponents.windowsDll("cudnn", scanned.get().major())
                : CudnnComponents.linuxSoname("cudnn", scanned.get().major());
        if (scanned.isPresent() && probe != null && damaged.isEmpty()) {
            InstalledCudnn c = scanned.get();
            probing = CompletableFuture.supplyAsync(() -> probe.probe(c.mainLibrary(), bareName, c.subLibraries()));
        }
        DriverCheck.Result driver = DriverCheck.check(host, platform, null);
        findings.addAll(driver.findings());
        findings.addAll(DriverFit.driverLibrary(host, driver.driver()));
        findings.addAll(DriverFit.visibility(host, driver.driver()));
        findings.addAll(targetFindings);
        if (target == null) {
            return report(platform, driver, toolkit, found, null, null, null, findings);
        }
        unfinished(target, findings);
        if (scanned.isEmpty()) {
            for (Path dir : runtimeDirs) {
                Optional<Path> denied = CudnnScan.deniedFolder(dir);
                if (denied.isPresent()) {
                    findings.add(FileChecks.unreadableFolder(host, denied.get(), dir));
                    return report(platform, driver, toolkit, found, target, null, null, findings);
                }
            }
            findings.add(Finding.of(FindingId.CUDNN_MISSING, expect != null ? Severity.ERROR : Severity.INFO,
                    "no cuDNN runtime library in " + String.join(" or ", runtimeDirs.stream().map(Path::toString).toList()),
                    "install it with: cudnn-install --archive <cudnn archive>" + (prefix != null ? " --prefix " + prefix : "")));
            return report(platform, driver, toolkit, found, target, null, null, findings);
        }
        InstalledCudnn c = scanned.get();
        findings.addAll(damaged);
        files(c, findings);
        findings.addAll(HeaderFiles.findings(host, headerDir, c.major()));
        LibrarySearchCheck.Result search = LibrarySearchCheck.check(host, c.runtimeDir(), c.major(), c.headerVersion());
        // While the probe child loads cuDNN (tens of ms), do here what does not need its answer.
        List<CudnnCopy> copies = CopyFinder.find(host, c.runtimeDir(), found == null ? List.of() : found);
        List<String> needZ = DependencyCheck.needingZlib(host, c);
        if (probing != null) {
            probe.beforeJoin();
        }
        ProbeResult p = probing == null ? null : probing.join();
        List<Finding> byName = ByNameCheck.findings(host, p, c, bareName);
        if (!host.windows() && !c.mainLibrary().getFileName().toString().equals(bareName)) {
            // said better, with the right fix, by cudnn.no-soname-link
            byName = byName.stream().filter(f -> !f.is(FindingId.CUDNN_NOT_FOUND_BY_NAME)).toList();
        }
        for (Finding f : search.findings()) {
            // the probe's by-name failure says the same as the model's warning, with the loader's own words
            if (!(f.is(FindingId.SEARCH_PATH_MISSING) && byName.stream().anyMatch(b -> b.is(FindingId.CUDNN_NOT_FOUND_BY_NAME)))) {
                findings.add(f);
            }
        }
        findings.addAll(byName);
        if (p != null) {
            for (Finding f : ProbeCheck.findings(host, p, c.headerVersion(), toolkit == null ? null : toolkit.version(),
                    driver.driver())) {
                if (f.is(FindingId.CUDNN_HEADER_LIBRARY_MISMATCH) && TwoMajors.applies(c)) {
                    continue; // said better by cudnn.two-majors
                }
                findings.add(f.is(FindingId.CUDNN_SHADOWED) && p.loadedByNamePath() != null && p.loadedPath() != null
                        ? new Finding(f.id(), f.severity(), f.message(), ByNameCheck.shadowedFix(host,
                        host.path(p.loadedByNamePath()), host.path(p.loadedPath()).getParent())) : f);
            }
        }
        CudaVersion built = p != null && p.cudartVersion() != null && p.cudartVersion() > 0
                ? CudaVersion.fromCudartNumber(p.cudartVersion()) : null;
        findings.addAll(DriverFit.findings(host, driver.driver(), built, p != null && p.versionString() != null ? p.versionString()
                : c.headerVersion() == null ? null : c.headerVersion().toString()));
        findings.addAll(DependencyCheck.findings(host, c, needZ, built != null ? Integer.valueOf(built.major())
                : toolkit != null && toolkit.version() != null ? Integer.valueOf(toolkit.version().major()) : null));
        findings.addAll(Preload.findings(host, c.mainLibrary(), c.major()));
        CudnnVersion actual = p != null && p.versionString() != null ? CudnnVersion.parse(p.versionString()) : c.headerVersion();
        findings.addAll(dev.cudnntool.host.GpuSupport.findings(host, driver.driver(), actual == null ? null : actual.releaseString(),
                built == null ? null : Integer.valueOf(built.major())));
        if (expect != null) {
            if (actual == null || !actual.sameRelease(expect)) {
                findings.add(Finding.error(FindingId.CUDNN_EXPECT_MISMATCH, "expected cuDNN " + expect.releaseString() + " but "
                                + (actual == null ? "the installed version cannot be read" : "cuDNN " + actual + " is installed")
                                + " in " + c.runtimeDir(),
                        "install cuDNN " + expect.releaseString() + " with cudnn-install, or correct --expect"));
            }
        }
        if (!Finding.anyError(findings)) {
            findings.add(p != null && p.versionString() != null ? ProbeCheck.ok(p, c)
                    : Finding.info(FindingId.CUDNN_OK, "cuDNN " + (actual == null ? c.major() : actual) + " in " + c.runtimeDir()
                    + (p == null ? " (not loaded: --no-probe)" : "")));
        }
        VerifyReport done = report(platform, driver, toolkit, found, target, c, p, findings);
        return new VerifyReport(done.platform(), done.driver(), done.toolkit(), done.toolkitsFound(), done.target(), done.cudnn(),
                done.probe(), done.findings(), done.ok(), copies);
    }

    private static boolean sameFolder(Host host, Path a, Path b) {
        try {
            return host.samePath(a.toRealPath(), b.toRealPath());
        } catch (IOException | RuntimeException e) {
            return host.samePath(a, b);
        }
    }

    private VerifyReport report(Platform platform, DriverCheck.Result driver, Toolkit toolkit, List<Toolkit> found,
                                InstallTarget target,
                                InstalledCudnn c, ProbeResult p, List<Finding> findings) {
        return new VerifyReport(platform, driver.driver(), toolkit, found, target, c, p, List.copyOf(findings),
                !Finding.anyError(findings), List.of());
    }

    private static void unfinished(InstallTarget target, List<Finding> findings) {
        // Looked at without touching JournalRunner: its ObjectMapper costs verify ~50 ms to set up.
        if (!java.nio.file.Files.exists(target.state().journal(), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Journal j = JournalRunner.read(target.stateDir());
            if (j != null) {
                findings.add(Finding.error(FindingId.INSTALL_UNFINISHED, "an interrupted " + j.kind() + " (" + j.id() + ", started "
                                + j.startedAt() + ") is pending in " + target.root() + "; its files may be half in place",
                        "run cudnn-rollback" + (target.kind() == InstallTarget.Kind.PREFIX ? " --prefix " + target.root() : "")
                                + " to complete it"));
            }
        } catch (IOException e) {
            findings.add(Finding.error(FindingId.INSTALL_UNFINISHED, "the journal in " + target.stateDir() + " cannot be read: "
                    + e.getMessage(), "run cudnn-rollback to repair it"));
        }
    }

    /** Completeness, mixed releases, Windows image checks. */
    private void files(InstalledCudnn c, List<Finding> findings) {
        java.util.Map<String, Path> dangling = FileChecks.danglingLinks(c);
        List<String> missing = c.missing().stream().filter(m -> !dangling.containsKey(m)).toList();
        if (!missing.isEmpty()) {
            findings.add(Finding.error(FindingId.CUDNN_INCOMPLETE, "cuDNN " + c.major() + " in " + c.runtimeDir() + " lacks "
                            + String.join(", ", missing),
                    "reinstall the complete archive with cudnn-install (a manual copy often misses "
                            + (host.windows() ? "lib\\x64 or sub-libraries)" : "sub-libraries or their links)")));
        }
        findings.addAll(FileChecks.dangling(host, c, dangling));
        findings.addAll(FileChecks.noSonameLinks(host, c));
        findings.addAll(LinkChecks.devLinks(host, c));
        findings.addAll(FileChecks.unreadable(host, c));
        findings.addAll(TwoMajors.findings(host, c));
        if (c.headerFile() != null) {
            findings.addAll(FileChecks.exportsAgainstHeaders(host, c, host.path(c.headerFile()).getParent()));
        }
        Set<String> releases = new HashSet<>();
        for (String v : c.fileVersions().values()) {
            releases.add(release(v));
        }
        if (releases.size() > 1) {
            findings.add(Finding.error(FindingId.CUDNN_MIXED_VERSIONS, "library files from different cuDNN releases side by side in "
                            + c.runtimeDir() + ": " + c.fileVersions(),
                    "reinstall one complete archive with cudnn-install; it moves every old cuDNN " + c.major() + " file out"));
        }
        if (!c.otherMajors().isEmpty()) {
            findings.add(Finding.info(FindingId.CUDNN_OTHER_MAJOR, "cuDNN " + c.otherMajors() + " also present in " + c.runtimeDir()
                    + " (for programs built against it); checked cuDNN " + c.major()));
        }
        if (host.windows()) {
            peChecks(c, findings);
        }
    }

    private void peChecks(InstalledCudnn c, List<Finding> findings) {
        List<Path> images = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(c.runtimeDir(), "*.{dll,DLL}")) {
            for (Path p : ds) {
                String n = p.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
                if (n.startsWith("cudnn") || n.equals("zlibwapi.dll")) {
                    images.add(p);
                }
            }
        } catch (IOException ignored) {
            return;
        }
        images.sort(null);
        for (Path p : images) {
            try {
                PeFile.Info info = PeFile.read(p);
                if (!info.x64() && !(info.machine() == PeFile.MACHINE_ARM64 && FileChecks.libraries(c).contains(p))) {
                    findings.add(Finding.error(FindingId.CUDNN_DLL_ARCH, p + " is a " + info.machineName()
                            + " image; cuDNN needs x64 DLLs throughout", "replace it with the x64 build"));
                }
            } catch (IOException e) {
                findings.add(Finding.error(FindingId.CUDNN_DLL_ARCH, p + " is not a valid Windows DLL: " + e.getMessage(),
                        "reinstall it with cudnn-install"));
            }
        }
        String fv = c.fileVersions().get(c.mainLibrary().getFileName().toString());
        if (fv != null && c.headerVersion() != null) {
            if (CudnnVersion.parse(fv).sameRelease(c.headerVersion())) {
                findings.add(Finding.info(FindingId.CUDNN_FILE_VERSION, c.mainLibrary().getFileName() + " FileVersion " + fv
                        + " agrees with the header (" + c.headerVersion() + ")"));
            } else {
                findings.add(Finding.error(FindingId.CUDNN_FILE_VERSION, c.mainLibrary().getFileName() + " has FileVersion " + fv
                                + " but the header says " + c.headerVersion(),
                        "headers and DLLs come from different releases: reinstall one archive with cudnn-install"));
            }
        }
    }

    private static String release(String version) {
        String[] p = version.split("\\.");
        return p.length >= 3 ? p[0] + "." + p[1] + "." + p[2] : version;
    }
}
