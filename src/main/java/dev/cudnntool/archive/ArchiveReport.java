package dev.cudnntool.archive;

import dev.cudnntool.archive.name.ArchiveName;
import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.cudnntool.Finding;
import java.util.List;

/** Everything a full read of an archive established. Entries with errors make it unusable. */
public record ArchiveReport(ArchiveInfo archive, String topFolder, List<ArchiveItem> entries,
                            Evidence evidence, List<Finding> findings, @JsonIgnore ArchiveName name) {
    public ArchiveReport {
        entries = List.copyOf(entries);
        findings = List.copyOf(findings);
    }

    @JsonIgnore
    public boolean acceptable() {
        return !Finding.anyError(findings);
    }

    public List<ArchiveItem> entries(EntryRole role) {
        return entries.stream().filter(e -> e.role() == role).toList();
    }
}
