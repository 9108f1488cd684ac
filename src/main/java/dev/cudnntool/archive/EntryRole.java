package dev.cudnntool.archive;

import com.fasterxml.jackson.annotation.JsonValue;

/** What an archive entry is for, which decides where it is installed. */
public enum EntryRole {
    RUNTIME_LIBRARY("runtime-library"),
    HEADER("header"),
    IMPORT_LIBRARY("import-library"),
    STATIC_LIBRARY("static-library"),
    LICENSE("license"),
    DIRECTORY("directory"),
    OTHER("other");

    private final String label;

    EntryRole(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }
}
