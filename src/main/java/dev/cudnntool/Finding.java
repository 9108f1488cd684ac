package dev.cudnntool;

import java.util.List;
import java.util.Objects;

/**
 * One diagnosis with a stable id (scripts depend on it), a message that says what was found and
 * a fix that says what to do. {@code forced} marks an error that --force turned into a warning.
 */
public record Finding(String id, Severity severity, String message, String fix) {
    public Finding {
        Objects.requireNonNull(id);
        Objects.requireNonNull(severity);
        message = message == null ? "" : message;
        fix = fix == null ? "" : fix;
    }

    public static Finding info(String id, String message) {
        return new Finding(id, Severity.INFO, message, "");
    }

    public static Finding warn(String id, String message, String fix) {
        return new Finding(id, Severity.WARN, message, fix);
    }

    public static Finding error(String id, String message, String fix) {
        return new Finding(id, Severity.ERROR, message, fix);
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    public static boolean anyError(List<Finding> findings) {
        return findings.stream().anyMatch(Finding::isError);
    }

    /** The same finding as a warning, its message saying that --force let it pass. */
    public Finding forced() {
        if (!isError()) {
            return this;
        }
        return new Finding(id, Severity.WARN, message + " (allowed by --force)", fix);
    }
}
