package dev.cudnntool.cli;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.host.Host;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Turns a path given on the command line into a Path, or refuses it (exit 2). The JVM decodes
 * arguments with the system's encoding and replaces every byte it cannot decode with U+FFFD, so a
 * folder whose name is not valid UTF-8 under a UTF-8 locale would silently become another folder:
 * such an argument, control characters and names the file system rejects are refused by name.
 */
final class PathArgument {
    private static final char REPLACEMENT = '\uFFFD';

    private PathArgument() {
    }

    static Path of(Host host, String option, String value) {
        if (value.indexOf(REPLACEMENT) >= 0) {
            throw new ToolException(ExitCode.USAGE, option + " '" + shown(value) + "' holds bytes that are not valid in"
                    + " this system's character encoding (" + System.getProperty("sun.jnu.encoding", "unknown")
                    + "); Java cannot name that path exactly and would use another one",
                    "rename the folder or file to a name in plain characters, or run with a locale whose encoding"
                            + " matches the name (for example LC_ALL=C.UTF-8 for UTF-8 names)");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new ToolException(ExitCode.USAGE, option + " '" + shown(value) + "' holds a control character",
                        "pass the path without newlines, tabs or other control characters");
            }
        }
        if (value.isBlank()) {
            throw new ToolException(ExitCode.USAGE, option + " is empty", "pass a path");
        }
        try {
            return host.path(value);
        } catch (InvalidPathException e) {
            throw new ToolException(ExitCode.USAGE, option + " '" + shown(value) + "' is not a valid path here ("
                    + e.getReason() + ")", "pass a path this system can use", e);
        }
    }

    /** A path that must name a file (it has a last name part, unlike "/" or "C:\\"). */
    static Path file(Host host, String option, String value) {
        Path p = of(host, option, value);
        if (p.getFileName() == null) {
            throw new ToolException(ExitCode.USAGE, option + " '" + shown(value) + "' names no file",
                    "pass the path of the downloaded archive file");
        }
        return p;
    }

    private static String shown(String value) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            b.append(Character.isISOControl(c) || c == REPLACEMENT ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }
}
