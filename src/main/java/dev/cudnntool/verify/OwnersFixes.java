package dev.cudnntool.verify;

import dev.cudnntool.Finding;
import dev.cudnntool.Fix;
import dev.cudnntool.host.owner.Owner;
import java.util.List;

/**
 * A fix never says "reinstall with cudnn install" for files a package manager answers for (#19 item 19);
 * it gives that manager's own command. Decided by the fix's kind ({@link Fix.Kind#REINSTALL}), never its words.
 */
final class OwnersFixes {
    private OwnersFixes() {
    }

    static List<Finding> apply(List<Finding> findings, Owner owner) {
        if (owner == null || !owner.packageManager()) {
            return findings;
        }
        Fix own = Fix.packageManager("these files belong to " + owner.describe()
                + ", so put them back with its own command (not cudnn install): " + owner.reinstallCommand());
        return findings.stream().map(f -> f.remedy().is(Fix.Kind.REINSTALL) ? f.withFix(own) : f).toList();
    }
}
