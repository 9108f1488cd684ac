package dev.cudnntool;

import com.fasterxml.jackson.annotation.JsonValue;

public enum Severity {
    INFO, WARN, ERROR;

    @JsonValue
    public String json() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
