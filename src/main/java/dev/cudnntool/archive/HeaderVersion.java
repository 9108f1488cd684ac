package dev.cudnntool.archive;

import dev.cudnntool.archive.name.CudnnVersion;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads CUDNN_MAJOR, CUDNN_MINOR and CUDNN_PATCHLEVEL from cudnn_version.h (8+) or cudnn.h (7).
 * Linear in the text: it is cut into lines first and the pattern is anchored at the start of each
 * line with whitespace that never crosses a line break, so megabytes of blank lines cost one pass
 * (a {@code ^\s*} pattern in MULTILINE mode re-scanned every following blank line from each line start).
 */
public final class HeaderVersion {
    private static final Pattern DEFINE = Pattern.compile("[ \\t\\f\\x0B\\r]*#[ \\t\\f\\x0B\\r]*define[ \\t\\f\\x0B\\r]+"
            + "CUDNN_(MAJOR|MINOR|PATCHLEVEL)[ \\t\\f\\x0B\\r]+(\\d{1,6})\\b");

    private HeaderVersion() {
    }

    public static Optional<CudnnVersion> parse(String headerText) {
        Integer major = null;
        Integer minor = null;
        Integer patch = null;
        int n = headerText.length();
        int from = 0;
        while (from <= n) {
            int end = headerText.indexOf('\n', from);
            if (end < 0) {
                end = n;
            }
            if (end > from) {
                Matcher m = DEFINE.matcher(headerText).region(from, end);
                if (m.lookingAt()) {
                    int v = Integer.parseInt(m.group(2));
                    switch (m.group(1)) {
                        case "MAJOR" -> major = major == null ? v : major;
                        case "MINOR" -> minor = minor == null ? v : minor;
                        default -> patch = patch == null ? v : patch;
                    }
                }
            }
            from = end + 1;
        }
        if (major == null || minor == null || patch == null) {
            return Optional.empty();
        }
        return Optional.of(CudnnVersion.of(major, minor, patch));
    }
}
