package dev.cudnntool.archive.catalogue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A bounded reader for the small data files kept with the catalogue (support matrix, framework pins): at most
 * {@value #MAX_BYTES} bytes, {@value #MAX_DEPTH} levels and {@value #MAX_VALUES} values, read with Jackson's
 * streaming parser into maps, lists, strings, longs, booleans and null; anything else is refused. The type and
 * value checks of each field are the caller's ({@link #text}, {@link #list}, ...), with a message naming the field.
 */
final class SmallJson {
    static final int MAX_BYTES = 1 << 20;
    static final int MAX_DEPTH = 8;
    static final int MAX_VALUES = 100_000;
    private static final JsonFactory JSON = new JsonFactory();

    private final String what;
    private int values;

    private SmallJson(String what) {
        this.what = what;
    }

    /** The bytes of a data file shipped beside the catalogue (one byte past the bound, so that the reader refuses an oversized one). */
    static byte[] bundled(String resource) {
        try (InputStream in = SmallJson.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks its resource " + resource);
            }
            return in.readNBytes(MAX_BYTES + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The document's top object; {@code what} names the file in messages. */
    static Map<String, Object> object(byte[] json, String what) {
        if (json.length > MAX_BYTES) {
            throw new IllegalArgumentException(what + " is larger than " + MAX_BYTES + " bytes");
        }
        SmallJson r = new SmallJson(what);
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw r.bad("is not a JSON object");
            }
            Map<String, Object> top = r.readObject(p, 1);
            if (p.nextToken() != null) {
                throw r.bad("has data after its object");
            }
            return top;
        } catch (IOException e) {
            throw new IllegalArgumentException(what + " is not JSON: " + e.getMessage(), e);
        }
    }

    private Object read(JsonParser p, int depth) throws IOException {
        if (++values > MAX_VALUES) {
            throw bad("has more than " + MAX_VALUES + " values");
        }
        return switch (p.currentToken()) {
            case START_OBJECT -> readObject(p, depth + 1);
            case START_ARRAY -> readArray(p, depth + 1);
            case VALUE_STRING -> p.getText();
            case VALUE_NUMBER_INT -> {
                if (p.getNumberType() != JsonParser.NumberType.INT && p.getNumberType() != JsonParser.NumberType.LONG) {
                    throw bad("has a number out of range");
                }
                yield p.getLongValue();
            }
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            default -> throw bad("has a value of an unexpected kind (" + p.currentToken() + ")");
        };
    }

    private Map<String, Object> readObject(JsonParser p, int depth) throws IOException {
        depth(depth);
        Map<String, Object> out = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (out.containsKey(name)) {
                throw bad("has the field '" + name + "' twice");
            }
            out.put(name, read(p, depth));
        }
        return out;
    }

    private List<Object> readArray(JsonParser p, int depth) throws IOException {
        depth(depth);
        List<Object> out = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            out.add(read(p, depth));
        }
        return out;
    }

    private void depth(int depth) {
        if (depth > MAX_DEPTH) {
            throw bad("is nested deeper than " + MAX_DEPTH + " levels");
        }
    }

    private IllegalArgumentException bad(String why) {
        return new IllegalArgumentException(what + " " + why);
    }

    /** A string field matching {@code pattern} (null allowed only when {@code optional}). */
    static String text(Map<String, Object> o, String field, Pattern pattern, boolean optional, String where) {
        Object v = o.get(field);
        if (v == null && optional) {
            return null;
        }
        if (!(v instanceof String s) || s.length() > 2000 || !pattern.matcher(s).matches()) {
            throw new IllegalArgumentException(where + ": '" + field + "' is " + (v == null ? "missing" : "not valid: " + v));
        }
        return s;
    }

    /** A non-empty list of strings, each matching {@code pattern}. */
    static List<String> list(Map<String, Object> o, String field, Pattern pattern, String where) {
        Object v = o.get(field);
        if (!(v instanceof List<?> l) || l.isEmpty()) {
            throw new IllegalArgumentException(where + ": '" + field + "' is not a non-empty list");
        }
        List<String> out = new ArrayList<>();
        for (Object x : l) {
            if (!(x instanceof String s) || !pattern.matcher(s).matches()) {
                throw new IllegalArgumentException(where + ": '" + field + "' holds a bad value: " + x);
            }
            out.add(s);
        }
        return List.copyOf(out);
    }

    /** An integer field within [min, max]. */
    static int number(Map<String, Object> o, String field, int min, int max, String where) {
        Object v = o.get(field);
        if (!(v instanceof Long n) || n < min || n > max) {
            throw new IllegalArgumentException(where + ": '" + field + "' is not a number from " + min + " to " + max);
        }
        return n.intValue();
    }

    /** The list of objects under {@code field}. */
    static List<Map<String, Object>> objects(Map<String, Object> o, String field, String where) {
        Object v = o.get(field);
        if (!(v instanceof List<?> l)) {
            throw new IllegalArgumentException(where + " lacks the array '" + field + "'");
        }
        List<Map<String, Object>> out = new ArrayList<>();
        int i = 0;
        for (Object x : l) {
            if (!(x instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException(where + ": " + field + "[" + i + "] is not an object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> typed = (Map<String, Object>) m;
            out.add(typed);
            i++;
        }
        return out;
    }
}
