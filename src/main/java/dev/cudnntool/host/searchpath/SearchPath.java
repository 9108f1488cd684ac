package dev.cudnntool.host.searchpath;

import dev.cudnntool.host.Host;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Splits PATH-like variables the way the OS does: quotes, %VARIABLES%, trailing separators. */
public final class SearchPath {
    private static final Pattern WIN_VAR = Pattern.compile("%([^%]+)%");

    private SearchPath() {
    }

    public static List<Path> entries(Host host, String value) {
        List<Path> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        for (String raw : value.split(host.pathSeparator())) {
            String e = raw.strip();
            if (host.windows()) {
                e = expand(host, e).replace("\"", "");
                while (e.length() > 3 && (e.endsWith("\\") || e.endsWith("/"))) {
                    e = e.substring(0, e.length() - 1);
                }
            }
            if (e.isEmpty()) {
                continue;
            }
            try {
                out.add(host.path(e).normalize());
            } catch (InvalidPathException ignored) {
                // an entry no program could use either
            }
        }
        return out;
    }

    /**
     * LD_LIBRARY_PATH as the Linux loader reads it: an empty entry (leading, trailing or '::')
     * is the current folder, not nothing.
     */
    public static List<Path> libraryPath(Host host) {
        List<Path> out = new ArrayList<>();
        String value = host.env("LD_LIBRARY_PATH");
        if (value == null) {
            return out;
        }
        for (String e : value.split(":", -1)) {
            try {
                out.add(e.isEmpty() ? host.currentDir() : host.path(e).normalize());
            } catch (InvalidPathException ignored) {
                // an entry no program could use either
            }
        }
        return out;
    }

    /** Whether a ':'-separated value has an empty entry (leading, trailing or '::'). */
    public static boolean hasEmptyEntry(Host host, String value) {
        return value != null && !host.windows() && List.of(value.split(":", -1)).contains("");
    }

    /** Expands %NAME% from the environment; unknown names stay as they are, as cmd.exe does. */
    static String expand(Host host, String text) {
        Matcher m = WIN_VAR.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = host.env(m.group(1));
            m.appendReplacement(sb, Matcher.quoteReplacement(v == null ? m.group() : v));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
