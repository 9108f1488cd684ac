package dev.cudnntool.host.fetch;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The redist folder's listing (#30 item 2, {@code releases --refresh}): NVIDIA serves an HTML index of
 * {@code https://developer.download.nvidia.com/compute/cudnn/redist/}; a mirror may serve the same. It is read
 * loosely and as hostile input: at most {@value #MAX_BYTES} bytes, only the {@code href}s that name
 * {@code redistrib_<label>.json} in that very folder (a bare name, {@code ./name}, the folder's own path or its
 * full URL on the same host) count; a link with {@code ..}, another folder, another host or scheme, a query is
 * never followed. A label is three numbers ({@code 9.30.0}); more than {@value #MAX_LABELS} distinct ones refuse
 * the listing ({@link IllegalArgumentException} with the reason).
 */
public final class RedistListing {
    /** The most bytes of a listing read (NVIDIA's is a few KiB). */
    public static final int MAX_BYTES = 2 << 20;
    /** The most distinct manifests a listing may name (NVIDIA's names a few dozen). */
    public static final int MAX_LABELS = 512;
    private static final int MAX_HREF = 2048;
    private static final Pattern HREF = Pattern.compile(
            "(?i)href[ \\t\\r\\n]{0,16}=[ \\t\\r\\n]{0,16}(?:\"([^\"<>]{0," + MAX_HREF + "})\"|'([^'<>]{0," + MAX_HREF
                    + "})'|([^ \\t\\r\\n\"'<>]{1," + MAX_HREF + "}))");
    private static final Pattern NAME = Pattern.compile("redistrib_(\\d{1,4}\\.\\d{1,6}\\.\\d{1,6})\\.json");

    private RedistListing() {
    }

    /**
     * The labels the listing names, newest first. {@code base} is the folder's URL ending in "/" (null for a folder on
     * disk: then only bare names count).
     */
    public static List<String> labels(String base, byte[] html) {
        if (html.length > MAX_BYTES) {
            throw new IllegalArgumentException("the listing is over " + MAX_BYTES + " bytes");
        }
        String text = new String(html, StandardCharsets.UTF_8);
        URI folder = base == null ? null : URI.create(base);
        TreeSet<String> out = new TreeSet<>(NEWEST_FIRST);
        Matcher m = HREF.matcher(text);
        while (m.find()) {
            String href = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
            String label = label(folder, href.trim());
            if (label != null && out.add(label) && out.size() > MAX_LABELS) {
                throw new IllegalArgumentException("the listing names over " + MAX_LABELS + " manifests");
            }
        }
        return new ArrayList<>(out);
    }

    /** The label a manifest file name gives ({@code redistrib_9.5.1.json} → 9.5.1), or null. */
    public static String labelOf(String fileName) {
        Matcher m = NAME.matcher(fileName);
        return m.matches() ? m.group(1) : null;
    }

    /** The label of an href that names a manifest in {@code folder} itself, or null. */
    static String label(URI folder, String href) {
        String h = href.startsWith("./") ? href.substring(2) : href;
        String direct = labelOf(h);
        if (direct != null) {
            return direct;
        }
        if (folder == null || h.isEmpty() || h.contains("..") || h.contains("\\") || h.contains("?") || h.contains("#")
                || h.contains("%")) {
            return null;
        }
        URI u;
        try {
            u = new URI(h);
        } catch (URISyntaxException bad) {
            return null;
        }
        String path = u.getRawPath();
        if (path == null || u.getRawQuery() != null || u.getRawFragment() != null) {
            return null;
        }
        if (u.isAbsolute() || u.getRawAuthority() != null) {
            String scheme = u.getScheme() == null ? folder.getScheme() : u.getScheme();
            if (!scheme.toLowerCase(Locale.ROOT).equals(folder.getScheme().toLowerCase(Locale.ROOT))
                    || u.getHost() == null || !u.getHost().equalsIgnoreCase(folder.getHost()) || u.getPort() != folder.getPort()) {
                return null; // another host, port or scheme: never followed
            }
        } else if (!path.startsWith("/")) {
            return null; // another folder below this one
        }
        String own = folder.getRawPath() == null || folder.getRawPath().isEmpty() ? "/" : folder.getRawPath();
        if (!path.startsWith(own)) {
            return null;
        }
        return labelOf(path.substring(own.length()));
    }

    /** Newest label first (numbers compared as numbers). */
    public static final Comparator<String> NEWEST_FIRST = (a, b) -> {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < 3; i++) {
            int c = Long.compare(Long.parseLong(y[i]), Long.parseLong(x[i]));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    };
}
