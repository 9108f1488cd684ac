package dev.cudnntool.archive.wheel;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A wheel's {@code *.dist-info/RECORD} (PEP 376/427), read as hostile input: one line per file,
 * {@code path,sha256=<urlsafe base64 without padding>,size}; only RECORD itself has an empty hash
 * and size. Anything else is refused before a byte of the wheel is installed: a path that is
 * absolute, has a drive, a backslash, a colon, a control character or a {@code ..} segment; a
 * quoted field; a hash that is not sha256 or not 32 bytes; a size that is not a plain number or
 * is larger than the wheel may expand to; a path listed twice; more lines than a wheel may hold.
 */
public final class WheelRecord {
    /** Bytes of RECORD read at most (NVIDIA's is about 3 KB). */
    public static final int MAX_BYTES = 4 << 20;
    private static final Pattern SIZE = Pattern.compile("\\d{1,40}");
    private static final Pattern B64 = Pattern.compile("[A-Za-z0-9_-]{43}");
    private static final Pattern DRIVE = Pattern.compile("^[A-Za-z]:.*");

    /** One listed file: its sha256 in lower-case hex and its size. */
    public record Line(String path, String sha256, long size) {
    }

    private final Map<String, Line> lines;
    private final String self;

    private WheelRecord(Map<String, Line> lines, String self) {
        this.lines = Collections.unmodifiableMap(lines);
        this.self = self;
    }

    /** Every listed file but RECORD itself, by path, in RECORD's order. */
    public Map<String, Line> files() {
        return lines;
    }

    /** RECORD's own path as it lists it. */
    public String self() {
        return self;
    }

    /**
     * @param text       RECORD's bytes as UTF-8
     * @param recordPath where RECORD lies in the wheel ({@code nvidia_cudnn_cu12-9.5.1.17.dist-info/RECORD})
     * @param maxLines   at most this many lines (the wheel's entry limit)
     * @param maxSize    no listed size may be larger (the wheel's expansion limit)
     */
    public static WheelRecord parse(String wheel, String text, String recordPath, int maxLines, long maxSize) {
        Map<String, Line> out = new LinkedHashMap<>();
        String self = null;
        int n = 0;
        int i = -1;
        for (int at = 0, end; at <= text.length(); at = end + 1) { // a line at a time: no array of every line first
            i++;
            end = text.indexOf('\n', at);
            end = end < 0 ? text.length() : end;
            int stop = end > at && text.charAt(end - 1) == '\r' ? end - 1 : end;
            if (stop == at) {
                continue;
            }
            String line = text.substring(at, stop);
            if (++n > maxLines) {
                throw hostile(wheel, i, "more than " + maxLines + " lines");
            }
            if (line.indexOf('"') >= 0) {
                throw hostile(wheel, i, "a quoted field (NVIDIA's RECORD has none)");
            }
            String[] f = line.split(",", -1);
            if (f.length != 3) {
                throw hostile(wheel, i, "not path,hash,size");
            }
            String path = checkPath(wheel, i, f[0]);
            String key = path.toLowerCase(Locale.ROOT);
            if (out.containsKey(key) || key.equals(self == null ? null : self.toLowerCase(Locale.ROOT))) {
                throw hostile(wheel, i, "'" + Text.printable(path) + "' is listed twice");
            }
            if (path.equals(recordPath)) {
                if (!f[1].isEmpty() || !f[2].isEmpty()) {
                    throw hostile(wheel, i, "RECORD lists a hash or size for itself");
                }
                self = path;
                continue;
            }
            if (!f[1].startsWith("sha256=")) {
                throw hostile(wheel, i, f[1].isEmpty() ? "no hash for '" + Text.printable(path) + "'"
                        : "a hash that is not sha256 ('" + Text.printable(cut(f[1])) + "')");
            }
            String b64 = f[1].substring("sha256=".length());
            if (!B64.matcher(b64).matches()) {
                throw hostile(wheel, i, "a sha256 that is not 32 bytes of urlsafe base64 without padding");
            }
            byte[] digest = Base64.getUrlDecoder().decode(b64);
            if (!SIZE.matcher(f[2]).matches()) {
                throw hostile(wheel, i, "a size that is not a plain number ('" + Text.printable(cut(f[2])) + "')");
            }
            long size;
            try {
                size = Long.parseLong(f[2]);
            } catch (NumberFormatException e) {
                throw hostile(wheel, i, "a size too large to be true (" + f[2] + ")");
            }
            if (size > maxSize) {
                throw hostile(wheel, i, "a size of " + size + " bytes, more than a wheel may expand to (" + maxSize + ")");
            }
            out.put(key, new Line(path, hex(digest), size));
        }
        if (self == null) {
            throw new ToolException(ExitCode.ARCHIVE_REJECTED, "wheel " + wheel + " is damaged: its RECORD does not list "
                    + recordPath + " itself; nothing was installed",
                    "download the wheel again (pip download nvidia-cudnn-cuNN==VERSION --no-deps)");
        }
        return new WheelRecord(out, self);
    }

    /** A listed path is a plain relative path inside the wheel, '/'-separated. */
    private static String checkPath(String wheel, int i, String path) {
        if (path.isEmpty()) {
            throw hostile(wheel, i, "an empty path");
        }
        for (int k = 0; k < path.length(); k++) {
            if (Character.isISOControl(path.charAt(k))) {
                throw hostile(wheel, i, "a control character in a path");
            }
        }
        if (path.length() > 4095) {
            throw hostile(wheel, i, "a path longer than any file system holds");
        }
        if (path.startsWith("/") || DRIVE.matcher(path).matches() || path.indexOf('\\') >= 0 || path.indexOf(':') >= 0) {
            throw hostile(wheel, i, "the path '" + Text.printable(path) + "' is absolute or has a backslash or colon");
        }
        for (String s : path.split("/", -1)) {
            if (s.equals("..") || s.equals(".") || s.isEmpty()) {
                throw hostile(wheel, i, "the path '" + Text.printable(path) + "' has an empty, '.' or '..' part");
            }
        }
        return path;
    }

    private static String cut(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return sb.toString();
    }

    private static ToolException hostile(String wheel, int lineIndex, String why) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED, "wheel " + Text.printable(wheel) + " has a RECORD that cannot be trusted (line "
                + (lineIndex + 1) + ": " + Text.printable(why) + "); nothing was installed",
                "do not use this wheel: download it again from the package index (pip download nvidia-cudnn-cuNN==VERSION --no-deps)");
    }
}
