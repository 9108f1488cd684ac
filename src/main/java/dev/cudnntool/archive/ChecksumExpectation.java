package dev.cudnntool.archive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The checksum an archive must have: from --sha256, or from NVIDIA's redistrib_X.json.
 *
 * @param size   the expected size in bytes (manifests give it), or null
 * @param source where the expectation came from, for messages
 */
public record ChecksumExpectation(String sha256, Long size, String source) {
    private static final Pattern HEX64 = Pattern.compile("[0-9a-fA-F]{64}");

    public static ChecksumExpectation ofHex(String hex) {
        if (hex == null || !HEX64.matcher(hex.trim()).matches()) {
            throw new ToolException(ExitCode.USAGE, "--sha256 needs 64 hexadecimal digits, got '" + hex + "'",
                    "copy the sha256 from NVIDIA's redistrib_<version>.json or the download page");
        }
        return new ChecksumExpectation(hex.trim().toLowerCase(Locale.ROOT), null, "--sha256");
    }

    /**
     * Finds the entry of NVIDIA's manifest whose relative_path ends with the archive's file name.
     * Key order varies between releases, and from 9.12 there are other components, so the whole
     * tree is searched.
     */
    public static ChecksumExpectation fromManifest(Path manifest, String archiveFileName) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readAllBytes(manifest));
        } catch (IOException e) {
            throw new ToolException(ExitCode.USAGE, "cannot read manifest " + manifest + ": " + e.getMessage(),
                    "pass NVIDIA's redistrib_<version>.json for this release", e);
        }
        List<JsonNode> candidates = new ArrayList<>();
        collect(root, candidates);
        List<String> names = new ArrayList<>();
        for (JsonNode c : candidates) {
            String rel = c.get("relative_path").asText();
            String file = rel.substring(rel.lastIndexOf('/') + 1);
            names.add(file);
            if (file.equals(archiveFileName) && c.hasNonNull("sha256")) {
                Long size = c.hasNonNull("size") ? Long.valueOf(c.get("size").asText()) : null;
                return new ChecksumExpectation(c.get("sha256").asText().toLowerCase(Locale.ROOT), size,
                        manifest.getFileName().toString());
            }
        }
        throw new ToolException(ExitCode.USAGE,
                "manifest " + manifest.getFileName() + " has no entry for " + archiveFileName
                        + (names.isEmpty() ? "" : " (it lists " + String.join(", ", names) + ")"),
                "pass the redistrib_<version>.json of the same release as the archive");
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isObject()) {
            if (node.hasNonNull("relative_path")) {
                out.add(node);
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                collect(it.next().getValue(), out);
            }
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, out));
        }
    }
}
