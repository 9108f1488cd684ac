package dev.cudnntool.install;

import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.Finding;
import dev.cudnntool.archive.ArchiveReport;
import java.util.List;

/**
 * Proves a committed install works (the native probe); an error finding undoes the install.
 * Implemented in the verify package, injected by the command line.
 */
public interface PostInstallCheck {
    PostInstallCheck NONE = (target, report) -> List.of();

    List<Finding> check(InstallTarget target, ArchiveReport report);
}
