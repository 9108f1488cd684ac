package dev.cudnntool.explain;

/**
 * Pasted text made safe to echo: C0 and C1 control characters (ESC included), DEL and the bidi controls
 * (U+202A–U+202E, U+2066–U+2069) written as {@code \\uXXXX}, so nothing from the text can move the cursor, recolour the
 * terminal or reorder what is shown; cut after 300 characters.
 */
public final class Echo {
    static final int MAX = 300;

    private Echo() {
    }

    public static String safe(String s) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), MAX) + 16);
        int n = Math.min(s.length(), MAX);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c) || c >= '\u202A' && c <= '\u202E' || c >= '\u2066' && c <= '\u2069') {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        if (s.length() > MAX) {
            b.append("... (").append(s.length()).append(" characters)");
        }
        return b.toString();
    }
}
