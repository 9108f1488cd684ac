package dev.cudnntool;

import com.fasterxml.jackson.annotation.JsonValue;

public enum OsFamily {
    WINDOWS("windows"), LINUX("linux"), MACOS("macos"), OTHER("other");

    private final String label;

    OsFamily(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }
}
