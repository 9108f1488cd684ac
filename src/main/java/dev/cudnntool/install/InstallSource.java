package dev.cudnntool.install;

import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.host.fetch.ReleaseFetch;
import java.nio.file.Path;

/** Where {@code cudnn install} takes the archive from: a file the user has, or a release fetched first. */
public sealed interface InstallSource {
    /**
     * {@code --archive FILE}: the file, with the checksum the user gave (--sha256, --manifest) or the catalogue's,
     * or null when neither knows it.
     */
    record LocalArchive(Path file, ChecksumExpectation expected) implements InstallSource {
    }

    /**
     * {@code --release VERSION}: the catalogue's archive for this machine, looked up or fetched by {@code fetcher};
     * {@code exists} asks the server whether the planned file is there (a HEAD request), so a dry run ends as the real
     * run would (#30 item 4).
     */
    record Release(Fetcher fetcher, ExistsCheck exists) implements InstallSource {
        public Release(Fetcher fetcher) {
            this(fetcher, planned -> { });
        }
    }

    /** Throws the real run's refusal when the planned archive is not on its server; returns when it is. */
    @FunctionalInterface
    interface ExistsCheck {
        void check(ReleaseFetch planned);
    }

    /** Looks the release's archive up ({@code planOnly}: nothing downloaded) or fetches it into the cache. */
    @FunctionalInterface
    interface Fetcher {
        ReleaseFetch fetch(boolean planOnly, ReadProgress progress);
    }
}
