package dev.cudnntool.archive;

import dev.cudnntool.archive.name.CudnnVersion;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads CUDNN_MAJOR, CUDNN_MINOR and CUDNN_PATCHLEVEL from cudnn_version.h (8+) or cudnn.h (7). */
public final class HeaderVersion {
    private static final Pattern DEFINE = Pattern.compile("^\\s*#\\s*define\\s+CUDNN_(MAJOR|MINOR|PATCHLEVEL)\\s+(\\d{1,6})\\b",
            Pattern.MULTILINE);

    private HeaderVersion() {
    }

    public static Optional<CudnnVersion> parse(String headerText) {
        Integer major = null;
        Integer minor = null;
        Integer patch = null;
        Matcher m = DEFINE.matcher(headerText);
        while (m.find()) {
            int v = Integer.parseInt(m.group(2));
            switch (m.group(1)) {
                case "MAJOR" -> major = major == null ? v : major;
                case "MINOR" -> minor = minor == null ? v : minor;
                default -> patch = patch == null ? v : patch;
            }
        }
        if (major == null || minor == null || patch == null) {
            return Optional.empty();
        }
        return Optional.of(CudnnVersion.of(major, minor, patch));
    }
}
