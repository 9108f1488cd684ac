package dev.cudnntool.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * #33: CudnnStatus' 9.x names and numbers equal NVIDIA's own header, the cudnnStatus_t block of 9.24.0's
 * cudnn_graph.h (src/test/resources/explain/cudnn_graph-9.24.0-cudnnStatus_t.h, copied unchanged from the
 * nvidia-cudnn-cu13 9.24.0.43 wheel), parsed here: {@code NAME [CUDNN_DEPRECATED_ENUM] = NUMBER | OTHER_NAME}.
 */
class CudnnStatusHeaderTest {
    private static final Pattern ENTRY = Pattern.compile(
            "(CUDNN_STATUS_[A-Z_]+)\\s+(CUDNN_DEPRECATED_ENUM\\s+)?=\\s*(\\d+|CUDNN_STATUS_[A-Z_]+)");

    /** The header's names with their numbers (an alias resolved to its target's number), and which are deprecated. */
    static Map<String, Integer> header(Map<String, Boolean> deprecated) throws IOException {
        String text;
        try (InputStream in = CudnnStatusHeaderTest.class.getResourceAsStream("/explain/cudnn_graph-9.24.0-cudnnStatus_t.h")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String block = text.substring(text.indexOf("typedef enum {"), text.indexOf("} cudnnStatus_t;"));
        block = block.replaceAll("/\\*.*?\\*/", " "); // comments hold names too ("Use CUDNN_STATUS_BAD_PARAM")
        Map<String, Integer> out = new LinkedHashMap<>();
        Matcher m = ENTRY.matcher(block);
        while (m.find()) {
            String value = m.group(3);
            Integer n = Character.isDigit(value.charAt(0)) ? Integer.valueOf(value) : out.get(value);
            assertTrue(n != null, "an alias of a name not defined before it: " + m.group());
            out.put(m.group(1), n);
            deprecated.put(m.group(1), m.group(2) != null);
        }
        return out;
    }

    @Test
    void theTablesNinePointXNumbersAreThe924HeadersExactly() throws IOException {
        Map<String, Boolean> deprecated = new LinkedHashMap<>();
        Map<String, Integer> header = header(deprecated);
        assertEquals(54, header.size(), header::toString); // the block as NVIDIA ships it: 48 codes and 6 deprecated names
        Map<String, Integer> table = new TreeMap<>();
        for (CudnnStatus.Entry e : CudnnStatus.all()) {
            if (e.v9() != null) {
                table.put(e.name(), e.v9());
            }
        }
        assertEquals(new TreeMap<>(header), table);
    }

    @Test
    void aNumberNamesTheHeadersOwnNameNotADeprecatedAlias() throws IOException {
        Map<String, Boolean> deprecated = new LinkedHashMap<>();
        Map<String, Integer> header = header(deprecated);
        for (Map.Entry<String, Integer> h : header.entrySet()) {
            CudnnStatus.Entry e = CudnnStatus.named(h.getKey()).orElseThrow();
            boolean aliasOfAnother = deprecated.get(h.getKey()) && header.entrySet().stream()
                    .anyMatch(o -> o.getValue().equals(h.getValue()) && !deprecated.get(o.getKey()));
            assertEquals(aliasOfAnother, CudnnStatus.isAlias(e), h.getKey());
            if (!aliasOfAnother && h.getValue() >= 1000) {
                assertEquals(h.getKey(), CudnnStatus.numbered(h.getValue()).orElseThrow().name(), "code " + h.getValue());
            }
        }
    }
}
