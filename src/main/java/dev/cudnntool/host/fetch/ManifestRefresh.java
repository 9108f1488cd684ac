package dev.cudnntool.host.fetch;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.RedistManifest;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code releases --refresh} (#30 item 2): reads the redist folder's listing from the source {@code fetch} uses (NVIDIA,
 * {@code --from URL|DIR}, {@code CUDNN_TOOL_MIRROR}; {@link RedistListing}), and reads the manifests of the releases the
 * catalogue lacks (no archive of the release with a size: sizes come only from manifests) that are not cached yet,
 * newest first: at most {@value ManifestCache#MAX_NEW} a run and 16 MiB in all, each at most
 * {@link RedistManifest#MAX_BYTES}, each validated and merged with the catalogue before it is kept (a sha256 that
 * disagrees is exit 3, nothing of it kept). A listing that cannot be read is one line with fetch's exit code (4 the
 * network, 3 refused or not there).
 */
final class ManifestRefresh {
    private ManifestRefresh() {
    }

    /** Where the listing is read from (the folder itself for --from DIR). */
    static String where(FetchSource source) {
        if (source.folder() != null) {
            return source.folder().toString();
        }
        return source.base() != null ? source.base() : CatalogueEntry.REDIST;
    }

    static List<ManifestCache.Cached> refresh(Host host, Catalogue base, FetchSource source, Downloader d, List<String> warnings) {
        List<String> labels = labels(source, d);
        Set<String> known = new HashSet<>();
        for (CatalogueEntry e : base.archives()) {
            String[] p = e.version().split("\\.");
            if (e.size() != null && p.length >= 3) {
                known.add(p[0] + "." + p[1] + "." + p[2]);
            }
        }
        List<String> ignored = new ArrayList<>();
        for (ManifestCache.Cached c : ManifestCache.load(host, ignored)) {
            known.add(c.manifest().label());
        }
        List<ManifestCache.Cached> out = new ArrayList<>();
        Catalogue merged = base;
        long total = 0;
        for (String label : labels) {
            if (known.contains(label) || !ManifestLookup.manifested(label)) {
                continue;
            }
            if (out.size() == ManifestCache.MAX_NEW || total > ManifestCache.MAX_TOTAL) {
                warnings.add("stopped after " + out.size() + " manifests (" + total + " bytes) this run: run cudnn releases"
                        + " --refresh again to read the rest");
                break;
            }
            byte[] bytes = ManifestLookup.bytes(source, label, d);
            if (bytes == null) {
                warnings.add("the listing names " + RedistManifest.fileName(label) + " but the server has no such file");
                continue;
            }
            total += bytes.length;
            RedistManifest m = ManifestLookup.parse(source, label, bytes);
            merged = merged.withManifest(m); // exit 3 before anything of it is kept
            Instant read = ManifestCache.now();
            out.add(new ManifestCache.Cached(m, read, ManifestCache.store(host, m, bytes, read, warnings)));
        }
        return out;
    }

    /** The labels the source's listing names, newest first. */
    static List<String> labels(FetchSource source, Downloader d) {
        String where = where(source);
        if (source.folder() != null) {
            List<String> out = new ArrayList<>();
            int seen = 0;
            try (DirectoryStream<Path> files = Files.newDirectoryStream(source.folder())) {
                for (Path p : files) {
                    String label = RedistListing.labelOf(p.getFileName().toString());
                    if (label != null && ++seen > RedistListing.MAX_LABELS) {
                        throw refused(where, "it holds over " + RedistListing.MAX_LABELS + " manifests");
                    }
                    if (label != null) {
                        out.add(label);
                    }
                }
            } catch (IOException x) {
                throw new ToolException(ExitCode.HOST_NOT_READY, "cannot list " + where + ": " + x.getMessage(),
                        "check the folder given with --from or " + "CUDNN_TOOL_MIRROR", x);
            }
            out.sort(RedistListing.NEWEST_FIRST);
            return out;
        }
        byte[] html;
        try (Downloader.Response r = d.get(URI.create(where), 0)) {
            if (r.status() != 200) {
                throw new ToolException(r.status() >= 500 ? ExitCode.HOST_NOT_READY : ExitCode.ARCHIVE_REJECTED,
                        "reading the listing " + Secrets.redact(where) + " failed (HTTP " + r.status()
                                + (r.status() == 404 ? ": not on the server" : "") + ")",
                        "check the mirror (--from, CUDNN_TOOL_MIRROR): it must serve the redist folder's index, or try again later");
            }
            try (InputStream in = r.body()) {
                html = in.readNBytes(RedistListing.MAX_BYTES + 1);
            }
        } catch (IOException x) {
            throw new ToolException(ExitCode.HOST_NOT_READY, "reading the listing " + Secrets.redact(where) + " failed: "
                    + Secrets.redact(String.valueOf(x.getMessage())),
                    "check the network (and HTTPS_PROXY/NO_PROXY), then run the same command again", x);
        }
        try {
            return RedistListing.labels(where, html);
        } catch (IllegalArgumentException x) {
            throw refused(where, x.getMessage());
        }
    }

    private static ToolException refused(String where, String why) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED, "the listing " + Secrets.redact(where) + " is refused: " + why,
                "check the mirror's index of the redist folder, or refresh from NVIDIA's server");
    }
}
