package dev.cudnntool;

/** Text taken from outside (entry names, file content, arguments) made safe to print on one line. */
public final class Text {
    private Text() {
    }

    /** The name as it can be shown on one line: control characters written as \\uXXXX. */
    public static String printable(String s) {
        if (s == null) {
            return "(none)";
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isISOControl(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.length() > 300 ? b.substring(0, 300) + "... (" + s.length() + " characters)" : b.toString();
    }
}
