package dev.cudnntool.install;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.cudnntool.archive.ArchiveItem;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One file's fate in an install: added, replacing an existing file (which is backed up), already
 * identical, or an old cuDNN file removed (backed up) because the new release does not have it.
 *
 * @param source      the archive path below its top folder; null for remove
 * @param destination the path in the target
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PlanStep(String source, String destination, Action action,
                       @JsonIgnore ArchiveItem item, @JsonIgnore Path target) {
    public enum Action {
        ADD, REPLACE, SAME, REMOVE;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
