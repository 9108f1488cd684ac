package dev.cudnntool;

import java.util.List;
import java.util.Objects;

/**
 * One diagnosis with a stable id from {@link FindingId} (scripts depend on it), a message that says
 * what was found and a fix that says what to do. {@code forced} marks an error that --force turned
 * into a warning.
 */
public record Finding(String id, Severity severity, String message, String fix) {
    public Finding {
        Objects.requireNonNull(id);
        Objects.requireNonNull(severity);
        message = message == null ? "" : message;
        fix = fix == null ? "" : fix;
    }

    public static Finding info(FindingId id, String message) {
        return new Finding(id.id(), Severity.INFO, message, "");
    }

    public static Finding warn(FindingId id, String message, String fix) {
        return new Finding(id.id(), Severity.WARN, message, fix);
    }

    public static Finding error(FindingId id, String message, String fix) {
        return new Finding(id.id(), Severity.ERROR, message, fix);
    }

    /** A finding whose severity the situation decides (one of {@link FindingId#severities()}). */
    public static Finding of(FindingId id, Severity severity, String message, String fix) {
        return new Finding(id.id(), severity, message, fix);
    }

    public boolean is(FindingId other) {
        return id.equals(other.id());
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
