package dev.cudnntool.archive.catalogue;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Failures;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.ArchiveName;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The checksum an archive must have: from --sha256, from NVIDIA's redistrib_X.json, or from the
 * built-in {@link Catalogue} (which also says when a name is not in it).
 *
 * @param sha256   the expected sha256; null for {@link Origin#NOT_IN_CATALOGUE}
 * @param size     the expected size in bytes (manifests and the catalogue give it), or null
 * @param source   where the expectation came from, for messages
 * @param origin   who set it: the user (--sha256/--manifest) or the catalogue
 * @param accepted every sha256 that passes (a disputed catalogue name has several); empty for the user's
 */
public record ChecksumExpectation(String sha256, Long size, String source, Origin origin, List<String> accepted) {
    private static final Pattern HEX64 = Pattern.compile("[0-9a-fA-F]{64}");
    static final String CATALOGUE_SOURCE = "NVIDIA's published sha256";

    public enum Origin { USER, CATALOGUE, NOT_IN_CATALOGUE }

    public ChecksumExpectation {
        accepted = accepted == null ? List.of() : List.copyOf(accepted);
    }

    public ChecksumExpectation(String sha256, Long size, String source) {
        this(sha256, size, source, Origin.USER, List.of());
    }

    static ChecksumExpectation fromCatalogue(CatalogueEntry e) {
        return new ChecksumExpectation(e.sha256(), e.size(), CATALOGUE_SOURCE, Origin.CATALOGUE, e.accepted());
    }

    static ChecksumExpectation notInCatalogue(int known) {
        return new ChecksumExpectation(null, null, "the built-in catalogue (" + known + " archives)",
                Origin.NOT_IN_CATALOGUE, List.of());
    }

    /**
     * Before the read: a catalogue size that differs from the file's is reported at once (exit 3),
     * so a truncated download costs no minutes of reading. The user's --manifest size keeps
     * today's behaviour (compared with the sha256 after the read).
     */
    public void checkSizeBeforeReading(ArchiveName name, long fileSize) {
        if (origin != Origin.CATALOGUE || size == null || size == fileSize) {
            return;
        }
        String what = fileSize < size ? "the download is incomplete" : "the file is not NVIDIA's archive";
        throw new ToolException(ExitCode.ARCHIVE_REJECTED,
                String.format(Locale.ROOT, "%s: the file is %,d bytes; NVIDIA's is %,d: %s",
                        name.fileName(), fileSize, size, what),
                "download " + name.canonicalName() + " again " + Catalogue.downloadFrom(name.canonicalName()));
    }

    /** The findings of a catalogue-derived expectation after the read; the user's are judged by the inspector. */
    public List<Finding> catalogueFindings(ArchiveName name, String actual, long fileSize) {
        List<Finding> out = new ArrayList<>();
        if (origin == Origin.NOT_IN_CATALOGUE) {
            out.add(Finding.info(FindingId.ARCHIVE_SHA256, "sha256 " + actual
                    + " (not compared: pass --sha256 or --manifest redistrib_<version>.json to check it)"));
            out.add(Finding.info(FindingId.ARCHIVE_NOT_IN_CATALOGUE, name.canonicalName() + " is not in " + source
                    + " of NVIDIA's published checksums; its sha256 was not compared"));
            return out;
        }
        if (!accepted.contains(actual)) {
            out.add(Finding.error(FindingId.ARCHIVE_CHECKSUM_MISMATCH,
                    "sha256 of " + name.fileName() + " is " + actual + " (" + fileSize + " bytes) but " + source
                            + " for " + name.canonicalName() + " is " + String.join(" or ", accepted)
                            + (size == null ? "" : " (" + size + " bytes)"),
                    "the download is damaged or not NVIDIA's: download " + name.canonicalName() + " again "
                            + Catalogue.downloadFrom(name.canonicalName())));
        } else if (accepted.size() > 1) {
            List<String> others = new ArrayList<>(accepted);
            others.remove(actual);
            out.add(Finding.warn(FindingId.ARCHIVE_CHECKSUM_DISPUTED,
                    "sha256 " + actual + " is one of " + accepted.size() + " values public sources give for "
                            + name.canonicalName() + " (they disagree; also seen: " + String.join(", ", others)
                            + "); NVIDIA's own value could not be settled",
                    "if you can, compare with the sha256 on NVIDIA's download page, or pass it with --sha256"));
        } else {
            out.add(Finding.info(FindingId.ARCHIVE_GENUINE, "sha256 " + actual + " matches NVIDIA's published sha256 for "
                    + name.canonicalName()));
        }
        return out;
    }

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
            root = new ObjectMapper().readTree(BoundedFiles.read(manifest, BoundedFiles.DOCUMENT));
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new ToolException(ExitCode.USAGE, "manifest " + manifest + " is not valid JSON"
                    + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")") + ": "
                    + Text.printable(oneLine(e.getOriginalMessage())),
                    "pass NVIDIA's redistrib_<version>.json for this release, as downloaded", e);
        } catch (IOException e) {
            throw new ToolException(ExitCode.USAGE, "cannot read manifest " + manifest + " (" + reason(e) + ")",
                    "pass NVIDIA's redistrib_<version>.json for this release", e);
        }
        if (root == null || root.isMissingNode()) {
            throw new ToolException(ExitCode.USAGE, "manifest " + manifest + " is empty",
                    "pass NVIDIA's redistrib_<version>.json for this release, as downloaded");
        }
        List<JsonNode> candidates = new ArrayList<>();
        collect(root, candidates);
        List<String> names = new ArrayList<>();
        for (JsonNode c : candidates) {
            String rel = c.get("relative_path").asText();
            String file = rel.substring(rel.lastIndexOf('/') + 1);
            names.add(Text.printable(file));
            if (file.equals(archiveFileName) && c.hasNonNull("sha256")) {
                String sha = c.get("sha256").asText().trim();
                if (!HEX64.matcher(sha).matches()) {
                    throw bad(manifest, archiveFileName, "its sha256 '" + Text.printable(sha)
                            + "' is not 64 hexadecimal digits");
                }
                Long size = null;
                if (c.hasNonNull("size")) {
                    String text = c.get("size").asText().trim();
                    if (!text.matches("\\d{1,18}")) {
                        throw bad(manifest, archiveFileName, "its size '" + Text.printable(text) + "' is not a number of bytes");
                    }
                    size = Long.valueOf(text);
                }
                return new ChecksumExpectation(sha.toLowerCase(Locale.ROOT), size, manifest.getFileName().toString());
            }
        }
        throw new ToolException(ExitCode.USAGE,
                "manifest " + manifest.getFileName() + " has no entry for " + archiveFileName
                        + (names.isEmpty() ? "" : " (it lists " + String.join(", ", names) + ")"),
                "pass the redistrib_<version>.json of the same release as the archive");
    }

    private static ToolException bad(Path manifest, String archiveFileName, String why) {
        return new ToolException(ExitCode.USAGE, "manifest " + manifest + " has an entry for " + archiveFileName
                + " but " + why, "pass NVIDIA's redistrib_<version>.json for this release, as downloaded");
    }

    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return Text.printable(f.getReason());
        }
        return e.getMessage() == null ? Failures.kind(e) : Text.printable(oneLine(e.getMessage()));
    }

    private static String oneLine(String m) {
        if (m == null) {
            return "unreadable JSON";
        }
        // Jackson names its input source (" at [Source: ...; line: 1, column: 11]"): the line and column are said once already
        return m.replaceAll("\\s*\\((?:start marker )?at \\[Source:[^\\]]*\\]\\)", "")
                .replaceAll("\\s*at \\[Source:[^\\]]*\\]", "")
                .replaceAll(":\\s*was expecting \\([^)]*\\)", "") // lists JSON's literals, 'null' among them
                .replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ').trim();
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
