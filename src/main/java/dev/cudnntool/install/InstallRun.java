package dev.cudnntool.install;

import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.fetch.ReleaseFetch;
import java.nio.file.Path;
import java.util.List;

/**
 * How one {@code cudnn install} ended (the {@link InstallWorkflow}'s answer): the archive's name, whether it was a
 * dry run, the install's outcome, what {@code --release} fetched (or would; null for --archive) and where the
 * run stopped, and the lines {@code --env-file} appended ({@code envFile} null without the option; {@code env} empty
 * when nothing was written: a dry run, a failure).
 */
public record InstallRun(ArchiveName name, boolean dryRun, InstallOutcome outcome, ReleaseFetch fetched, Reached reached,
                         Path envFile, List<EnvFile.Entry> env) {
    public InstallRun {
        env = env == null ? List.of() : List.copyOf(env);
    }

    public InstallRun(ArchiveName name, boolean dryRun, InstallOutcome outcome, ReleaseFetch fetched, Reached reached) {
        this(name, dryRun, outcome, fetched, reached, null, List.of());
    }

    /** This run with the lines appended to {@code file}. */
    public InstallRun withEnv(Path file, List<EnvFile.Entry> lines) {
        return new InstallRun(name, dryRun, outcome, fetched, reached, file, lines);
    }

    /** Where a run got to. */
    public enum Reached {
        /** A dry run of a release not in the cache: only the checks that need no archive ran; nothing was fetched. */
        CHECKED_BEFORE_FETCH,
        /** The host or target checks stopped a release before its download: nothing was fetched or changed. */
        STOPPED_BEFORE_FETCH,
        /** The archive (given, in the cache or just fetched) went through the install service (its outcome says how it ended). */
        INSTALL_RAN
    }

    /** Whether the target is now different from before (a dry run: whether the real run would change it). */
    public boolean changed() {
        return outcome.changed(dryRun);
    }

    /** Whether a release was downloaded in this run. */
    public boolean downloaded() {
        return fetched != null && fetched.downloaded();
    }
}
