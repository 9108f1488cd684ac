package dev.cudnntool.archive;

import dev.cudnntool.archive.format.EntryType;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One validated archive entry.
 *
 * @param path     the full name inside the archive, '/'-separated, normalised
 * @param relPath  the path below the archive's top folder ("bin/cudnn64_8.dll")
 * @param sha256   of the content for files; null for folders and links, and before hashing
 * @param linkTarget for symlinks: the target as stored; for hard links: the relPath it names
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ArchiveItem(String path, String relPath, EntryRole role, EntryType type, long size,
                          String sha256, String linkTarget, int mode) {

    @JsonIgnore
    public String fileName() {
        int slash = relPath.lastIndexOf('/');
        return slash < 0 ? relPath : relPath.substring(slash + 1);
    }

    public ArchiveItem withHash(long size, String sha256) {
        return new ArchiveItem(path, relPath, role, type, size, sha256, linkTarget, mode);
    }
}
