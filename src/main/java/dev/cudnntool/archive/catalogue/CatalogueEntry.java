package dev.cudnntool.archive.catalogue;

import dev.cudnntool.archive.name.ArchiveName;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One archive NVIDIA published, as the built-in catalogue knows it.
 *
 * @param version      the version as written in the file name ("9.5.1.17", legacy "v7.1" names keep "7.1")
 * @param os           linux, windows or osx
 * @param arch         x86_64, sbsa, aarch64, ppc64le or arm64
 * @param cudaVariant  the CUDA text of the name: "12", "11.5"
 * @param sha256       the agreed sha256; for a disputed name the first of {@code candidates}
 * @param size         bytes, from NVIDIA's manifests only; null when unknown
 * @param releaseDate  ISO date where the data carries one, else null
 * @param candidates   for a disputed name every sha256 public sources give; empty otherwise
 * @param inRedist     one of the entry's sources is an NVIDIA {@code redistrib_<version>.json} manifest, so the
 *                     file lies on NVIDIA's redist server (see {@link #url()})
 */
public record CatalogueEntry(String fileName, String version, String os, String arch, String cudaVariant,
                             String format, String sha256, Long size, String releaseDate, List<String> candidates,
                             boolean inRedist) {
    /** NVIDIA's redist server; a manifest's {@code relative_path} is relative to it. */
    public static final String REDIST = "https://developer.download.nvidia.com/compute/cudnn/redist/";
    /** Where archives that no redist manifest lists are: NVIDIA's archive page, behind a developer login. */
    public static final String LOGIN_PAGE = "https://developer.nvidia.com/rdp/cudnn-archive";
    /** Where a legacy archive (7.x–8.2 names, never in a redist manifest) is. */
    public static final String BEHIND_LOGIN = "behind NVIDIA's login: " + LOGIN_PAGE + ", after signing in";
    /** Where a modern archive no manifest in the catalogue lists is looked for (it may be on the redist server too). */
    public static final String NO_MANIFEST = "no NVIDIA redist manifest in the catalogue lists it: look on " + LOGIN_PAGE
            + ", after signing in";
    /** The modern names a manifest's relative_path ends with: {@code cudnn-<platform>-<M.m.p.b>_cuda<N>-archive.<ext>}. */
    private static final Pattern MODERN = Pattern.compile(
            "cudnn-(linux-x86_64|linux-sbsa|linux-aarch64|linux-ppc64le|windows-x86_64)-\\d{1,6}(?:\\.\\d{1,6}){3}"
                    + "_cuda\\d{1,3}(?:\\.\\d{1,3})?-archive\\.(?:tar\\.xz|zip)");

    public CatalogueEntry {
        candidates = List.copyOf(candidates);
    }

    /** An entry no redist manifest vouches for. */
    public CatalogueEntry(String fileName, String version, String os, String arch, String cudaVariant,
                          String format, String sha256, Long size, String releaseDate, List<String> candidates) {
        this(fileName, version, os, arch, cudaVariant, format, sha256, size, releaseDate, candidates, false);
    }

    /** An undisputed entry (tests build these for the fixture archives). */
    public static CatalogueEntry of(String fileName, String sha256, Long size) {
        ArchiveName n = ArchiveName.parse(fileName);
        return new CatalogueEntry(n.canonicalName(), n.version().toString(), n.os().label(), n.arch().label(),
                n.cudaVariant().toString(), n.format().label(), sha256, size, null, List.of());
    }

    /** The same entry, as listed (or not) in a redist manifest. */
    public CatalogueEntry withRedist(boolean listed) {
        return new CatalogueEntry(fileName, version, os, arch, cudaVariant, format, sha256, size, releaseDate, candidates, listed);
    }

    /** The same entry with this release date. */
    public CatalogueEntry withReleaseDate(String date) {
        return new CatalogueEntry(fileName, version, os, arch, cudaVariant, format, sha256, size, date, candidates, inRedist);
    }

    /** Public sources disagree on this name's sha256 ({@code conflicts} in the data). */
    public boolean disputed() {
        return !candidates.isEmpty();
    }

    /** Every sha256 that passes: the agreed one, or each disputed candidate. */
    public List<String> accepted() {
        return disputed() ? candidates : List.of(sha256);
    }

    /**
     * Where NVIDIA serves the file without a login: {@value #REDIST} + the manifest's {@code relative_path},
     * {@code cudnn/<platform>/<fileName>}. Present only for an entry a redist manifest lists, in the modern
     * naming (the only one manifests use).
     */
    public Optional<String> url() {
        var m = MODERN.matcher(fileName);
        if (!inRedist || !m.matches()) {
            return Optional.empty();
        }
        return Optional.of(REDIST + "cudnn/" + m.group(1) + "/" + fileName);
    }

    /** NVIDIA's older public download folder (archives before 8.5, and 8.5–8.7 again): {@code v<X.Y.Z>/…}. */
    public static final String OLD_REDIST = "https://developer.download.nvidia.com/compute/redist/cudnn/";
    /** Any modern name, Windows on Arm included (the redist server's {@code cudnn/<platform>/} folders). */
    private static final Pattern ANY_MODERN = Pattern.compile(
            "cudnn-((?:linux|windows)-[a-z0-9_]{1,16})-(\\d{1,6})\\.(\\d{1,6})\\.(\\d{1,6})\\.\\d{1,6}"
                    + "_cuda(\\d{1,3})(?:\\.\\d{1,3})?-archive\\.(?:tar\\.xz|zip)");

    /**
     * Where NVIDIA serves the file without a login, for every catalogue row (#30 item 1; cudnn-facts §6):
     * a modern name from 8.5 on lies on the redist server ({@value #REDIST}{@code cudnn/<platform>/<file>});
     * 8.3.x and 8.4.x in the older folder's {@code v<X.Y.Z>/local_installers/<cuda>/} (11.5 for 8.3, 11.6 for
     * 8.4, 10.2 for a cuda10 build); a legacy name in {@code v<X.Y.Z>/} (the first two numbers before 7).
     * {@link #url()} stays the URL a redist manifest in the catalogue vouches for.
     */
    public Optional<String> downloadUrl() {
        Optional<String> listed = url();
        if (listed.isPresent()) {
            return listed;
        }
        var m = ANY_MODERN.matcher(fileName);
        if (m.matches()) {
            int major = Integer.parseInt(m.group(2));
            int minor = Integer.parseInt(m.group(3));
            if (major > 8 || major == 8 && minor >= 5) {
                return Optional.of(REDIST + "cudnn/" + m.group(1) + "/" + fileName);
            }
            if (major == 8 && (minor == 3 || minor == 4)) {
                String cuda = m.group(5).equals("10") ? "10.2" : minor == 3 ? "11.5" : "11.6";
                return Optional.of(OLD_REDIST + "v" + m.group(2) + "." + m.group(3) + "." + m.group(4)
                        + "/local_installers/" + cuda + "/" + fileName);
            }
            return Optional.empty();
        }
        String[] p = version.split("\\.");
        if (!version.matches("\\d{1,3}(?:\\.\\d{1,6}){1,3}") || fileName.contains("/")) {
            return Optional.empty();
        }
        int major = Integer.parseInt(p[0]);
        String folder;
        if (major < 7) {
            folder = p[0] + "." + p[1];
        } else if (p.length >= 3) {
            folder = p[0] + "." + p[1] + "." + p[2];
        } else if (version.equals("7.1")) {
            folder = "7.1.3"; // the data's releaseVersion: spack's v7.1.3/cudnn-9.1-linux-x64-v7.1.tgz
        } else {
            return Optional.empty();
        }
        return Optional.of(OLD_REDIST + "v" + folder + "/" + fileName);
    }

    /** "from URL", or "from NVIDIA's archive page (…, after signing in)" for a file no redist manifest lists: for fix texts. */
    public String from() {
        return url().map(u -> "from " + u).orElse(FROM_LOGIN_PAGE);
    }

    /** Where a file the catalogue does not know (or one behind the login) is downloaded, for fix texts. */
    public static final String FROM_LOGIN_PAGE = "from NVIDIA's cuDNN archive page (" + LOGIN_PAGE + ", after signing in)";

    /** The URL, or where the file is when it has none (NVIDIA's archive page, after signing in). */
    public String whereToDownload() {
        return url().orElse(MODERN.matcher(fileName).matches() ? NO_MANIFEST : BEHIND_LOGIN);
    }
}
