package dev.cudnntool;

import java.util.function.IntPredicate;

/** Text taken from outside (entry names, file content, arguments) made safe to print on one line. */
public final class Text {
    private Text() {
    }

    /** The name as it can be shown on one line: control characters written as \\uXXXX, cut after 300. */
    public static String printable(String s) {
        if (s == null) {
            return "(none)";
        }
        String b = oneLine(s);
        return b.length() > 300 ? b.substring(0, 300) + "... (" + s.length() + " characters)" : b;
    }

    /**
     * A message as one line: every control character (newline, carriage return, escape, ...) written
     * as \\uXXXX, so a value the user passed can never split an error into two lines or move the cursor.
     */
    public static String oneLine(String s) {
        return escaped(s, Character::isISOControl);
    }

    /**
     * #32 item 6: a character that must never reach a terminal raw: C0 and C1 controls (ESC, so every
     * escape and OSC sequence, included), DEL, and the bidi embeddings, overrides and isolates
     * (U+202A-U+202E, U+2066-U+2069).
     */
    public static boolean unsafeForTerminal(int c) {
        return Character.isISOControl(c) || c >= 0x202A && c <= 0x202E || c >= 0x2066 && c <= 0x2069;
    }

    /** Every {@link #unsafeForTerminal} character of {@code s} written as \\uXXXX (newlines too). */
    public static String terminalSafe(String s) {
        return escaped(s, Text::unsafeForTerminal);
    }

    /** {@code s} with every character {@code unsafe} accepts written as \\uXXXX; null is the empty text. */
    private static String escaped(String s, IntPredicate unsafe) {
        if (s == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (unsafe.test(c)) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                b.append(String.format("\\u%04x", (int) c));
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }
}
