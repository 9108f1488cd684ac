package dev.cudnntool.archive.format;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

public enum EntryType {
    FILE, DIRECTORY, SYMLINK, HARDLINK, SPECIAL;

    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
