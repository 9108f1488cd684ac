package dev.cudnntool.archive.catalogue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.archive.name.ArchiveName;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One NVIDIA {@code redistrib_<label>.json} (cudnn-facts §2), read as hostile input (#30 item 2): at most
 * {@value #MAX_BYTES} bytes, a {@code release_product} starting with {@code cudnn}, a {@code release_label} of
 * digits and dots; from the {@code cudnn} component only, each archive's {@code relative_path} must be exactly
 * {@code cudnn/<platform>/<file>} where {@code <platform>} is its key and {@code <file>} a cuDNN archive name of
 * that platform, its {@code sha256} 64 hex digits and its {@code size} a positive decimal. Anything else refuses
 * the whole manifest ({@link IllegalArgumentException} with the reason).
 *
 * @param label   the release label ({@code 9.5.1})
 * @param date    {@code release_date}, or null
 * @param entries the archives, as catalogue entries (each listed in a redist manifest)
 */
public record RedistManifest(String label, String date, List<CatalogueEntry> entries) {
    public static final int MAX_BYTES = 1 << 20;
    private static final int MAX_ENTRIES = 200;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LABEL = Pattern.compile("\\d{1,4}(?:\\.\\d{1,6}){1,3}");
    private static final Pattern PLATFORM = Pattern.compile("(?:linux|windows)-[a-z0-9_]{1,16}");
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern SIZE = Pattern.compile("[1-9]\\d{0,17}");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    public RedistManifest {
        entries = List.copyOf(entries);
    }

    /** The manifest's file name for a version or label: {@code redistrib_9.5.1.json} for 9.5.1 and 9.5.1.17. */
    public static String fileName(String version) {
        String[] p = version.split("\\.");
        if (!LABEL.matcher(version).matches() || p.length < 3) {
            throw new IllegalArgumentException("not a release version: " + version);
        }
        return "redistrib_" + p[0] + "." + p[1] + "." + p[2] + ".json";
    }

    public static RedistManifest parse(byte[] bytes) {
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("the manifest is over " + MAX_BYTES + " bytes");
        }
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException("the manifest is not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the manifest is not a JSON object");
        }
        String product = text(root, "release_product");
        if (product == null || !product.startsWith("cudnn")) {
            throw new IllegalArgumentException("the manifest's release_product is not cuDNN's");
        }
        String label = text(root, "release_label");
        if (label == null || !LABEL.matcher(label).matches()) {
            throw new IllegalArgumentException("the manifest's release_label is not a version");
        }
        String date = text(root, "release_date");
        if (date != null && !DATE.matcher(date).matches()) {
            date = null;
        }
        JsonNode cudnn = root.get("cudnn");
        if (cudnn == null || !cudnn.isObject()) {
            throw new IllegalArgumentException("the manifest lacks its cudnn component");
        }
        List<CatalogueEntry> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = cudnn.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!PLATFORM.matcher(f.getKey()).matches() || !f.getValue().isObject()) {
                continue; // name, license, version, cuda_variant, source …
            }
            JsonNode v = f.getValue();
            if (v.has("relative_path")) {
                out.add(archive(f.getKey(), v, label, date));
            } else {
                for (Iterator<Map.Entry<String, JsonNode>> c = v.fields(); c.hasNext(); ) {
                    Map.Entry<String, JsonNode> variant = c.next();
                    if (variant.getValue().isObject() && variant.getValue().has("relative_path")) {
                        out.add(archive(f.getKey(), variant.getValue(), label, date));
                    }
                }
            }
            if (out.size() > MAX_ENTRIES) {
                throw new IllegalArgumentException("the manifest lists over " + MAX_ENTRIES + " archives");
            }
        }
        return new RedistManifest(label, date, out);
    }

    private static CatalogueEntry archive(String platform, JsonNode a, String label, String date) {
        String path = text(a, "relative_path");
        String prefix = "cudnn/" + platform + "/";
        if (path == null || !path.startsWith(prefix) || path.length() > 300) {
            throw new IllegalArgumentException("a relative_path is not under " + prefix);
        }
        String file = path.substring(prefix.length());
        ArchiveName n;
        try {
            n = ArchiveName.parse(file);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("a relative_path does not name a cuDNN archive");
        }
        if (!n.canonicalName().equals(file) || !file.startsWith("cudnn-" + platform + "-")) {
            throw new IllegalArgumentException("a relative_path names another platform's file or spells it otherwise");
        }
        String version = n.version().toString();
        if (!(version.equals(label) || version.startsWith(label + "."))) {
            throw new IllegalArgumentException("a relative_path names another release than " + label);
        }
        String sha = text(a, "sha256");
        if (sha == null || !HEX64.matcher(sha).matches()) {
            throw new IllegalArgumentException("an archive's sha256 is not 64 lower-case hex digits");
        }
        String size = a.has("size") && (a.get("size").isTextual() || a.get("size").isIntegralNumber()) ? a.get("size").asText() : null;
        if (size == null || !SIZE.matcher(size).matches()) {
            throw new IllegalArgumentException("an archive's size is not a positive number");
        }
        return new CatalogueEntry(file, version, n.os().label(), n.arch().label(), n.cudaVariant().toString(),
                n.format().label(), sha, Long.parseLong(size), date, List.of(), true);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }
}
