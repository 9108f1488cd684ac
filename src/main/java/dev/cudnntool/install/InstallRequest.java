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

    /** A request built by name: {@code InstallRequest.builder().archive(file).prefix(dir).dryRun(true).build()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this request's values, to change some by name. */
    public Builder toBuilder() {
        return new Builder().archive(archive).expected(expected).cudaPath(cudaPath).prefix(prefix).force(force)
                .dryRun(dryRun).addToPath(addToPath).digest(digest);
    }

    /** Builds a request by name; what is not set stays null or false. */
    public static final class Builder {
        private Path archive;
        private ChecksumExpectation expected;
        private Path cudaPath;
        private Path prefix;
        private boolean force;
        private boolean dryRun;
        private SearchPathStore.Scope addToPath;
        private ArchiveDigest digest;

        private Builder() {
        }

        public Builder archive(Path v) {
            archive = v;
            return this;
        }

        public Builder expected(ChecksumExpectation v) {
            expected = v;
            return this;
        }

        public Builder cudaPath(Path v) {
            cudaPath = v;
            return this;
        }

        public Builder prefix(Path v) {
            prefix = v;
            return this;
        }

        public Builder force(boolean v) {
            force = v;
            return this;
        }

        public Builder dryRun(boolean v) {
            dryRun = v;
            return this;
        }

        public Builder addToPath(SearchPathStore.Scope v) {
            addToPath = v;
            return this;
        }

        public Builder digest(ArchiveDigest v) {
            digest = v;
            return this;
        }

        public InstallRequest build() {
            return new InstallRequest(archive, expected, cudaPath, prefix, force, dryRun, addToPath, digest);
        }
    }
}
