package dev.cudnntool.install;
import dev.cudnntool.ExitCode;
import dev.cudnntool.archive.ArchiveFile;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.archive.format.ArchiveDigest;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.fetch.ReleaseFetch;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * {@code cudnn install} from its source to its outcome, the one call its command makes. For {@code --release}:
 * plan the fetch (is it in the cache?), run the checks that need no archive before a long download (a dry run
 * stops there; a stop there fetches nothing), download into the cache, then as for {@code --archive}: start the
 * digest beside the catalogue and host checks, and run the {@link InstallService}.
 */
public final class InstallWorkflow {
    /** A progress bar for one phase ("downloading", "installing", "reading"), told when its phase is done. */
    public interface Progress extends ReadProgress {
        Progress NONE = new Progress() {
            @Override
            public void update(long read, long total, int files, long written) {
            }

            @Override
            public void done() {
            }
        };

        void done();
    }

    private final Host host;
    private final InstallService service;
    private final Catalogue catalogue;
    private final Function<String, Progress> progress;

    /** @param progress a progress bar for a phase's label */
    public InstallWorkflow(Host host, InstallService service, Catalogue catalogue, Function<String, Progress> progress) {
        this.host = host;
        this.service = service;
        this.catalogue = catalogue;
        this.progress = progress;
    }

    /**
     * As {@link #run(InstallSource, InstallRequest)}, then appends the target's variables to {@code envFile}
     * ({@code --env-file}; null: none) when the install succeeded or found it already there. The file is checked
     * before anything else (exit 2), so a bad one changes nothing.
     */
    public InstallRun run(InstallSource source, InstallRequest request, Path envFile) {
        if (envFile != null) {
            EnvFile.check(host, envFile);
        }
        InstallRun run = run(source, request);
        InstallOutcome o = run.outcome();
        if (envFile == null || run.dryRun() || o.exit() != ExitCode.OK || o.preflight() == null) {
            return run;
        }
        List<EnvFile.Entry> lines = EnvFile.entries(host, o.preflight().target(), run.name());
        EnvFile.append(envFile, lines);
        return run.withEnv(envFile, lines);
    }

    /** Runs {@code request} (its archive, checksum and digest filled in here) with the archive from {@code source}. */
    public InstallRun run(InstallSource source, InstallRequest request) {
        if (source instanceof InstallSource.LocalArchive a) {
            return install(a.file(), a.expected(), request, null);
        }
        return release((InstallSource.Release) source, request);
    }

    private InstallRun release(InstallSource.Release source, InstallRequest request) {
        InstallSource.Fetcher fetcher = source.fetcher();
        ReleaseFetch fetched = fetcher.fetch(true, ReadProgress.NONE); // the plan only
        if (!fetched.cached()) { // the host and target checks that need no archive, before a long download
            ArchiveName name = ArchiveName.parse(fetched.file());
            InstallRequest before = request.toBuilder().archive(fetched.path(host)).expected(null).digest(null)
                    .dryRun(true).build();
            if (request.dryRun()) {
                InstallOutcome o = service.dryRunBeforeFetch(before, name, fetched.file()
                        + (fetched.url() == null ? "" : " from " + fetched.url()) + " into " + fetched.path());
                if (o.exit() == ExitCode.OK) { // the file exists (HEAD), as the real run would find
                    source.exists().check(fetched);
                }
                return new InstallRun(name, true, o, fetched, InstallRun.Reached.CHECKED_BEFORE_FETCH);
            }
            InstallOutcome stopped = service.stopBeforeFetch(before, name);
            if (stopped != null) {
                return new InstallRun(name, false, stopped, fetched, InstallRun.Reached.STOPPED_BEFORE_FETCH);
            }
        }
        if (!request.dryRun()) {
            Progress bar = progress.apply("downloading");
            fetched = fetcher.fetch(false, bar);
            bar.done();
        }
        Path file = fetched.path(host);
        return install(file, catalogue.expectation(ArchiveFile.name(file)), request, fetched);
    }

    private InstallRun install(Path file, ChecksumExpectation expected,
                              InstallRequest request, ReleaseFetch fetched) {
        ArchiveName name = ArchiveFile.name(file);
        try (ArchiveDigest early = InstallService.startDigest(file, name)) { // beside the catalogue and the host checks
            InstallRequest req = request.toBuilder().archive(file).expected(expected).digest(early).build();
            Progress bar = progress.apply(request.dryRun() ? "reading" : "installing");
            InstallOutcome o = service.run(req, bar);
            bar.done();
            return new InstallRun(name, request.dryRun(), o, fetched, InstallRun.Reached.INSTALL_RAN);
        }
    }
}
