package dev.cudnntool.cli.view;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;

/**
 * The JSON documents the commands print. Every document starts with {@code command},
 * {@code schemaVersion} (bumped only on an incompatible change), {@code ok} and {@code exitCode}.
 */
public final class Json {
    static final int SCHEMA_VERSION = 1;
    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private Json() {
    }

    public static ObjectNode document(String command, int exitCode) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("command", command);
        n.put("schemaVersion", SCHEMA_VERSION);
        n.put("ok", exitCode == 0);
        n.put("exitCode", exitCode);
        return n;
    }

    public static ObjectNode put(ObjectNode doc, String field, Object value) {
        doc.set(field, MAPPER.valueToTree(value));
        return doc;
    }

    public static void print(PrintWriter out, ObjectNode doc) {
        try {
            out.println(MAPPER.writeValueAsString(doc));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        out.flush();
    }
}
