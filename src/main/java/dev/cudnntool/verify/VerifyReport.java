package dev.cudnntool.verify;

import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.diagnosis.InstalledCudnn;
import dev.cudnntool.diagnosis.CudnnCopy;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.Finding;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.Platform;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.target.InstallTarget;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything cudnn verify established, and its {@link #verdict()}; {@code ok} when no finding is an error (with --all, also
 * none of any copy's findings). {@code copies}: every cuDNN on the machine; {@code frameworks}: the
 * frameworks of the Python environments looked at, each with what it pins and what it gets.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VerifyReport(Platform platform, DriverInfo driver, Toolkit toolkit, List<Toolkit> toolkitsFound,
                           InstallTarget target, InstalledCudnn cudnn, ProbeResult probe, List<Finding> findings,
                           boolean ok, List<CudnnCopy> copies, List<FrameworkReport> frameworks, CudnnCopy judged) {

    /**
     * @param judged the discovered copy plain verify judged as the target (#33 item 2: the toolkit or prefix holds no
     *               cuDNN; a copy programs get by name, or the active environment's), or null
     */
    public VerifyReport {
    }

    /** A report whose target is the toolkit or prefix (or none), not a discovered copy. */
    public VerifyReport(Platform platform, DriverInfo driver, Toolkit toolkit, List<Toolkit> toolkitsFound,
                        InstallTarget target, InstalledCudnn cudnn, ProbeResult probe, List<Finding> findings,
                        boolean ok, List<CudnnCopy> copies, List<FrameworkReport> frameworks) {
        this(platform, driver, toolkit, toolkitsFound, target, cudnn, probe, findings, ok, copies, frameworks, null);
    }

    /** A report whose frameworks are not looked at (yet). */
    public VerifyReport(Platform platform, DriverInfo driver, Toolkit toolkit, List<Toolkit> toolkitsFound,
                        InstallTarget target, InstalledCudnn cudnn, ProbeResult probe, List<Finding> findings,
                        boolean ok, List<CudnnCopy> copies) {
        this(platform, driver, toolkit, toolkitsFound, target, cudnn, probe, findings, ok, copies, List.of());
    }

    /**
     * Problems when {@code ok} is false (an error here, in a framework, or with --all in a copy); else unknown when a
     * finding here or in a copy says something could not be checked; else ok.
     */
    public Verdict verdict() {
        if (!ok) {
            return Verdict.PROBLEMS;
        }
        return notChecked().isEmpty() ? Verdict.OK : Verdict.UNKNOWN;
    }

    /** Every finding, the copies' included, that says what could not be checked. */
    public List<Finding> notChecked() {
        List<Finding> all = new ArrayList<>(findings);
        (copies == null ? List.<CudnnCopy>of() : copies).forEach(c -> all.addAll(c.findings() == null ? List.of() : c.findings()));
        return Verdict.notChecked(all);
    }

    /** The judged copy's kind for JSON {@code target.kind}, or null. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public String judgedKind() {
        return judged == null ? null : DiscoveredTarget.kind(judged);
    }

    /** The judged copy's library folder, or null. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public String judgedFolder() {
        if (judged == null) {
            return null;
        }
        String p = judged.path();
        int cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
        return cut > 0 ? p.substring(0, cut) : p;
    }
}
