package dev.cudnntool.verify.machine;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.Severity;
import dev.cudnntool.diagnosis.CopyFinder;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.diagnosis.Diagnosis;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.owner.Owner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * #33 item 3: a stale loader cache over a hand-made folder. A cuDNN copy in a folder that {@code /etc/ld.so.conf} (or a
 * file it includes) lists, whose files no package owns, while {@code /etc/ld.so.cache} holds no entry for its soname
 * from that folder (it names another copy's file, or none): ldconfig has not been run since the files were put there.
 * The fix is {@code sudo ldconfig}, never removing a package: the copy the cache names instead is not the cause.
 * (A package's files are cached by its own ldconfig trigger; a folder of a package manager is left to its fixes.)
 */
public final class StaleLoaderCache {
    private StaleLoaderCache() {
    }

    /** The conf line listing {@code dir} when the cache holds no {@code soname} from it and no package owns the copy there. */
    public static Optional<LoaderPath.ConfLine> stale(Host host, LdSoCache cache, Path dir, String soname, Owner owner) {
        if (host.windows() || dir == null || owner != null && owner.packageManager()) {
            return Optional.empty();
        }
        Optional<LoaderPath.ConfLine> conf = LoaderPath.confLine(host, LoaderPath.ldSoConfLines(host), dir);
        if (conf.isEmpty()) {
            return Optional.empty();
        }
        for (LdSoCache.Entry e : cache.entries()) {
            if (e.name().equals(soname) && e.path() != null && e.path().getParent() != null
                    && (host.samePath(e.path().getParent(), dir) || host.samePath(host.realPath(e.path().getParent()), host.realPath(dir)))) {
                return Optional.empty();
            }
        }
        return conf;
    }

    /** The fix for a folder {@link #stale} found: the cache's, in words that say why no package is removed. */
    public static Fix fix(Path dir, LoaderPath.ConfLine conf, String instead) {
        return Fix.text("sudo ldconfig (" + dir + " is listed in " + conf + ", but /etc/ld.so.cache was written before its"
                + " files were put there" + (instead == null ? "" : " and still names " + instead) + "; no package needs"
                + " removing), then run verify again");
    }

    /**
     * The target's findings with the cause's fix: when the target's folder is a stale hand-made one, a {@code cudnn.shadow}
     * error (another copy found first through the cache or a system folder) is fixed by {@code sudo ldconfig}.
     */
    public static List<Finding> target(Diagnosis d, List<Finding> findings) {
        if (d.cudnn() == null || d.bareName() == null || d.host().windows()
                || findings.stream().noneMatch(f -> f.is(FindingId.CUDNN_SHADOW) && f.severity() == Severity.ERROR)) {
            return findings;
        }
        Owner owner = d.copies().stream().filter(c -> c.origin() == CudnnCopy.Origin.TARGET).map(CudnnCopy::owner)
                .findFirst().orElse(Owner.NONE);
        Path dir = d.cudnn().runtimeDir();
        LdSoCache cache = LdSoCache.of(d.host());
        Optional<LoaderPath.ConfLine> conf = stale(d.host(), cache, dir, d.bareName(), owner);
        if (conf.isEmpty()) {
            return findings;
        }
        // only when what wins does so through the cache or a system folder: an LD_LIBRARY_PATH entry would win after ldconfig too
        Optional<LoaderPath.Hit> winner = LoaderPath.find(d.host(), cache, d.bareName(), List.of(), List.of());
        if (winner.isEmpty() || winner.get().place().mechanism() != LoaderPath.Mechanism.LD_SO_CACHE
                && winner.get().place().mechanism() != LoaderPath.Mechanism.DEFAULT_FOLDER) {
            return findings;
        }
        Fix fix = fix(dir, conf.get(), winner.get().file().toString());
        return findings.stream().map(f -> f.is(FindingId.CUDNN_SHADOW) && f.severity() == Severity.ERROR ? f.withFix(fix) : f).toList();
    }

    /**
     * The copies outside the target in a stale hand-made folder: {@code search-path.missing} (warn) naming the folder,
     * its conf line and what a program loading the soname gets instead, fixed by {@code sudo ldconfig}.
     */
    public static List<Finding> copies(Diagnosis d) {
        Host host = d.host();
        if (host.windows() || d.copies().isEmpty()) {
            return List.of();
        }
        LdSoCache cache = null;
        List<Finding> out = new ArrayList<>();
        for (CudnnCopy c : d.copies()) {
            if (c.origin() == CudnnCopy.Origin.TARGET || c.winsByName() || c.major() <= 0) {
                continue;
            }
            Path dir = host.path(c.path()).getParent();
            String soname = CopyFinder.bareName(host, c.major());
            cache = cache != null ? cache : LdSoCache.of(host);
            Optional<LoaderPath.ConfLine> conf = stale(host, cache, dir, soname, c.owner());
            if (conf.isEmpty()) {
                continue;
            }
            Optional<CudnnCopy> winner = d.copies().stream().filter(o -> o.winsByName() && o.major() == c.major()).findFirst();
            String instead = winner.map(w -> w.path() + (w.version() == null ? "" : " (cuDNN " + w.version() + ")")).orElse(null);
            out.add(Finding.warn(FindingId.SEARCH_PATH_MISSING, "cuDNN " + (c.version() == null ? c.major() : c.version()) + " in "
                            + dir + " is listed in " + conf.get() + " but /etc/ld.so.cache has no " + soname + " from it: ldconfig has"
                            + " not been run since its files were put there, so a program loading " + soname + " by name gets "
                            + (instead == null ? "nothing" : instead) + " instead",
                    fix(dir, conf.get(), winner.map(CudnnCopy::path).orElse(null))));
        }
        return out;
    }
}
