package dev.cudnntool.archive.name;

import com.fasterxml.jackson.annotation.JsonValue;

public enum ArchiveFormat {
    ZIP("zip"), TAR_XZ("tar.xz"), TGZ("tgz");

    private final String label;

    ArchiveFormat(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }
}
