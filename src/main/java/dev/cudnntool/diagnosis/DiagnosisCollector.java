package dev.cudnntool.diagnosis;

import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.DriverCheck;
import dev.cudnntool.host.FolderListing;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.Platform;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.TargetLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiPredicate;

/**
 * Gathers a {@link Diagnosis} once. Where cuDNN is comes first (cheap); the probe child then starts at
 * once and runs while this process asks nvidia-smi, reads the search path and looks for other copies:
 * the two processes overlap. {@link #forInstall} gathers what install's preflight judges by the same steps.
 */
public final class DiagnosisCollector {
    private final Host host;
    private final Prober probe;

    /** @param probe null to load nothing (--no-probe) */
    public DiagnosisCollector(Host host, Prober probe) {
        this.host = host;
        this.probe = probe;
    }

    /**
     * @param loadable whether the scanned files may be loaded (a damaged image or another CPU's build would
     *                 kill the probe inside the loader); false starts no probe
     */
    public Diagnosis collect(Diagnosis.Question q, BiPredicate<InstalledCudnn, Toolkit> loadable) {
        List<FolderListing.Cut> cuts = new ArrayList<>();
        return FolderListing.recording(cuts, () -> collect(q, loadable, cuts));
    }

    private Diagnosis collect(Diagnosis.Question q, BiPredicate<InstalledCudnn, Toolkit> loadable, List<FolderListing.Cut> cuts) {
        Platform platform = platform();
        // verify's order (#33 item 4): --cuda-path, CUDA_PATH, CUDA_HOME, the nvcc on PATH, then the usual places
        ToolkitLocator.Selection located = q.prefix() != null ? null : ToolkitLocator.locateForVerify(host, q.cudaPath());
        Toolkit toolkit = located == null ? null : located.chosen();
        InstallTarget target = target(q, toolkit);
        TargetLayout.Search folders = target == null ? null : target.layout().search(host.arch());
        InstalledCudnn cudnn = folders == null ? null : CudnnScan.scan(host, folders.runtime(), folders.include(), folders.imports(),
                q.expect() == null ? 0 : q.expect().major()).orElse(null);
        String bareName = cudnn == null ? null : host.windows() ? CudnnComponents.windowsDll("cudnn", cudnn.major())
                : CudnnComponents.linuxSoname("cudnn", cudnn.major());
        boolean safe = cudnn != null && loadable.test(cudnn, toolkit);
        CompletableFuture<ProbeResult> probing = safe && probe != null
                ? CompletableFuture.supplyAsync(() -> probe.probe(cudnn.mainLibrary(), bareName, cudnn.subLibraries())) : null;
        // While the probe child loads cuDNN (tens of ms), do here what does not need its answer.
        DriverCheck.Result driver = driver(platform, null);
        LibrarySearchCheck.Result search = cudnn == null ? null
                : LibrarySearchCheck.check(host, cudnn.runtimeDir(), cudnn.major(), cudnn.headerVersion());
        List<Toolkit> found = located == null ? List.of() : located.found();
        CopyOwners.Owned owned = CopyOwners.owned(host, CopyFinder.find(host, cudnn == null ? null : cudnn.runtimeDir(), found));
        List<Path> environments = q.all() ? CopyFinder.sitePackages(host) : CopyFinder.activeSitePackages(host);
        if (probing != null) {
            probe.beforeJoin();
        }
        ProbeResult p = probing == null ? null : probing.join();
        return new Diagnosis(host, q, platform, driver, located, toolkit, found, target, folders == null ? List.of() : folders.runtime(),
                folders == null ? null : folders.include(), cudnn,
                bareName, safe, search, p, owned.copies(), environments, owned.unreadRecords(), List.copyOf(cuts),
                CopyFinder.skippedFolders(host));
    }

    /**
     * The facts install's preflight judges, gathered by the same steps as {@link #collect} (platform, driver, toolkit,
     * target), keyed on the archive: the driver and the toolkit are weighed against its CUDA build, and the target's
     * layout is the archive's OS (a prefix need not exist yet). Nothing is loaded and no copy is scanned.
     *
     * @param prefix   --prefix, or null for the toolkit's target
     * @param cudaPath --cuda-path, or null (ignored with a prefix)
     */
    public InstallFacts forInstall(ArchiveName archive, Path cudaPath, Path prefix) {
        Platform platform = platform();
        DriverCheck.Result driver = driver(platform, archive);
        ToolkitLocator.Selection located = located(cudaPath, prefix, archive);
        Toolkit toolkit = located == null ? null : located.chosen();
        InstallTarget target = prefix != null ? InstallTarget.prefix(prefix.toAbsolutePath().normalize(), archive.os())
                : toolkit == null ? null : InstallTarget.toolkit(toolkit, archive.os());
        return new InstallFacts(platform, driver, located, target);
    }

    /**
     * What {@link #forInstall} gathered.
     *
     * @param located how the toolkit was chosen (its findings unjudged), or null with --prefix
     * @param target  null when there is none (no toolkit found)
     */
    public record InstallFacts(Platform platform, DriverCheck.Result driver, ToolkitLocator.Selection located,
                               InstallTarget target) {
        public Toolkit toolkit() {
            return located == null ? null : located.chosen();
        }

        public List<Toolkit> toolkitsFound() {
            return located == null ? List.of() : located.found();
        }
    }

    private Platform platform() {
        return Platform.detect(host);
    }

    /** nvidia-smi's answer, weighed against the archive's CUDA build when there is one. */
    private DriverCheck.Result driver(Platform platform, ArchiveName archive) {
        return DriverCheck.check(host, platform, archive);
    }

    /** The toolkit (none looked for with a prefix), chosen for the archive when there is one. */
    private ToolkitLocator.Selection located(Path cudaPath, Path prefix, ArchiveName archive) {
        return prefix != null ? null : ToolkitLocator.locate(host, cudaPath, archive);
    }

    private InstallTarget target(Diagnosis.Question q, Toolkit toolkit) {
        if (q.prefix() != null) {
            return Files.isDirectory(q.prefix()) ? InstallTarget.prefix(q.prefix(), host.os()) : null;
        }
        return toolkit == null ? null : InstallTarget.toolkit(toolkit, host.os());
    }

    /** The scan of a copy other than the target, read-only: the same scan, in the copy's own folders. */
    public static Optional<InstalledCudnn> scanCopy(Host host, CudnnCopy copy) {
        Path lib = host.path(copy.path());
        return CudnnScan.scan(host, List.of(lib.getParent()),
                copy.includeDir() == null ? lib.getParent().resolve("include") : copy.includeDir(), null, copy.major());
    }
}
