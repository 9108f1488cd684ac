package dev.cudnntool.install;

import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import java.nio.file.Path;

/**
 * What the user asked for. {@code cudaPath} and {@code prefix} are null when not given;
 * {@code expected} is null without --sha256/--manifest.
 */
public record InstallRequest(Path archive, ChecksumExpectation expected, Path cudaPath, Path prefix,
                             boolean force, boolean dryRun, boolean probe) {
}
