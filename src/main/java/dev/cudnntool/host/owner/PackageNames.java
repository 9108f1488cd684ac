package dev.cudnntool.host.owner;

import java.util.regex.Pattern;

/** What a package manager's name or version may look like; anything else read from its records is refused. */
final class PackageNames {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+-]{0,199}");
    private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+:~!-]{0,99}");

    private PackageNames() {
    }

    static String name(String s) {
        return s != null && NAME.matcher(s.strip()).matches() ? s.strip() : null;
    }

    static String version(String s) {
        return s != null && VERSION.matcher(s.strip()).matches() ? s.strip() : null;
    }

    /** The records worth reading first: cuDNN's own packages, then the frameworks that bundle it. */
    static int priority(String fileName) {
        String n = fileName.toLowerCase(java.util.Locale.ROOT);
        if (n.contains("cudnn")) {
            return 0;
        }
        if (n.startsWith("torch") || n.startsWith("tensorflow") || n.startsWith("jax") || n.startsWith("onnxruntime")
                || n.startsWith("paddle") || n.startsWith("nvidia")) {
            return 1;
        }
        return 2;
    }
}
