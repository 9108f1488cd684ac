package dev.cudnntool.archive.name;

import com.fasterxml.jackson.annotation.JsonValue;

public enum ArchiveFormat {
    ZIP("zip"), TAR_XZ("tar.xz"), TGZ("tgz"),
    /** NVIDIA's pip wheel ({@code nvidia_cudnn_cuNN-…whl}): a zip with a RECORD of every file's sha256. */
    WHEEL("whl");

    /** Read as a zip (random access, entries in parallel). */
    public boolean isZip() {
        return this == ZIP || this == WHEEL;
    }

    private final String label;

    ArchiveFormat(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }
}
