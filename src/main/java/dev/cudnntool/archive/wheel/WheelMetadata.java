package dev.cudnntool.archive.wheel;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import java.util.Locale;

/**
 * The two fields of a wheel's {@code *.dist-info/METADATA} the tool relies on: {@code Name:} and
 * {@code Version:} in the header block (before the first empty line). Each must be there once.
 */
public record WheelMetadata(String name, String version) {
    /** Bytes of METADATA read at most (NVIDIA's is about 2 KB). */
    public static final int MAX_BYTES = 1 << 20;

    public static WheelMetadata parse(String wheel, String text) {
        String name = null;
        String version = null;
        for (int at = 0, end; at <= text.length(); at = end + 1) { // a line at a time: no array of every line first
            end = text.indexOf('\n', at);
            end = end < 0 ? text.length() : end;
            String line = text.substring(at, end > at && text.charAt(end - 1) == '\r' ? end - 1 : end);
            if (line.isEmpty()) {
                break; // the description follows
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue; // a continuation line
            }
            String key = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            if (key.equals("name")) {
                if (name != null) {
                    throw bad(wheel, "two Name: fields");
                }
                name = value;
            } else if (key.equals("version")) {
                if (version != null) {
                    throw bad(wheel, "two Version: fields");
                }
                version = value;
            }
        }
        if (name == null || version == null) {
            throw bad(wheel, "no " + (name == null ? "Name:" : "Version:") + " field");
        }
        return new WheelMetadata(name, version);
    }

    /** PEP 503's normal form: lower case, runs of '-', '_' and '.' as one '-'. */
    public static String normalise(String distribution) {
        return distribution.toLowerCase(Locale.ROOT).replaceAll("[-_.]+", "-");
    }

    private static ToolException bad(String wheel, String why) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED, "wheel " + Text.printable(wheel) + " has a METADATA the tool cannot read ("
                + why + "); nothing was installed",
                "download the wheel again (pip download nvidia-cudnn-cuNN==VERSION --no-deps)");
    }
}
