package dev.cudnntool.host.searchpath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text inside a stored search path, as pure functions: a Windows {@code Path} value is
 * UTF-16LE, NUL-terminated, entries separated by {@code ;}; an ld.so.conf file is one folder a line.
 * Adding appends one entry and leaves every other byte as it was; removing takes out one entry.
 */
public final class SearchPathEntries {
    private static final Pattern VAR = Pattern.compile("%([^%;]+)%");

    private SearchPathEntries() {
    }

    /** The value's text: UTF-16LE without the trailing NULs. */
    public static String windowsText(SearchPathStore.Raw raw) {
        String s = new String(raw.data(), StandardCharsets.UTF_16LE);
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '\0') {
            end--;
        }
        return s.substring(0, end);
    }

    public static List<String> windowsEntries(SearchPathStore.Raw raw) {
        List<String> out = new ArrayList<>();
        for (String e : windowsText(raw).split(";")) {
            if (!e.isBlank()) {
                out.add(e.strip());
            }
        }
        return out;
    }

    static SearchPathStore.Raw windowsValue(int type, String text) {
        return new SearchPathStore.Raw(type, (text + "\0").getBytes(StandardCharsets.UTF_16LE));
    }

    /** {@code current} with {@code dir} appended; a new value is REG_EXPAND_SZ, an existing one keeps its type. */
    public static SearchPathStore.Raw windowsWith(SearchPathStore.Raw current, String dir) {
        if (current == null) {
            return windowsValue(SearchPathStore.Raw.REG_EXPAND_SZ, dir);
        }
        String text = windowsText(current);
        String sep = text.isEmpty() || text.endsWith(";") ? "" : ";";
        return windowsValue(current.type(), text + sep + dir);
    }

    /** {@code current} without the last entry equal to {@code dir}; the same value when there is none. */
    public static SearchPathStore.Raw windowsWithout(SearchPathStore.Raw current, String dir) {
        List<String> parts = new ArrayList<>(Arrays.asList(windowsText(current).split(";", -1)));
        for (int i = parts.size() - 1; i >= 0; i--) {
            if (sameWindowsDir(parts.get(i), dir)) {
                parts.remove(i);
                return windowsValue(current.type(), String.join(";", parts));
            }
        }
        return current;
    }

    public static boolean windowsContains(SearchPathStore.Raw current, String dir) {
        return current != null && windowsEntries(current).stream().anyMatch(e -> sameWindowsDir(e, dir));
    }

    /** Folders compare without case and without a trailing backslash, as Windows resolves them. */
    public static boolean sameWindowsDir(String a, String b) {
        return trimSlash(a.strip()).equalsIgnoreCase(trimSlash(b.strip()));
    }

    private static String trimSlash(String s) {
        return s.length() > 3 && (s.endsWith("\\") || s.endsWith("/")) ? s.substring(0, s.length() - 1) : s;
    }

    /** %VARIABLE% replaced from {@code env} (names without case); unknown ones stay as written. */
    public static String expand(String entry, Map<String, String> env) {
        Matcher m = VAR.matcher(entry);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String v = null;
            for (Map.Entry<String, String> e : env.entrySet()) {
                if (e.getKey().equalsIgnoreCase(m.group(1))) {
                    v = e.getValue();
                }
            }
            m.appendReplacement(b, Matcher.quoteReplacement(v == null ? m.group() : v));
        }
        m.appendTail(b);
        return b.toString();
    }

    /**
     * An ld.so.conf.d file naming one folder: exactly the folder and a newline. Refuses a folder
     * that ldconfig would read as something else ({@link #unsafeEntry}).
     */
    public static SearchPathStore.Raw confFile(String dir) {
        String why = unsafeEntry(dir, false);
        if (why != null) {
            throw new IllegalArgumentException("not a plain path: " + why);
        }
        return new SearchPathStore.Raw(SearchPathStore.Raw.FILE, (dir + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Why {@code dir} cannot be written as one search-path entry that means exactly that folder, or
     * null when it can. Linux (an ld.so.conf.d line): ldconfig cuts a line at {@code #} (a comment)
     * and at {@code =} (a library type), trims blanks at both ends and has no quoting, so
     * {@code /opt/x#y/cuda} would put {@code /opt/x} on every program's search path. Windows (an
     * entry of {@code Path}): {@code ;} separates entries, {@code "} quotes and {@code %} expands.
     * Both: no control character (a newline starts another entry), no blank at either end, and
     * nothing that is not valid Unicode (U+FFFD, what an undecodable byte became; a lone surrogate).
     */
    public static String unsafeEntry(String dir, boolean windows) {
        if (dir == null || dir.isEmpty()) {
            return "it is empty";
        }
        if (Character.isWhitespace(dir.charAt(0)) || Character.isSpaceChar(dir.charAt(0))
                || Character.isWhitespace(dir.charAt(dir.length() - 1)) || Character.isSpaceChar(dir.charAt(dir.length() - 1))) {
            return "it begins or ends with a blank, which " + (windows ? "Windows" : "ldconfig") + " drops";
        }
        for (int i = 0; i < dir.length(); i++) {
            char c = dir.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                return String.format("it contains the control character U+%04X", (int) c);
            }
            if (c == '\uFFFD') {
                return "it contains U+FFFD, a byte that is not valid UTF-8";
            }
            if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c) && i + 1 < dir.length() && Character.isLowSurrogate(dir.charAt(i + 1));
                if (!paired) {
                    return "it contains a character that is not valid Unicode (a lone surrogate)";
                }
                i++;
                continue;
            }
            if (!windows && c == '#') {
                return "it contains '#', where ldconfig's comments begin (it would read " + dir.substring(0, i) + ")";
            }
            if (!windows && c == '=') {
                return "it contains '=', where ldconfig's library types begin (it would read " + dir.substring(0, i) + ")";
            }
            if (windows && (c == ';' || c == '"' || c == '%')) {
                return "it contains '" + c + "', which " + (c == ';' ? "separates PATH entries" : c == '"' ? "quotes in PATH"
                        : "expands a variable in PATH");
            }
        }
        return null;
    }

    /**
     * The process environment with the persistent Windows search path appended to {@code PATH}:
     * a running shell's PATH predates changes made in the registry since it started.
     */
    public static Map<String, String> withPersistentPath(Map<String, String> env, List<String> persistent) {
        String path = null;
        String key = "PATH";
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().equalsIgnoreCase("PATH")) {
                path = e.getValue();
                key = e.getKey();
            }
        }
        List<String> entries = new ArrayList<>(path == null ? List.of() : Arrays.asList(path.split(";")));
        boolean added = false;
        for (String p : persistent) {
            if (entries.stream().noneMatch(e -> sameWindowsDir(e, p))) {
                entries.add(p);
                added = true;
            }
        }
        if (!added) {
            return env;
        }
        Map<String, String> out = new HashMap<>(env);
        out.put(key, String.join(";", entries));
        return out;
    }
}
