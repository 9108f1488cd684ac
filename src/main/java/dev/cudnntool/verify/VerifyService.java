package dev.cudnntool.verify;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.diagnosis.Diagnosis;
import dev.cudnntool.diagnosis.DiagnosisCollector;
import dev.cudnntool.diagnosis.InstalledCudnn;
import dev.cudnntool.diagnosis.Prober;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.owner.Owner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Diagnoses an existing install: the facts are gathered once ({@link DiagnosisCollector}), then judged by
 * the checks of {@link VerifyChecks} (the target's, then the machine's), the one table of {@link Hides}
 * leaving out what another finding says better. Every finding has a cause and a fix.
 */
public final class VerifyService {
    private final Host host;
    private final DiagnosisCollector collector;

    /** @param probe null to skip loading the library (--no-probe) */
    public VerifyService(Host host, Prober probe) {
        this.host = host;
        this.collector = new DiagnosisCollector(host, probe);
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
        Diagnosis d = collector.collect(new Diagnosis.Question(cudaPath, prefix, expect, all),
                (c, toolkit) -> VerifyChecks.loadable(host, c, toolkit));
        // A target a package manager answers for (verify --prefix /usr, a conda env's toolkit) is fixed with its command.
        List<Finding> targetFindings = OwnersFixes.apply(targetFindings(d), ownerOf(d.copies(), CudnnCopy.Origin.TARGET));
        List<Finding> findings = new ArrayList<>(targetFindings);
        VerifyChecks.MACHINE.forEach(check -> findings.addAll(check.check(d)));
        // #33 item 6: the active environment's cuDNN folder this user cannot open fails verify as the target's would
        List<Finding> unreadableEnv = UnreadableEnvironment.findings(d);
        findings.addAll(unreadableEnv);
        List<FrameworkReport> frameworks = Frameworks.analyse(host, d.environments(), only, d.copies(), d.driver().driver(),
                this::diagnose);
        List<Finding> frameworkFindings = new ArrayList<>(Frameworks.findings(frameworks));
        frameworkFindings.addAll(Frameworks.gpuFindings(frameworks, d.driver().driver()));
        if (only != null && frameworks.isEmpty()) {
            frameworkFindings.add(frameworkNotFound(only, d.environments(), all));
        }
        findings.addAll(frameworkFindings);
        boolean ok = !Finding.anyError(targetFindings) && !Finding.anyError(frameworkFindings) && !Finding.anyError(unreadableEnv);
        List<CudnnCopy> copies = d.copies();
        if (all) {
            copies = copies.stream().map(copy -> copy.withFindings(copy.origin() == CudnnCopy.Origin.TARGET ? targetFindings
                    : OwnersFixes.apply(diagnose(copy), copy.owner()))).toList();
            ok &= copies.stream().noneMatch(c -> Finding.anyError(c.findings()));
        }
        List<CudnnCopy> chosen = DiscoveredTarget.chosen(host, d);
        CudnnCopy judged = null;
        if (!chosen.isEmpty()) {
            List<CudnnCopy> withFindings = new ArrayList<>();
            for (CudnnCopy copy : copies) {
                if (chosen.contains(copy)) {
                    List<Finding> own = DiscoveredTarget.judge(d, copy, this::diagnose);
                    findings.addAll(own);
                    ok &= !Finding.anyError(own);
                    copy = copy.withFindings(own);
                    judged = judged == null ? copy : judged;
                }
                withFindings.add(copy);
            }
            copies = List.copyOf(withFindings);
        }
        return new VerifyReport(d.platform(), d.driver().driver(), d.toolkit(), d.toolkitsFound(), d.target(), d.cudnn(), d.probe(),
                List.copyOf(findings), ok, copies, List.copyOf(frameworks), judged);
    }

    /** The target's checks in order, what another finding says better left out, then cudnn.ok when nothing is an error. */
    static List<Finding> targetFindings(Diagnosis d) {
        List<Finding> out = new ArrayList<>();
        VerifyChecks.TARGET.forEach(check -> out.addAll(check.check(d)));
        List<Finding> shown = new ArrayList<>(Hides.apply(out));
        shown.addAll(VerifyChecks.ok(d, shown));
        return shown;
    }

    private static Owner ownerOf(List<CudnnCopy> copies, CudnnCopy.Origin origin) {
        return copies.stream().filter(c -> c.origin() == origin).map(CudnnCopy::owner).findFirst().orElse(Owner.NONE);
    }

    private static Finding frameworkNotFound(Frameworks.Kind only, List<Path> sites, boolean all) {
        return Finding.error(FindingId.FRAMEWORK_NOT_FOUND, only.name() + " is not installed in "
                        + (sites.isEmpty() ? "any Python environment found" : String.join(", ", sites.stream().map(Path::toString).toList())),
                all ? "install it, or activate the environment that has it (VIRTUAL_ENV, CONDA_PREFIX) and run verify there"
                        : "activate the environment that has it, or add --all to search every environment found");
    }

    /** The CUDA major a copy is built for, when its owner says (NVIDIA's wheel nvidia-cudnn-cuNN); null when unknown. */
    static Integer cudaMajorOf(CudnnCopy copy) {
        var o = copy.owner();
        if (o != null && o.kind() == Owner.Kind.PIP && o.name() != null && o.name().matches("nvidia-cudnn-cu\\d{2}")) {
            return Integer.valueOf(o.name().substring("nvidia-cudnn-cu".length()));
        }
        return null;
    }

    /** verify --all for a copy other than the target: its files, read-only (nothing of it is loaded). */
    List<Finding> diagnose(CudnnCopy copy) {
        Path lib = host.path(copy.path());
        Optional<InstalledCudnn> c = DiagnosisCollector.scanCopy(host, copy);
        List<Finding> out = new ArrayList<>();
        if (c.isEmpty()) {
            return out;
        }
        out.addAll(FileChecks.damaged(host, c.get()));
        out.addAll(FileChecks.wrongArch(host, c.get(), null));
        if (c.get().headerFile() != null || copy.includeDir() != null && Files.isDirectory(copy.includeDir())) {
            Path include = copy.includeDir() == null ? lib.getParent().resolve("include") : copy.includeDir();
            out.addAll(HeaderFiles.findings(host, include, c.get().major()));
            out.addAll(HeaderFiles.alternatives(host, include, c.get()));
        }
        InstalledCudnn found = c.get();
        if (found.headerFile() == null) {
            // pip and conda copies keep headers elsewhere or none: missing headers are not this copy's fault
            found = new InstalledCudnn(found.major(), found.runtimeDir(), found.mainLibrary(), found.subLibraries(),
                    found.missing().stream().filter(m -> !m.startsWith("include/")).toList(), null, null,
                    found.fileVersions(), found.otherMajors());
        }
        InstallFiles.files(host, found, out);
        out.addAll(DependencyCheck.findings(host, found, DiscoveredTarget.cudaMajorOf(copy)));
        if (!Finding.anyError(out)) {
            out.add(Finding.info(FindingId.CUDNN_OK, "cuDNN " + (copy.version() == null ? copy.major() : copy.version()) + " in "
                    + found.runtimeDir() + " (files checked, not loaded)"));
        }
        return out;
    }
}
