package dev.cudnntool.host.fetch;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.RedistManifest;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.ReleaseFilter;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * #30 item 2: NVIDIA's manifests as the live source of truth. When the catalogue lacks the release asked for,
 * or its size or URL, {@code redistrib_<label>.json} is read from the same place the archive comes from
 * (NVIDIA's redist root, the mirror's base URL, or the {@code --from} folder), bounded and validated
 * ({@link RedistManifest}), and merged ({@link Catalogue#withManifest}: a sha256 or size that disagrees with the
 * catalogue is exit 3, both values named).
 */
public final class ManifestLookup {
    private static final Pattern VERSION = Pattern.compile("\\d{1,4}(?:\\.\\d{1,6}){2,3}");

    private ManifestLookup() {
    }

    /** The archive {@code fetch WHAT} (or {@code install --release}) means, with the manifest read where needed. */
    public static CatalogueEntry select(Catalogue c, ReleaseFilter f, String what, Integer toolkitMajor, String sha256,
                                        FetchSource source, Downloader d) {
        if (sha256 != null) {
            FetchSelection.sha256(sha256); // a usage error before anything is read
        }
        String version = version(what);
        ToolException first = null;
        CatalogueEntry e = null;
        try {
            e = FetchSelection.one(c, f, what, toolkitMajor, sha256);
            if (e.size() != null && e.downloadUrl().isPresent()) {
                return e;
            }
            version = version != null ? version : version(e.version());
            if (version == null || !manifested(version)) {
                return e;
            }
        } catch (ToolException x) {
            if (version == null || x.exitCode() != ExitCode.USAGE || !manifested(version)) {
                throw x;
            }
            first = x;
        }
        RedistManifest m;
        try {
            m = read(source, version, d);
        } catch (ToolException x) {
            if (first == null || x.exitCode() != ExitCode.HOST_NOT_READY) {
                throw x;
            }
            // offline: the release is still unknown here (a usage error), and the reason is said
            throw new ToolException(first.exitCode(), first.getMessage() + "; NVIDIA's manifest could not be read ("
                    + x.getMessage() + ")", first.fix(), x);
        }
        if (m == null) {
            if (first != null) {
                throw new ToolException(first.exitCode(), first.getMessage() + "; no manifest "
                        + RedistManifest.fileName(version) + " at " + Secrets.redact(where(source, version)), first.fix());
            }
            return e;
        }
        return FetchSelection.one(c.withManifest(m), f, what, toolkitMajor, sha256);
    }

    /** NVIDIA's redist manifests begin with 8.5.0 (cudnn-facts §6): older releases have none to read. */
    static boolean manifested(String version) {
        String[] p = version.split("\\.");
        int major = Integer.parseInt(p[0]);
        int minor = Integer.parseInt(p[1]);
        return major > 8 || major == 8 && minor >= 5;
    }

    /** The release a VERSION or FILE names (a 3- or 4-number version), or null. */
    static String version(String what) {
        String w = what.trim();
        if (VERSION.matcher(w).matches()) {
            return w;
        }
        try {
            String v = ArchiveName.parse(w).version().toString();
            return VERSION.matcher(v).matches() ? v : null;
        } catch (RuntimeException notAName) {
            return null;
        }
    }

    static String where(FetchSource source, String version) {
        String name = RedistManifest.fileName(version);
        if (source.folder() != null) {
            return source.folder().resolve(name).toString();
        }
        return (source.base() != null ? source.base() : CatalogueEntry.REDIST) + name;
    }

    /** The manifest of {@code version} from the source; null when the source has none (404, or no such file). */
    public static RedistManifest read(FetchSource source, String version, Downloader d) {
        byte[] bytes = bytes(source, version, d);
        return bytes == null ? null : parse(source, version, bytes);
    }

    /** The bytes of {@code version}'s manifest from the source (at most one over {@link RedistManifest#MAX_BYTES}); null when absent. */
    static byte[] bytes(FetchSource source, String version, Downloader d) {
        String where = where(source, version);
        if (source.folder() != null) {
            Path p = source.folder().resolve(RedistManifest.fileName(version));
            if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
            try (InputStream in = Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS)) {
                return in.readNBytes(RedistManifest.MAX_BYTES + 1);
            } catch (IOException x) {
                throw new ToolException(ExitCode.HOST_NOT_READY, "cannot read " + p + ": " + x.getMessage(), "check the folder", x);
            }
        }
        try (Downloader.Response r = d.get(URI.create(where), 0)) {
            if (r.status() == 404 || r.status() == 410) {
                return null;
            }
            if (r.status() != 200) {
                throw new ToolException(r.status() >= 500 ? ExitCode.HOST_NOT_READY : ExitCode.ARCHIVE_REJECTED,
                        "reading the manifest " + Secrets.redact(where) + " failed (HTTP " + r.status() + ")",
                        "check the mirror (--from, CUDNN_TOOL_MIRROR), or try again later");
            }
            return r.body().readNBytes(RedistManifest.MAX_BYTES + 1);
        } catch (IOException x) {
            throw new ToolException(ExitCode.HOST_NOT_READY, "reading the manifest " + Secrets.redact(where) + " failed: "
                    + Secrets.redact(String.valueOf(x.getMessage())),
                    "check the network (and HTTPS_PROXY/NO_PROXY), then run the same command again", x);
        }
    }

    /** Validates {@code version}'s manifest read from the source (exit 3 naming where it came from). */
    static RedistManifest parse(FetchSource source, String version, byte[] bytes) {
        String where = where(source, version);
        try {
            RedistManifest m = RedistManifest.parse(bytes);
            if (!RedistManifest.fileName(m.label()).equals(RedistManifest.fileName(version))) {
                throw new IllegalArgumentException("its release_label " + m.label() + " is another release's");
            }
            return m;
        } catch (IllegalArgumentException x) {
            throw new ToolException(ExitCode.ARCHIVE_REJECTED, "the manifest " + Secrets.redact(where) + " is refused: "
                    + x.getMessage(), "check the mirror's copy of NVIDIA's manifest, or fetch from NVIDIA's server");
        }
    }
}
