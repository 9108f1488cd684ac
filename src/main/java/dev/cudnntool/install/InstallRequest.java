package dev.cudnntool.install;

import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.archive.format.ArchiveDigest;
import dev.cudnntool.host.searchpath.SearchPathStore;
import java.nio.file.Path;

/**
 * What the user asked for, one run's inputs. {@code cudaPath} and {@code prefix} are null when
 * not given; {@code expected} is null without --sha256/--manifest; {@code addToPath} is the search
 * path --add-to-path names, null without it; {@code digest} is a zip's digest the caller started
 * early ({@link InstallService#startDigest}) and still owns, or null.
 */
public record InstallRequest(Path archive, ChecksumExpectation expected, Path cudaPath, Path prefix,
                             boolean force, boolean dryRun, SearchPathStore.Scope addToPath, ArchiveDigest digest) {
    /** A request without --add-to-path and without an early digest. */
    public InstallRequest(Path archive, ChecksumExpectation expected, Path cudaPath, Path prefix, boolean force,
                          boolean dryRun) {
        this(archive, expected, cudaPath, prefix, force, dryRun, null, null);
    }
}
