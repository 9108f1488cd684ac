package dev.cudnntool.archive.catalogue;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the catalogue's JSON with Jackson's streaming parser: only the fields an entry needs are
 * kept, everything else (the provenance text that makes up most of the 400 KB) is skipped unread.
 * A tree parse of the same bytes cost about 200 ms of a cold start, paid by every install before
 * the archive was opened; this costs about 40. Validation and messages are those of the data's schema 1.
 */
final class CatalogueReader {
    private static final JsonFactory JSON = new JsonFactory();
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    private static final String RELEASE_DATE = "releaseDate";
    /** An NVIDIA redist manifest among an entry's sources ("NixOS/nixpkgs:…/cudnn/redistrib_9.5.1.json"). */
    private static final Pattern REDIST_SOURCE = Pattern.compile("(?:^|[/:])redistrib_\\d{1,6}(?:\\.\\d{1,6}){1,3}\\.json");
    /** Set in an entry's scalars when one of its {@code sources} is a redist manifest. */
    private static final String IN_REDIST = " inRedist";
    /** Marks a field that is present with JSON null (absent fields are simply not in the map). */
    private static final Object NULL = new Object();

    private CatalogueReader() {
    }

    /** Every archive, then every disputed name, as {@link Catalogue#parse} promises. */
    static List<CatalogueEntry> entries(byte[] json, int schema) {
        Long foundSchema = null;
        List<CatalogueEntry> archives = null;
        List<CatalogueEntry> conflicts = null;
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("catalogue schema is not " + schema);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "schema" -> foundSchema = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : null;
                    case "archives" -> archives = value == JsonToken.START_ARRAY ? objects(p, false) : skip(p);
                    case "conflicts" -> conflicts = value == JsonToken.START_ARRAY ? objects(p, true) : skip(p);
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("catalogue is not JSON: " + e.getMessage(), e);
        }
        if (foundSchema == null || foundSchema != schema) {
            throw new IllegalArgumentException("catalogue schema is not " + schema);
        }
        if (archives == null) {
            throw lacksArray("archives");
        }
        if (conflicts == null) {
            throw lacksArray("conflicts");
        }
        List<CatalogueEntry> out = new ArrayList<>(archives);
        out.addAll(conflicts);
        return out;
    }

    /** {@code {"dates": {"9.5.1": "2024-10-25"}}}: NVIDIA's manifest dates per release label. */
    static Map<String, String> dates(byte[] json) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return out;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (!field.equals("dates") || value != JsonToken.START_OBJECT) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String label = p.currentName();
                    p.nextToken();
                    if (p.currentToken().isScalarValue()) {
                        out.put(label, p.getValueAsString(""));
                    } else {
                        p.skipChildren();
                    }
                }
            }
        }
        return out;
    }

    private static List<CatalogueEntry> skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    /** The entries of one array; the parser stands on its START_ARRAY. */
    private static List<CatalogueEntry> objects(JsonParser p, boolean disputed) throws IOException {
        List<CatalogueEntry> out = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                p.skipChildren();
                throw new IllegalArgumentException("catalogue entry ? lacks 'fileName'");
            }
            Fields f = fields(p, disputed);
            out.add(disputed ? conflict(f) : archive(f));
        }
        return out;
    }

    /** The scalar fields of one object, and for a conflict its candidates; other values skipped. */
    private record Fields(Map<String, Object> scalars, List<Map<String, Object>> candidates) {
        String name() {
            Object n = scalars.get("fileName");
            return n instanceof String s ? s : "?";
        }
    }

    private static Fields fields(JsonParser p, boolean withCandidates) throws IOException {
        Map<String, Object> scalars = new HashMap<>();
        List<Map<String, Object>> candidates = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (withCandidates && field.equals("candidates")) {
                candidates = value == JsonToken.START_ARRAY ? candidateList(p) : skipCandidates(p);
            } else if (field.equals("sources") && value == JsonToken.START_ARRAY) {
                if (redistSource(p)) {
                    scalars.put(IN_REDIST, Boolean.TRUE);
                }
            } else if (value.isScalarValue()) {
                scalars.put(field, scalar(p));
            } else {
                scalars.remove(field);
                p.skipChildren();
            }
        }
        return new Fields(scalars, candidates);
    }

    /** Whether a {@code sources} array (the parser on its START_ARRAY) names a redist manifest; other values skipped. */
    private static boolean redistSource(JsonParser p) throws IOException {
        boolean found = false;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() == JsonToken.VALUE_STRING) {
                found |= REDIST_SOURCE.matcher(p.getText()).find();
            } else {
                p.skipChildren();
            }
        }
        return found;
    }

    private static List<Map<String, Object>> skipCandidates(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    private static List<Map<String, Object>> candidateList(JsonParser p) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                p.skipChildren();
                out.add(Map.of());
                continue;
            }
            out.add(fields(p, false).scalars());
        }
        return out;
    }

    private static Object scalar(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_NULL -> NULL;
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT -> p.getNumberValue();
            default -> new OtherScalar(p.getText()); // true, false, 1.5: never a string field's value or a size
        };
    }

    /** A scalar that is neither a string, an integer nor null. */
    private record OtherScalar(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    private static CatalogueEntry archive(Fields f) {
        String name = text(f, "fileName");
        Long size = size(f.scalars(), name);
        return entry(f, sha(f.scalars(), name), size, List.of(), f.scalars().containsKey(IN_REDIST));
    }

    private static CatalogueEntry conflict(Fields f) {
        String name = f.name();
        if (f.candidates() == null) {
            throw lacksArray("candidates");
        }
        List<String> shas = new ArrayList<>();
        Long size = null;
        boolean inRedist = f.scalars().containsKey(IN_REDIST);
        for (Map<String, Object> cand : f.candidates()) {
            inRedist |= cand.containsKey(IN_REDIST);
            shas.add(sha(cand, name));
            Long s = size(cand, name);
            size = size == null ? s : size;
        }
        if (shas.size() < 2) {
            throw new IllegalArgumentException("conflict " + name + " has fewer than two candidates");
        }
        return entry(f, shas.get(0), size, shas, inRedist);
    }

    private static CatalogueEntry entry(Fields f, String sha, Long size, List<String> candidates, boolean inRedist) {
        Object date = f.scalars().get(RELEASE_DATE);
        return new CatalogueEntry(text(f, "fileName"), text(f, "version"), text(f, "os"), text(f, "arch"),
                text(f, "cudaVariant"), text(f, "format"), sha, size,
                date == null || date == NULL ? null : String.valueOf(date), candidates, inRedist);
    }

    private static String text(Fields f, String field) {
        Object v = f.scalars().get(field);
        if (!(v instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException("catalogue entry " + f.name() + " lacks '" + field + "'");
        }
        return s;
    }

    private static String sha(Map<String, Object> node, String name) {
        Object v = node.get("sha256");
        String sha = v == null || v == NULL ? "" : v.toString();
        if (!HEX64.matcher(sha).matches()) {
            throw new IllegalArgumentException("catalogue entry " + name + " has a bad sha256 '" + sha + "'");
        }
        return sha;
    }

    private static Long size(Map<String, Object> node, String name) {
        Object s = node.get("size");
        if (s == null || s == NULL) {
            return null;
        }
        if (!(s instanceof Number n) || n instanceof BigInteger || n.longValue() <= 0) {
            throw new IllegalArgumentException("catalogue entry " + name + " has a bad size " + s);
        }
        return n.longValue();
    }

    private static IllegalArgumentException lacksArray(String field) {
        return new IllegalArgumentException("catalogue lacks the array '" + field + "'");
    }
}
