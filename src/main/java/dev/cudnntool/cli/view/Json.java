package dev.cudnntool.cli.view;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.Text;
import java.io.PrintWriter;

/**
 * The JSON documents the commands print. Every document starts with {@code command},
 * {@code schemaVersion} (bumped only on an incompatible change), {@code ok} and {@code exitCode}.
 */
public final class Json {
    static final int SCHEMA_VERSION = 1;
    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    static {
        MAPPER.getFactory().setCharacterEscapes(new TerminalEscapes());
    }

    /**
     * #32 item 6: Jackson escapes C0 controls itself; C1 controls (U+0080-U+009F) and the bidi controls
     * (U+202A-U+202E, U+2066-U+2069) are written as {@code \\uXXXX} too. Everything else as Jackson writes it.
     */
    static final class TerminalEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] ascii = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return Text.unsafeForTerminal(ch)
                    ? new SerializedString(String.format("\\u%04X", ch)) : null;
        }
    }

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
