package dev.cudnntool.rollback;

import dev.cudnntool.Hex;
import dev.cudnntool.target.DamagedState;
import dev.cudnntool.target.InstallRecord;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.Journal;
import dev.cudnntool.target.StatePaths;
import dev.cudnntool.target.StateReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code cudnn rollback --list}: the target's history read back, and which install is what the target holds now. */
final class RollbackList {
    private RollbackList() {
    }

    /**
     * Every recorded install, a damaged record or journal as state "damaged" (--repair sets it aside).
     * The current one is the newest active install all of whose files are in the target as it put
     * them (same sha256, links to the same place): what the target holds now. None is current while
     * an install or rollback is unfinished, or when every install's files were changed since.
     */
    static List<RollbackEntry> list(InstallTarget t) {
        List<RollbackEntry> out = new ArrayList<>();
        if (!Files.isDirectory(t.stateDir())) {
            return out;
        }
        StateReader reader = new StateReader(t);
        List<StateReader.Scanned> scanned = reader.scan();
        int newest = -1;
        for (int i = 0; i < scanned.size(); i++) {
            newest = scanned.get(i).record() != null ? i : newest;
        }
        for (int i = 0; i < scanned.size(); i++) {
            StateReader.Scanned sc = scanned.get(i);
            InstallRecord r = sc.record();
            out.add(r == null ? new RollbackEntry(StatePaths.printable(sc.dir().getFileName().toString()), null, null, null, null,
                    "damaged", false, 0, 0) : new RollbackEntry(r.id(), r.installedAt(), r.version(), r.archiveFile(), sha256OrNull(r.sha256()),
                    "active", i == newest,
                    r.installed().size(), r.backedUp().size()));
        }
        boolean settled = true;
        try {
            StateReader.Pending p = reader.journal();
            if (p != null) {
                Journal j = p.journal();
                out.add(new RollbackEntry(j.id(), j.startedAt(), null, null, null, "unfinished " + j.kind(), false, 0, 0));
                settled = false;
            }
        } catch (DamagedState e) {
            out.add(new RollbackEntry(t.state().journal().getFileName().toString(), null, null, null, null, "damaged", false, 0, 0));
        }
        if (settled) {
            StatePaths sp = reader.paths();
            for (int i = scanned.size() - 1; i >= 0; i--) {
                InstallRecord r = scanned.get(i).record();
                if (r != null && inPlace(sp, r)) {
                    RollbackEntry e = out.get(i);
                    out.set(i, new RollbackEntry(e.id(), e.date(), e.version(), e.archive(), e.archiveSha256(), e.state(), e.newest(),
                            e.filesInstalled(), e.filesBackedUp(), true));
                    break;
                }
            }
        }
        return out;
    }

    /** Every file the install put in place is there as it put it (stops at the first that is not). */
    private static boolean inPlace(StatePaths sp, InstallRecord r) {
        if (r.installed().isEmpty()) {
            return false;
        }
        for (InstallRecord.InstalledFile f : r.installed()) {
            Path p;
            try {
                p = sp.resolve(f.path());
            } catch (RuntimeException e) { // a record naming a path outside the target: not what it holds
                return false;
            }
            if (!matches(p, f.sha256(), f.linkTarget())) {
                return false;
            }
        }
        return true;
    }

    /** A record's archive sha256 when it is one (64 hex digits, lower case); never other text from the record. */
    private static String sha256OrNull(String s) {
        return s != null && s.matches("[0-9a-f]{64}") ? s : null;
    }

    /** The file is there as the install put it: the same sha256, or a link to the same place. */
    static boolean matches(Path p, String sha256, String linkTarget) {
        try {
            if (linkTarget != null) {
                return Files.isSymbolicLink(p) && Files.readSymbolicLink(p).toString().equals(linkTarget);
            }
            return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && Hex.sha256(p).equals(sha256);
        } catch (IOException e) {
            return false;
        }
    }
}
