package dev.cudnntool;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * One diagnosis with a stable id from {@link FindingId} (scripts depend on it), a message that says
 * what was found and a {@link Fix} that says what to do, of a kind code can decide by (written as its
 * text: JSON's {@code "fix"} is a string). {@code forced} marks an error that --force turned into a warning.
 */
@JsonPropertyOrder({"id", "severity", "message", "fix"})
public record Finding(String id, Severity severity, String message, @JsonIgnore Fix remedy) {
    public Finding {
        Objects.requireNonNull(id);
        Objects.requireNonNull(severity);
        message = message == null ? "" : message;
        remedy = remedy == null ? Fix.NONE : remedy;
    }

    /** A finding whose fix is plain text (the form every producer outside verify uses). */
    public Finding(String id, Severity severity, String message, String fix) {
        this(id, severity, message, Fix.text(fix));
    }

    /** The fix's text ("" when none), as JSON writes it. */
    @JsonProperty("fix")
    public String fix() {
        return remedy.text();
    }

    /** The same finding with another fix. */
    public Finding withFix(Fix other) {
        return new Finding(id, severity, message, other);
    }

    public static Finding warn(FindingId id, String message, Fix fix) {
        return new Finding(id.id(), Severity.WARN, message, fix);
    }

    public static Finding error(FindingId id, String message, Fix fix) {
        return new Finding(id.id(), Severity.ERROR, message, fix);
    }

    public static Finding of(FindingId id, Severity severity, String message, Fix fix) {
        return new Finding(id.id(), severity, message, fix);
    }

    public static Finding info(FindingId id, String message) {
        return new Finding(id.id(), Severity.INFO, message, Fix.NONE);
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
        return new Finding(id, Severity.WARN, message + " (allowed by --force)", remedy);
    }
}
