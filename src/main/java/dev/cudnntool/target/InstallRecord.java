package dev.cudnntool.target;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * history/&lt;id&gt;/install.json: everything needed to undo one install exactly, and to tell
 * whether the toolkit was changed since.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InstallRecord(String id, String installedAt, String toolVersion, String archiveFile, String version,
                            String sha256, String target, String targetKind, List<InstalledFile> installed,
                            List<BackedUpFile> backedUp, List<String> createdDirs, String license) {

    /** A file the install put in place; {@code linkTarget} for symlinks (no sha256 then). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record InstalledFile(String path, String sha256, String linkTarget, String source) {
    }

    /** A file the install moved out of the way, and where it keeps it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BackedUpFile(String original, String backup, String sha256, String linkTarget) {
    }
}
