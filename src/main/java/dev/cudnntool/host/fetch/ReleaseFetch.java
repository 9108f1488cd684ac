package dev.cudnntool.host.fetch;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ReleaseFilter;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.ToolkitLocator;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The archive {@code cudnn install --release} installs, as the JSON object {@code fetch} shows it.
 *
 * @param release    the release asked for ({@code 9.5.1})
 * @param file       NVIDIA's file name the catalogue chose for this OS, CPU and CUDA major
 * @param url        where it comes from: NVIDIA's URL, the mirror's, or the --from folder's file; null when only behind the login
 * @param size       its size by the catalogue, null when unknown
 * @param sha256     its sha256 by the catalogue
 * @param path       where it lies (or will lie) in the cache folder
 * @param cached     it was in the cache already with the catalogue's size and sha256 (a dry run: size only)
 * @param downloaded this run downloaded or copied it
 * @param cacheWarning why the cache folder was not used (#32 item 2: another user's, or writable by others), the
 *                     download going into a private temporary folder instead; absent when the cache was used
 */
public record ReleaseFetch(String release, String file, String url, Long size, String sha256, String path,
                           boolean cached, boolean downloaded,
                           @com.fasterxml.jackson.annotation.JsonInclude(JsonInclude.Include.NON_NULL)
                           String cacheWarning) {
    public ReleaseFetch(String release, String file, String url, Long size, String sha256, String path,
                        boolean cached, boolean downloaded) {
        this(release, file, url, size, sha256, path, cached, downloaded, null);
    }

    ReleaseFetch warned(String warning) {
        return warning == null ? this : new ReleaseFetch(release, file, url, size, sha256, path, cached, downloaded, warning);
    }

    static ReleaseFetch planned(String release, CatalogueEntry e, FetchSource source, Path dest, boolean cached) {
        String from = source.folder() != null ? source.folder().resolve(e.fileName()).toString()
                : Secrets.redact(source.url(e).orElse(null));
        return new ReleaseFetch(release, e.fileName(), from, e.size(), String.join(" or ", e.accepted()), dest.toString(), cached, false);
    }

    static ReleaseFetch done(String release, CatalogueEntry e, FetchResult r) {
        return new ReleaseFetch(release, e.fileName(), r.url(), r.size(), r.sha256(), r.path().toString(), !r.downloaded(),
                r.downloaded());
    }

    /**
     * Picks the catalogue's archive of {@code release} for the filter (this machine's OS and CPU) and a CUDA major:
     * {@code --cuda}'s, else the target toolkit's (the one {@code cudaPath} names or the one found), else the
     * newest build, as {@code cudnn fetch} does; then fetches it into the cache folder ({@link ArchiveCache}),
     * checking size and sha256 ({@link Fetcher}). A dry run fetches nothing: it says whether the cache has a
     * file of the catalogue's size already.
     */
    public static ReleaseFetch resolve(Host host, Catalogue catalogue,
                                       ReleaseFilter filter, String release, Path cudaPath,
                                       FetchSource source, boolean dryRun, Duration timeout,
                                       ReadProgress progress) {
        Integer toolkitMajor = null;
        if (filter.cuda() == null) {
            Toolkit t = ToolkitLocator.locate(host, cudaPath, null).chosen();
            toolkitMajor = t == null || t.version() == null ? null : t.version().major();
        }
        CatalogueEntry e = ManifestLookup.select(catalogue, filter, release, toolkitMajor, null, source,
                new HttpDownloader(host, timeout));
        Path cache = ArchiveCache.dir(host);
        String notOwn = SafeFiles.notOwn(cache, SafeFiles.caller(host.fs()));
        String warning = notOwn == null ? null : "the cache folder is not used: " + notOwn
                + "; the archive goes into a private temporary folder (set " + ArchiveCache.ENV + " to a folder of your own)";
        Path dest = cache.resolve(e.fileName());
        if (dryRun) {
            boolean cached;
            try {
                cached = notOwn == null && SafeFiles.present(dest) && Files.isRegularFile(dest, LinkOption.NOFOLLOW_LINKS)
                        && (e.size() == null || Files.size(dest) == e.size());
            } catch (IOException x) {
                cached = false;
            }
            return planned(release, e, source, dest, cached).warned(warning);
        }
        if (notOwn != null) {
            cache = ArchiveCache.privateTemp(host);
        }
        return done(release, e, new Fetcher(new HttpDownloader(host, timeout), timeout, progress).fetch(e, source, cache)).warned(warning);
    }

    /**
     * The dry run's last check (#30 item 4), once the host and target would take it: a HEAD request for the file
     * ({@code --from DIR}: the file is there), throwing what the real run would end with (3 not on the server or
     * refused, or of another length; 4 the network or the server failing). Nothing when the cache has it.
     */
    public void checkExists(Host host, FetchSource source, Duration timeout) {
        if (cached) {
            return;
        }
        CatalogueEntry e = CatalogueEntry.of(file, "0".repeat(64), size);
        if (source.folder() != null) {
            if (!Files.isRegularFile(source.folder().resolve(e.fileName()))) {
                throw new ToolException(ExitCode.ARCHIVE_REJECTED, e.fileName() + " is not in "
                        + source.folder(), "put NVIDIA's file there, or fetch from another source (--from URL, or without --from: NVIDIA's server)");
            }
            return;
        }
        String url = (source.base() == null && this.url != null && !this.url.contains("***") ? Optional.of(this.url)
                : source.url(e)).orElseThrow(() -> new ToolException(ExitCode.ARCHIVE_REJECTED,
                e.fileName() + " has no public URL known", "download it yourself, then cudnn install --archive FILE"));
        Fetcher.exists(new HttpDownloader(host, timeout), e, URI.create(url));
    }

    /** The file to install: the cache's copy. */
    public Path path(Host host) {
        return host.path(path);
    }
}
