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
 * Everything cudnn-verify established, and its {@link #verdict()}; {@code ok} when no finding is an error (with --all, also
 * none of any copy's findings). {@code copies}: every cuDNN on the machine; {@code frameworks}: the
 * frameworks of the Python environments looked at, each with what it pins and what it gets.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VerifyReport(Platform platform, DriverInfo driver, Toolkit toolkit, List<Toolkit> toolkitsFound,
                           InstallTarget target, InstalledCudnn cudnn, ProbeResult probe, List<Finding> findings,
                           boolean ok, List<CudnnCopy> copies, List<FrameworkReport> frameworks) {

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
}
