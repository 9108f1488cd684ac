package dev.cudnntool.diagnosis;

import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.owner.Owner;
import dev.cudnntool.host.owner.Owners;
import dev.cudnntool.target.InstallRecord;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.StateFolder;
import dev.cudnntool.target.StatePaths;
import dev.cudnntool.target.StateReader;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The owner of each copy (#19 item 19): this tool when an install record in a state folder above the
 * copy lists the file; else the package manager whose records list it ({@link Owners}); else none.
 * What follows from it (a fix for files a package manager answers for gives that manager's own
 * command) is verify's {@code OwnersFixes}.
 */
public final class CopyOwners {
    /** How far above a copy's folder a state folder is looked for (lib64, targets/x86_64-linux/lib, bin/12.6/x64). */
    static final int STATE_LEVELS = 4;

    private CopyOwners() {
    }

    /** The copies with their owners, and the package records that could not be read while looking. */
    public record Owned(List<CudnnCopy> copies, List<Path> unreadRecords) {
        public Owned {
            copies = List.copyOf(copies);
            unreadRecords = List.copyOf(unreadRecords);
        }
    }

    public static List<CudnnCopy> attach(Host host, List<CudnnCopy> copies) {
        return owned(host, copies).copies();
    }

    /** Each copy with its owner; a record the owners could not read is named, since its copy's owner was not checked. */
    public static Owned owned(Host host, List<CudnnCopy> copies) {
        Owners owners = new Owners(host);
        List<CudnnCopy> out = new ArrayList<>();
        for (CudnnCopy c : copies) {
            Path lib = host.path(c.path());
            out.add(c.withOwner(installedByTool(host, lib) ? Owner.TOOL : owners.of(lib)));
        }
        return new Owned(out, owners.unreadable());
    }

    /** An install record of this tool lists {@code lib} (as written or as its real file). */
    static boolean installedByTool(Host host, Path lib) {
        Path dir = lib.getParent();
        for (int i = 0; dir != null && i < STATE_LEVELS; i++, dir = dir.getParent()) {
            if (!Files.isDirectory(dir.resolve(StateFolder.NAME), LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try {
                StateReader reader = new StateReader(InstallTarget.prefix(dir, host.os()));
                StatePaths paths = reader.paths();
                for (InstallRecord r : reader.records()) {
                    for (InstallRecord.InstalledFile f : r.installed() == null ? List.<InstallRecord.InstalledFile>of() : r.installed()) {
                        Path p = paths.resolve(f.path());
                        if (host.sameFile(p, lib)) {
                            return true;
                        }
                    }
                }
            } catch (RuntimeException damagedOrUnreadable) {
                // a damaged state folder is verify's own finding; it proves no ownership
            }
            return false;
        }
        return false;
    }
}
