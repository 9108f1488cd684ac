package dev.cudnntool.host.fetch;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.RedistManifest;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * NVIDIA's manifests kept next to the archive cache (#30 item 2, settled "Downloads and caches"):
 * {@code <cache>/manifests/redistrib_<label>.json}, written by {@code releases --refresh} and read by {@code releases},
 * {@code fetch} and {@code install --release}, so a release the catalogue lacks is known without rebuilding the tool.
 * A cached manifest is hostile input as when it was read: bounded, validated ({@link RedistManifest}), read only when
 * it is a plain file of one name owned by the caller ({@link SafeFiles}) in a cache folder of the caller's, and merged
 * with the catalogue as a live one is ({@link Catalogue#withManifest}: a sha256 that disagrees is exit 3, both named).
 * When it was read is the file's modification time, set when it is written.
 */
public final class ManifestCache {
    /** The folder below the cache folder. */
    public static final String FOLDER = "manifests";
    /** The most cached manifests read (NVIDIA publishes a few a year). */
    static final int MAX_CACHED = 512;
    /** The most new manifests one refresh reads, and their bytes in all. */
    static final int MAX_NEW = 64;
    static final long MAX_TOTAL = 16L << 20;

    private ManifestCache() {
    }

    /**
     * One manifest with when it was read.
     *
     * @param file where it is cached; null when it was read now but could not be kept
     */
    public record Cached(RedistManifest manifest, Instant read, Path file) {
    }

    /**
     * What {@code releases} learns from the manifests: the catalogue with them merged, when each archive known only from
     * a manifest was read (by file name), the warnings (one line each) and, for {@code --refresh}, the listing read and the
     * labels read from it.
     */
    public record Merged(Catalogue catalogue, Map<String, Instant> readByFile, List<String> warnings, String listing,
                         List<String> refreshed) {
    }

    /** The folder the manifests are cached in, or null when no cache folder is known (no HOME). */
    public static Path dir(Host host) {
        try {
            return ArchiveCache.dir(host).resolve(FOLDER);
        } catch (ToolException noCache) {
            return null;
        }
    }

    /** The catalogue with the cached manifests merged (fetch and install --release); warnings are dropped. */
    public static Catalogue withCached(Host host, Catalogue base) {
        List<String> ignored = new ArrayList<>();
        return merge(base, load(host, ignored), ignored, null, List.of()).catalogue();
    }

    /**
     * {@code releases}: the catalogue with the cached manifests, after reading the listing of {@code source} and caching the
     * manifests the catalogue lacks when {@code refresh}.
     */
    public static Merged releases(Host host, Catalogue base, boolean refresh, FetchSource source, Downloader d) {
        List<String> warnings = new ArrayList<>();
        List<Cached> fresh = new ArrayList<>();
        String listing = null;
        List<String> read = new ArrayList<>();
        if (refresh) {
            listing = ManifestRefresh.where(source);
            fresh.addAll(ManifestRefresh.refresh(host, base, source, d, warnings));
            fresh.forEach(c -> read.add(c.manifest().label()));
        }
        List<Cached> all = new ArrayList<>(fresh);
        Set<String> seen = new HashSet<>(read);
        for (Cached c : load(host, warnings)) {
            if (seen.add(c.manifest().label())) {
                all.add(c);
            }
        }
        return merge(base, all, warnings, listing == null ? null : Secrets.redact(listing), read);
    }

    private static Merged merge(Catalogue base, List<Cached> cached, List<String> warnings, String listing, List<String> read) {
        Catalogue c = base;
        Map<String, Instant> byFile = new LinkedHashMap<>();
        for (Cached m : cached) {
            c = c.withManifest(m.manifest()); // exit 3 when it disagrees with the catalogue, both values named
            for (CatalogueEntry e : m.manifest().entries()) {
                if (base.lookup(e.fileName()).isEmpty()) {
                    byFile.putIfAbsent(e.fileName(), m.read());
                }
            }
        }
        return new Merged(c, byFile, List.copyOf(new LinkedHashSet<>(warnings)), listing, List.copyOf(read));
    }

    /** Why the cache folder may not hold manifests (another user's, writable by others, a link), or null. */
    static String notOwn(Host host, Path dir) {
        UserPrincipal caller = SafeFiles.caller(host.fs());
        String why = SafeFiles.notOwn(dir.getParent(), caller);
        return why != null ? why : SafeFiles.notOwn(dir, caller);
    }

    /** The cached manifests, each checked; one that cannot be used is a warning and left out. */
    static List<Cached> load(Host host, List<String> warnings) {
        Path dir = dir(host);
        if (dir == null || !SafeFiles.present(dir)) {
            return List.of();
        }
        String notOwn = notOwn(host, dir);
        if (notOwn != null) {
            warnings.add("the cached manifests are not used: " + notOwn + " (set " + ArchiveCache.ENV + " to a folder of your own)");
            return List.of();
        }
        UserPrincipal caller = SafeFiles.caller(host.fs());
        List<Cached> out = new ArrayList<>();
        int seen = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path p : files) {
                String label = RedistListing.labelOf(p.getFileName().toString());
                if (label == null) {
                    continue;
                }
                if (++seen > MAX_CACHED) {
                    warnings.add("over " + MAX_CACHED + " cached manifests in " + dir + ": the rest are not read");
                    break;
                }
                Cached c = one(p, label, caller, warnings);
                if (c != null) {
                    out.add(c);
                }
            }
        } catch (IOException | RuntimeException x) {
            if (x instanceof ToolException t && t.exitCode() == ExitCode.ARCHIVE_REJECTED) {
                throw t;
            }
            warnings.add("the cached manifests in " + dir + " cannot be read (" + x.getMessage() + ")");
        }
        out.sort((a, b) -> RedistListing.NEWEST_FIRST.compare(a.manifest().label(), b.manifest().label()));
        return out;
    }

    private static Cached one(Path p, String label, UserPrincipal caller, List<String> warnings) {
        try {
            if (!SafeFiles.plainOwnFile(p, caller)) {
                return null;
            }
        } catch (ToolException refused) {
            warnings.add("the cached manifest " + p + " is not used: " + refused.getMessage().replace(": fetch never reads or writes through it", "")
                    + " (it is never read through)");
            return null;
        }
        byte[] bytes;
        Instant read;
        try (InputStream in = Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS)) {
            bytes = in.readNBytes(RedistManifest.MAX_BYTES + 1);
            read = Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant();
        } catch (IOException x) {
            warnings.add("the cached manifest " + p + " cannot be read (" + x.getMessage() + ")");
            return null;
        }
        try {
            RedistManifest m = RedistManifest.parse(bytes);
            if (!m.label().equals(label)) {
                throw new IllegalArgumentException("its release_label " + m.label() + " is another release's");
            }
            return new Cached(m, read, p);
        } catch (IllegalArgumentException bad) {
            warnings.add("the cached manifest " + p + " is not used: " + bad.getMessage());
            return null;
        }
    }

    /**
     * Keeps a manifest just read: {@code dir/redistrib_<label>.json} written under a new temporary name (never through a
     * link) and renamed over the name, which must be absent or a plain file of the caller's ({@link SafeFiles}, exit 5
     * otherwise); its time is when it was read. Returns where it lies, or null (and a warning) when the cache folder is
     * not the caller's or cannot be written.
     */
    static Path store(Host host, RedistManifest m, byte[] bytes, Instant read, List<String> warnings) {
        Path dir = dir(host);
        if (dir == null) {
            warnings.add("no cache folder (HOME not set): the manifests read are not kept (set " + ArchiveCache.ENV + ")");
            return null;
        }
        String notOwn = notOwn(host, dir);
        if (notOwn != null) {
            warnings.add("the cache folder is not used: " + notOwn + "; the manifests read are not kept (set "
                    + ArchiveCache.ENV + " to a folder of your own)");
            return null;
        }
        Path file = dir.resolve(RedistManifest.fileName(m.label()));
        Path tmp = dir.resolve(file.getFileName() + "." + Long.toHexString(System.nanoTime()) + ".tmp");
        try {
            Files.createDirectories(dir);
            String after = notOwn(host, dir);
            if (after != null) {
                warnings.add("the cache folder is not used: " + after + "; the manifests read are not kept");
                return null;
            }
            SafeFiles.plainOwnFile(file, SafeFiles.caller(host.fs())); // exit 5 for a link, FIFO, another's file
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS)) {
                out.write(bytes);
            }
            Files.setLastModifiedTime(tmp, FileTime.from(read));
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException x) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // left as a .tmp, never read
            }
            warnings.add("the manifest " + file.getFileName() + " cannot be kept in " + dir + " (" + x.getMessage() + ")");
            return null;
        }
    }

    /** Now, to the second (what a file time keeps everywhere). */
    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS);
    }
}
