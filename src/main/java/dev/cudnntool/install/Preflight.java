package dev.cudnntool.install;

import java.util.Optional;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.archive.HeaderVersion;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.target.InstallTarget;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.ArchiveAdvice;
import dev.cudnntool.diagnosis.DiagnosisCollector;
import dev.cudnntool.host.DriverCheck;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.GpuSupport;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.host.owner.WslLinuxDriver;
import dev.cudnntool.host.Platform;
import dev.cudnntool.host.PlatformCheck;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.ToolkitLocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The host checks an install runs before a single file moves: platform, driver, toolkit, the
 * library search path and shadowing copies. --force turns the errors in {@link #FORCIBLE} into
 * warnings; the others (no target, a 32-bit JVM) cannot be forced.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Preflight(Platform platform, DriverInfo driver, Toolkit toolkit, List<Toolkit> toolkitsFound,
                        InstallTarget target, List<LibrarySearchCheck.CudnnCopy> otherCopies, List<Finding> findings) {

    public static final Set<FindingId> FORCIBLE = Set.of(FindingId.PLATFORM_MISMATCH, FindingId.DRIVER_TOO_OLD, FindingId.DRIVER_FAILED,
            FindingId.TOOLKIT_CUDA_MAJOR_MISMATCH, FindingId.CUDNN_SHADOW, FindingId.CUDNN_ZLIBWAPI_MISSING,
            FindingId.INSTALL_PACKAGE_OWNED, FindingId.CUDNN_GPU_UNSUPPORTED, FindingId.DRIVER_WSL_LINUX_DRIVER);

    /** The facts are verify's, gathered by {@link DiagnosisCollector#forInstall}; the judgement is install's. */
    public static Preflight run(Host host, ArchiveName archive, Path cudaPath, Path prefix, boolean force) {
        List<Finding> findings = new ArrayList<>();
        DiagnosisCollector.InstallFacts facts = new DiagnosisCollector(host, null).forInstall(archive, cudaPath, prefix);
        Platform platform = facts.platform();
        DriverCheck.Result driver = facts.driver();
        ArchiveAdvice advice = ArchiveAdvice.bundled(driver.driver());
        // The toolkit first, so that a wrong platform's fix names the archive for this platform AND the toolkit's
        // CUDA major, the same one the toolkit's CUDA-major fix names (#31 item 7: no two fixes contradict).
        Integer toolkitMajor = facts.toolkit() == null || facts.toolkit().version() == null ? null
                : facts.toolkit().version().major();
        List<Finding> platformFindings = PlatformCheck.check(platform, archive, advice, toolkitMajor);
        findings.addAll(platformFindings);
        boolean platformOk = platformFindings.stream().noneMatch(f -> f.is(FindingId.PLATFORM_MISMATCH));
        findings.addAll(driver.findings());
        // A Linux driver inside WSL2 hides Windows' one: the cuDNN installed would not run, as with a driver too old.
        findings.addAll(WslLinuxDriver.findings(host, platform));
        findings.addAll(GpuSupport.findings(host, driver.driver(), archive.version().toString(), archive.cudaVariant().major()));
        Toolkit toolkit = facts.toolkit();
        List<Toolkit> found = facts.toolkitsFound();
        InstallTarget target = facts.target();
        if (facts.located() != null) {
            findings.addAll(facts.located().findings());
            findings.addAll(ToolkitLocator.checkAgainst(toolkit, archive, advice, PlatformCheck.right(platform, archive)));
        }
        List<LibrarySearchCheck.CudnnCopy> copies = List.of();
        if (target != null && platformOk) {
            LibrarySearchCheck.Result search = LibrarySearchCheck.check(host, target.runtimeDir(archive),
                    archive.major(), archive.version());
            findings.addAll(search.findings());
            copies = search.copies();
        }
        if (target != null) {
            findings.addAll(downgrade(target, archive));
            if (platformOk) {
                findings.addAll(PackageOwned.check(host, target, archive));
            }
        }
        if (force) {
            findings = findings.stream().map(f -> FORCIBLE.stream().anyMatch(f::is) ? f.forced() : f).toList();
        }
        return new Preflight(platform, driver.driver(), toolkit, found, target, copies, findings);
    }

    /**
     * {@code install.downgrade}: the target's cuDNN headers (cudnn_version.h, or cudnn.h before 8)
     * name a newer version than the archive's. A warning: installing an older release is allowed.
     */
    static List<Finding> downgrade(InstallTarget target, ArchiveName archive) {
        Path include = target.layout().includeDir();
        for (String header : List.of("cudnn_version.h", "cudnn.h")) {
            Path h = include.resolve(header);
            if (!Files.isRegularFile(h)) {
                continue;
            }
            Optional<CudnnVersion> there;
            try {
                there = HeaderVersion.parse(BoundedFiles.readString(h, BoundedFiles.TEXT, StandardCharsets.ISO_8859_1));
            } catch (IOException e) {
                return List.of(); // unreadable or hostile: verify reports it; the install replaces it
            }
            CudnnVersion now = archive.version();
            if (there.isPresent() && there.get().release().compareTo(now.release()) > 0) {
                return List.of(Finding.warn(FindingId.INSTALL_DOWNGRADE, "the archive holds cuDNN " + now + ", older than the cuDNN "
                        + there.get() + " it replaces in " + target.root() + " (" + h + ")",
                        Fix.tool("nothing to do if an older release is what you want; cudnn rollback undoes the install")));
            }
            return List.of();
        }
        return List.of();
    }

    public boolean ready() {
        return target != null && !Finding.anyError(findings);
    }
}
