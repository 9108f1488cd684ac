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
import java.util.List;

/**
 * Everything cudnn verify established; {@code ok} when no finding is an error (with --all, also
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
}
