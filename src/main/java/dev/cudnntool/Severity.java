package dev.cudnntool;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

public enum Severity {
    INFO, WARN, ERROR;

    @JsonValue
    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }
}
