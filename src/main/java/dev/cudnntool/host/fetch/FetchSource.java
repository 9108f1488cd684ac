package dev.cudnntool.host.fetch;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Where {@code cudnn fetch} gets a file: NVIDIA's redist server (the catalogue's URL), a mirror's
 * base URL ({@code --from URL} or {@code CUDNN_TOOL_MIRROR}) laid out as NVIDIA's redist folder
 * ({@code BASE/cudnn/<platform>/FILE}; a file without an NVIDIA URL at {@code BASE/FILE}), or a
 * folder ({@code --from DIR}) holding the file itself.
 *
 * @param base   the mirror's base URL ending in "/", or null
 * @param folder the folder, or null
 */
public record FetchSource(String base, Path folder) {
    public static final FetchSource NVIDIA = new FetchSource(null, null);

    /** {@code --from URL}: an http or https URL; anything else is exit 2 naming {@code option}. */
    public static FetchSource mirror(String option, String url) {
        String t = url.trim();
        try {
            URI u = new URI(t);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null) {
                throw new URISyntaxException(t, "not an http or https URL with a host");
            }
        } catch (URISyntaxException e) {
            throw new ToolException(ExitCode.USAGE, option + " " + Text.printable(Text.oneLine(Secrets.redact(t))) + " is not an http(s) URL",
                    "pass the mirror's base URL (https://mirror.example/cudnn/redist/) or a folder holding the archives", e);
        }
        return new FetchSource(t.endsWith("/") ? t : t + "/", null);
    }

    public static FetchSource folder(Path dir) {
        return new FetchSource(null, dir);
    }

    /** Whether a word names a URL rather than a folder. */
    public static boolean looksLikeUrl(String s) {
        String l = s.trim().toLowerCase(Locale.ROOT);
        return l.startsWith("http://") || l.startsWith("https://") || l.contains("://");
    }

    /**
     * The URL to download {@code e} from: NVIDIA's public URL of every catalogue row ({@link CatalogueEntry#downloadUrl()}),
     * or the mirror's (the redist path under BASE; an archive of NVIDIA's older folder at BASE/FILE); empty only for a
     * name NVIDIA serves from no folder known. It may hold the mirror's user and password: print it through {@link Secrets}.
     */
    public Optional<String> url(CatalogueEntry e) {
        if (base == null) {
            return e.downloadUrl();
        }
        String relative = e.downloadUrl().filter(u -> u.startsWith(CatalogueEntry.REDIST))
                .map(u -> u.substring(CatalogueEntry.REDIST.length())).orElse(e.fileName());
        return Optional.of(base + relative);
    }
}
