package dev.cudnntool.archive.format;

import com.fasterxml.jackson.annotation.JsonValue;

public enum EntryType {
    FILE, DIRECTORY, SYMLINK, HARDLINK, SPECIAL;

    @JsonValue
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
