package dev.cudnntool.cli;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.FrameworkPins;
import dev.cudnntool.explain.ExplainService;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ReleaseFilter;
import dev.cudnntool.host.ReleaseFit;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.host.fetch.FetchResult;
import dev.cudnntool.host.fetch.FetchSelection;
import dev.cudnntool.host.fetch.FetchSource;
import dev.cudnntool.host.fetch.Fetcher;
import dev.cudnntool.host.fetch.HttpDownloader;
import dev.cudnntool.host.fetch.ManifestCache;
import dev.cudnntool.host.fetch.ManifestLookup;
import dev.cudnntool.host.fetch.ReleaseFetch;
import dev.cudnntool.install.InstallPorts;
import dev.cudnntool.install.InstallService;
import dev.cudnntool.install.InstallWorkflow;
import dev.cudnntool.install.PostInstallCheck;
import dev.cudnntool.rollback.RollbackService;
import dev.cudnntool.target.NioFileOps;
import dev.cudnntool.verify.ProbeCheck;
import dev.cudnntool.verify.VerifyService;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The services the commands call, wired from the context's ports: the one place that chooses the
 * production adapters (NIO file operations, the system clock, the probe child); the search-path
 * store comes with the context ({@link ToolContext#searchPaths}). A command asks for its service with the few options that change the wiring.
 */
final class Services {
    private final ToolContext ctx;

    Services(ToolContext ctx) {
        this.ctx = ctx;
    }

    /**
     * An install service, its ports built here once: the post-install load unless {@code probe} is
     * false, Windows' file holders named by the probe child, this OS's search-path store and the
     * context's fault hook.
     */
    InstallService install(boolean probe) {
        Host host = ctx.host();
        PostInstallCheck check = probe ? ProbeCheck.forInstall(host, ctx.probe()) : PostInstallCheck.NONE;
        return new InstallService(new InstallPorts(host, new NioFileOps(), Clock.systemUTC(), check, InspectionLimits.DEFAULT,
                ctx.xz(), VersionProvider.version(), host.windows() ? ctx.probe()::holders : InstallPorts.NOBODY,
                ctx.searchPaths(), ctx.faults()));
    }

    /**
     * {@code cudnn install}'s workflow: {@link #install(boolean)}'s service, the context's catalogue, and a
     * progress bar per phase ({@code bars}: one for a label).
     */
    InstallWorkflow installWorkflow(boolean probe,
            Function<String, InstallWorkflow.Progress> bars) {
        return new InstallWorkflow(ctx.host(), install(probe), ctx.catalogue(), bars);
    }

    /** A verify service; without {@code probe} the library is not loaded. */
    VerifyService verify(boolean probe) {
        return new VerifyService(ctx.host(), probe ? ctx.probe() : null);
    }

    /** {@code cudnn explain}: the checks for pasted error lines, on verify with and without loading the library. */
    ExplainService explain() {
        return new ExplainService(ctx.host(), verify(true), verify(false));
    }

    RollbackService rollback() {
        return new RollbackService(ctx.host(), new NioFileOps(), Clock.systemUTC(), ctx.searchPaths(), ctx.faults());
    }

    ArchiveInspector inspector() {
        return new ArchiveInspector(InspectionLimits.DEFAULT, ctx.xz());
    }

    /** {@code cudnn releases}: the catalogue's archives for {@code filter}, marked against this machine (toolkit at {@code cudaPath} or found). */
    ReleaseFit.Listing releases(ReleaseFilter filter, String cudaPath, ReleaseFit.Asked asked,
                                ManifestCache.Merged manifests) {
        return ReleaseFit.list(ctx.host(), manifests.catalogue(), filter, cudaPath, asked).withManifestRows(manifests.readByFile());
    }

    /**
     * {@code cudnn releases}' manifests (#30 item 2): with {@code refresh} the listing of {@code source} is read and the
     * manifests the catalogue lacks are cached; then the catalogue with every cached manifest.
     */
    ManifestCache.Merged releaseManifests(boolean refresh, FetchSource source) {
        return ManifestCache.releases(ctx.host(), ctx.catalogue(), refresh, source,
                new HttpDownloader(ctx.host(), Duration.ofSeconds(60)));
    }

    /** The catalogue with the manifests {@code releases --refresh} cached (fetch and install --release). */
    private Catalogue catalogue() {
        return ManifestCache.withCached(ctx.host(), ctx.catalogue());
    }

    /** {@code cudnn releases --for}: the framework pins kept with the catalogue. */
    FrameworkPins frameworkPins() {
        return FrameworkPins.bundled();
    }

    /** {@code cudnn fetch --list}: the catalogue's archives {@code what} (or the newest) names for {@code filter}. */
    List<CatalogueEntry> fetchList(ReleaseFilter filter, String what) {
        return FetchSelection.list(catalogue(), filter, what);
    }

    /**
     * {@code cudnn fetch}: the archive {@code what} names, downloaded into {@code dir} from {@code source}. A VERSION
     * without --cuda takes this machine's toolkit's CUDA major when the filter is this machine's and a toolkit is found.
     */
    FetchResult fetch(ReleaseFilter filter, String what, String sha256, FetchSource source, Path dir,
                      Duration timeout, ReadProgress progress) {
        Host host = ctx.host();
        Integer toolkitMajor = null;
        if (filter.cuda() == null && filter.thisMachine(host)) {
            Toolkit t = ToolkitLocator.locate(host, null, null).chosen();
            toolkitMajor = t == null || t.version() == null ? null : t.version().major();
        }
        HttpDownloader d = new HttpDownloader(host, timeout);
        var entry = ManifestLookup.select(catalogue(), filter, what, toolkitMajor, sha256, source, d);
        return new Fetcher(d, timeout, progress).fetch(entry, source, dir);
    }

    /** {@code cudnn install --release}: the catalogue's archive for this machine, fetched into the cache (a dry run: only looked up). */
    ReleaseFetch fetchRelease(ReleaseFilter filter, String release, FetchSource source,
                                                       Path cudaPath, boolean dryRun,
                                                       ReadProgress progress) {
        return ReleaseFetch.resolve(ctx.host(), catalogue(), filter, release, cudaPath, source,
                dryRun, Duration.ofSeconds(60), progress);
    }
}
