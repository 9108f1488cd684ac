package dev.cudnntool.rollback;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.install.InstallTimes;

/**
 * One line of --list. {@code state}: active, or unfinished for a pending journal;
 * {@code archiveSha256}: the sha256 of the archive the install was made from, as its record
 * holds it (what tells two archives of one version apart); {@code current}: this install is what
 * the target holds now (at most one entry: see {@link RollbackList#list}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RollbackEntry(String id, String date, String version, String archive, String archiveSha256, String state,
                    boolean newest, int filesInstalled, int filesBackedUp, boolean current) {
    /** An entry that is not the current install. */
    public RollbackEntry(String id, String date, String version, String archive, String archiveSha256, String state,
                 boolean newest, int filesInstalled, int filesBackedUp) {
        this(id, date, version, archive, archiveSha256, state, newest, filesInstalled, filesBackedUp, false);
    }

    /** An entry whose archive's sha256 is not known. */
    public RollbackEntry(String id, String date, String version, String archive, String state, boolean newest,
                 int filesInstalled, int filesBackedUp) {
        this(id, date, version, archive, null, state, newest, filesInstalled, filesBackedUp);
    }

    /** The same entry with its date as text shows it: to the second (see {@link InstallTimes#toSecond}). */
    public RollbackEntry toTheSecond() {
        return new RollbackEntry(id, InstallTimes.toSecond(date), version, archive, archiveSha256, state, newest, filesInstalled,
                filesBackedUp, current);
    }
}
