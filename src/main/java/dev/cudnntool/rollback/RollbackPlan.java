package dev.cudnntool.rollback;

import dev.cudnntool.target.DamagedState;
import dev.cudnntool.target.InstallRecord;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.Journal;
import dev.cudnntool.target.StateFolder;
import dev.cudnntool.target.StatePaths;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The journal steps that undo one recorded install, built and proven before anything changes: each file it
 * installed moves aside (into the record's removed slots, or the kept folder when it was changed since and
 * --force keeps it), each backup moves back, each folder it created goes (the target's root and its parents
 * last, after the tool's folder is gone), and its history entry moves to the trash as the last step.
 *
 * @param steps        the journal's steps, in stored (target-relative) form
 * @param toolDirs     the tool's own folders the steps move into, made before the first step
 * @param kept         changed files kept, where they will be
 * @param createdRoots the target or its parents that the install created, innermost first: removed when empty
 * @param historyDir   the record's history folder
 * @param keptRoot     where changed files are kept
 */
record RollbackPlan(List<Journal.Op> steps, List<Path> toolDirs, List<String> kept, List<String> createdRoots, Path historyDir,
                    Path keptRoot) {

    /**
     * @param changed       the record's installed files (stored paths) changed since; kept, not removed
     * @param repairCommand the command that repairs the state, for the error when a tool folder is a link
     * @throws DamagedState when one of the tool's folders on the way is a link
     */
    static RollbackPlan of(InstallTarget t, StatePaths sp, InstallRecord rec, List<String> changed, String repairCommand) {
        Path historyDir = t.state().history(rec.id());
        Path removedRoot = StateFolder.removed(historyDir);
        Path keptRoot = t.state().kept().resolve(rec.id());
        List<Journal.Op> jops = new ArrayList<>();
        List<Path> toolDirs = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        int n = 0;
        for (InstallRecord.InstalledFile f : rec.installed()) {
            Path dest = sp.resolve(f.path());
            if (!Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
                continue; // deleted since (allowed by --force): nothing to remove
            }
            boolean keep = changed.contains(f.path());
            Path slot = (keep ? keptRoot : removedRoot).resolve(Integer.toString(n++));
            toolDirs.add(slot);
            Path to = slot.resolve(dest.getFileName().toString());
            jops.add(Journal.Op.move(sp.store(dest), sp.store(to)));
            if (keep) {
                kept.add(to.toString());
            }
        }
        for (InstallRecord.BackedUpFile b : rec.backedUp()) {
            jops.add(Journal.Op.move(sp.store(sp.resolve(b.backup())), sp.store(sp.resolve(b.original()))));
        }
        List<String> created = new ArrayList<>(rec.createdDirs());
        Collections.reverse(created);
        List<String> createdRoots = new ArrayList<>(); // innermost first: created reversed
        for (String d : created) {
            Path p = sp.resolve(d);
            if (t.root().startsWith(p)) {
                createdRoots.add(p.toString()); // the root or a parent: still holds .cudnn-tool until the end
                continue;
            }
            jops.add(Journal.Op.rmdir(sp.store(p)));
        }
        // Last step: the history entry goes to the trash, so a finished rollback leaves no record behind.
        Path trash = t.state().trash().resolve(rec.id());
        toolDirs.add(trash.getParent());
        jops.add(Journal.Op.move(sp.store(historyDir), sp.store(trash)));
        for (Path d : toolDirs) { // a link among the tool's folders would carry the moved files out of the target
            Path link = sp.linkOnTheWay(d);
            if (link != null) {
                throw new DamagedState(link, "is a link; the tool's own folders must be plain folders inside the target",
                        repairCommand);
            }
        }
        return new RollbackPlan(jops, toolDirs, kept, createdRoots, historyDir, keptRoot);
    }
}
