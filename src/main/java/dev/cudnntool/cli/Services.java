package dev.cudnntool.cli;

import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.host.ReleaseFilter;
import dev.cudnntool.host.ReleaseFit;
import dev.cudnntool.host.searchpath.SearchPathStore;
import dev.cudnntool.host.searchpath.SearchPathStores;
import dev.cudnntool.install.InstallService;
import dev.cudnntool.install.NioFileOps;
import dev.cudnntool.install.PostInstallCheck;
import dev.cudnntool.install.RollbackService;
import dev.cudnntool.install.SearchPathChange;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.verify.ProbeCheck;
import dev.cudnntool.verify.VerifyService;
import java.time.Clock;

/**
 * The services the commands call, wired from the context's ports: the one place that chooses the
 * production adapters (NIO file operations, the system clock, the probe child, the search-path
 * store of this OS). A command asks for its service with the few options that change the wiring.
 */
final class Services {
    private final ToolContext ctx;

    Services(ToolContext ctx) {
        this.ctx = ctx;
    }

    /**
     * An install service: the post-install load unless {@code probe} is false, Windows' file
     * holders named by the probe child, and the search-path change when {@code addToPath} is not null.
     */
    InstallService install(boolean probe, SearchPathStore.Scope addToPath) {
        ProbeRunner runner = ctx.probe();
        InstallService service = new InstallService(ctx.host(), new NioFileOps(), Clock.systemUTC(),
                probe ? ProbeCheck.forInstall(ctx.host(), runner) : PostInstallCheck.NONE, InspectionLimits.DEFAULT,
                VersionProvider.version());
        if (ctx.host().windows()) {
            service.withHolders(runner::holders);
        }
        if (addToPath != null) {
            service.withAddToPath(new SearchPathChange(ctx.host(), SearchPathStores.forHost(ctx.host()), addToPath));
        }
        return service;
    }

    /** A verify service; without {@code probe} the library is not loaded. */
    VerifyService verify(boolean probe) {
        return new VerifyService(ctx.host(), probe ? ctx.probe() : null);
    }

    RollbackService rollback() {
        return new RollbackService(ctx.host(), new NioFileOps());
    }

    ArchiveInspector inspector() {
        return new ArchiveInspector();
    }

    /** {@code cudnn releases}: the catalogue's archives for {@code filter}, marked against this machine (toolkit at {@code cudaPath} or found). */
    ReleaseFit.Listing releases(ReleaseFilter filter, String cudaPath) {
        return ReleaseFit.list(ctx.host(), ctx.catalogue(), filter, cudaPath);
    }
}
