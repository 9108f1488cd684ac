package dev.cudnntool.archive.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The streaming reader against the plain reading of the same data: every field of every entry of
 * the shipped catalogue, and the shapes a damaged or edited data file can take.
 */
class CatalogueReaderTest {
    private static final String SHA = "a".repeat(64);
    private static final String OK = "{\"fileName\":\"a.zip\",\"version\":\"9.1.0.70\",\"os\":\"windows\",\"arch\":\"x86_64\","
            + "\"cudaVariant\":\"12\",\"format\":\"zip\",\"sha256\":\"" + SHA + "\",\"size\":12}";

    @Test
    void theShippedDataReadsExactlyAsATreeReadingOfItDoes() throws Exception {
        byte[] json = CatalogueTest.resource();
        List<CatalogueEntry> streamed = CatalogueReader.entries(json, Catalogue.SCHEMA);
        List<CatalogueEntry> expected = new ArrayList<>();
        JsonNode root = new ObjectMapper().readTree(json);
        for (JsonNode a : root.get("archives")) {
            expected.add(fromTree(a, a.get("sha256").asText(), size(a), List.of()).withRedist(redist(List.of(a))));
        }
        for (JsonNode c : root.get("conflicts")) {
            List<String> shas = new ArrayList<>();
            Long size = null;
            for (JsonNode cand : c.get("candidates")) {
                shas.add(cand.get("sha256").asText());
                size = size == null ? size(cand) : size;
            }
            expected.add(fromTree(c, shas.get(0), size, shas).withRedist(redist(c.get("candidates"))));
        }
        assertEquals(expected.size(), streamed.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), streamed.get(i), "entry " + i);
        }
        assertTrue(streamed.stream().anyMatch(e -> e.size() != null) && streamed.stream().anyMatch(CatalogueEntry::disputed),
                "the comparison covers sizes and disputed names");
    }

    private static CatalogueEntry fromTree(JsonNode a, String sha, Long size, List<String> candidates) {
        return new CatalogueEntry(a.get("fileName").asText(), a.get("version").asText(), a.get("os").asText(),
                a.get("arch").asText(), a.get("cudaVariant").asText(), a.get("format").asText(), sha, size,
                a.hasNonNull("releaseDate") ? a.get("releaseDate").asText() : null, candidates);
    }

    /** Whether any of these nodes lists an NVIDIA redistrib_<version>.json among its sources. */
    private static boolean redist(Iterable<JsonNode> nodes) {
        for (JsonNode n : nodes) {
            for (JsonNode src : n.path("sources")) {
                if (src.asText().matches(".*/redistrib_[0-9.]+\\.json")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Long size(JsonNode n) {
        return n.hasNonNull("size") ? n.get("size").asLong() : null;
    }

    @Test
    void fieldsItDoesNotKnowAreSkippedWhateverTheirShape() {
        String withExtras = OK.replace("\"size\":12", "\"size\":12,\"provenance\":[{\"a\":[1,{\"b\":null}]}],\"note\":true,"
                + "\"releaseDate\":\"2024-01-02\"");
        List<CatalogueEntry> e = read("{\"meta\":{\"x\":[1,2]},\"conflicts\":[],\"schema\":1,\"archives\":[" + withExtras + "]}");
        assertEquals(1, e.size());
        assertEquals(new CatalogueEntry("a.zip", "9.1.0.70", "windows", "x86_64", "12", "zip", SHA, 12L, "2024-01-02", List.of()),
                e.get(0));
    }

    @Test
    void conflictsComeAfterTheArchivesWhereverTheyStandInTheFile() {
        String conflict = "{\"fileName\":\"b.zip\",\"version\":\"9.1.0.70\",\"os\":\"windows\",\"arch\":\"x86_64\","
                + "\"cudaVariant\":\"12\",\"format\":\"zip\",\"candidates\":[{\"sha256\":\"" + "b".repeat(64)
                + "\",\"size\":null,\"provenance\":[]},{\"sha256\":\"" + "c".repeat(64) + "\",\"size\":7}]}";
        List<CatalogueEntry> e = read("{\"schema\":1,\"conflicts\":[" + conflict + "],\"archives\":[" + OK + "]}");
        assertEquals(List.of("a.zip", "b.zip"), e.stream().map(CatalogueEntry::fileName).toList());
        assertEquals(List.of("b".repeat(64), "c".repeat(64)), e.get(1).candidates());
        assertEquals(7L, e.get(1).size(), "the first candidate's size that is known");
        assertNull(e.get(0).releaseDate());
    }

    @Test
    void eachDamageIsRefusedWithItsReason() {
        Map<String, String> cases = Map.ofEntries(
                Map.entry("{\"schema\":\"1\",\"archives\":[],\"conflicts\":[]}", "schema is not 1"),
                Map.entry("[]", "schema is not 1"),
                Map.entry("{\"schema\":1,\"archives\":{},\"conflicts\":[]}", "lacks the array 'archives'"),
                Map.entry("{\"schema\":1,\"archives\":[]}", "lacks the array 'conflicts'"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK.replace("\"a.zip\"", "7") + "],\"conflicts\":[]}", "lacks 'fileName'"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK.replace("\"12\"", "12") + "],\"conflicts\":[]}", "lacks 'cudaVariant'"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK.replace("\"zip\"", "true") + "],\"conflicts\":[]}", "lacks 'format'"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK.replace("\"os\":\"windows\"", "\"os\":[\"windows\"]") + "],\"conflicts\":[]}", "lacks 'os'"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK.replace("\"size\":12", "\"size\":1.5") + "],\"conflicts\":[]}", "bad size"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK.replace("\"size\":12", "\"size\":\"12\"") + "],\"conflicts\":[]}", "bad size"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK.replace("\"size\":12", "\"size\":0") + "],\"conflicts\":[]}", "bad size"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK.replace("\"size\":12", "\"size\":99999999999999999999") + "],\"conflicts\":[]}", "bad size"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK.replace(SHA, SHA.toUpperCase()) + "],\"conflicts\":[]}", "bad sha256"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK.replace("\"sha256\":\"" + SHA + "\",", "") + "],\"conflicts\":[]}", "bad sha256 ''"),
                Map.entry("{\"schema\":1,\"archives\":[7],\"conflicts\":[]}", "lacks 'fileName'"),
                Map.entry("{\"schema\":1,\"archives\":[],\"conflicts\":[" + OK + "]}", "lacks the array 'candidates'"),
                Map.entry("{\"schema\":1,\"archives\":[],\"conflicts\":[" + OK.replace("\"sha256\":\"" + SHA + "\"",
                        "\"candidates\":[{\"sha256\":\"" + SHA + "\"}]") + "]}", "fewer than two candidates"),
                Map.entry("{\"schema\":1,\"archives\":[" + OK, "not JSON"));
        cases.forEach((json, reason) -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read(json), json);
            assertTrue(e.getMessage().contains(reason), json + " -> " + e.getMessage());
        });
    }

    @Test
    void releaseDatesAreReadAndOtherShapesIgnored() throws Exception {
        Map<String, String> d = CatalogueReader.dates(("{\"note\":[1],\"dates\":{\"9.5.1\":\"2024-10-25\",\"x\":{\"y\":1},"
                + "\"8.9.5.29\":\"2023-09-12\"}}").getBytes(StandardCharsets.UTF_8));
        assertEquals(Map.of("9.5.1", "2024-10-25", "8.9.5.29", "2023-09-12"), d);
        assertEquals(Map.of(), CatalogueReader.dates("[1,2]".getBytes(StandardCharsets.UTF_8)));
    }

    private static List<CatalogueEntry> read(String json) {
        return CatalogueReader.entries(json.getBytes(StandardCharsets.UTF_8), Catalogue.SCHEMA);
    }
}
