package dev.cudnntool.archive.catalogue;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.ArchiveName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The built-in catalogue of cuDNN archives whose sha256 NVIDIA published: {@value #RESOURCE}, a
 * verbatim copy of the project's {@code shared/data/cudnn-archives.json} (schema 1). Names are
 * looked up by their canonical spelling, so a browser copy or the blog typo finds NVIDIA's entry.
 * The bundled data is parsed on first use only (verify never pays for it). Release dates come from a
 * second resource, {@value #RELEASE_DATES}, NVIDIA's manifest dates per release.
 */
public final class Catalogue {
    public static final String RESOURCE = "cudnn-archives.json";
    /** Release dates from NVIDIA's manifests, kept apart so the catalogue stays a verbatim copy. */
    public static final String RELEASE_DATES = "cudnn-release-dates.json";
    public static final int SCHEMA = 1;
    private static final String RELEASE_DATE = "releaseDate";

    private final List<CatalogueEntry> archives;
    private final Map<String, CatalogueEntry> byName = new LinkedHashMap<>();

    private Catalogue(List<CatalogueEntry> archives) {
        this.archives = List.copyOf(archives);
        for (CatalogueEntry e : this.archives) {
            byName.put(e.fileName().toLowerCase(Locale.ROOT), e);
        }
    }

    /** A catalogue of exactly these entries (tests: the fixture archive under an entry made for it). */
    public static Catalogue of(List<CatalogueEntry> entries) {
        return new Catalogue(entries);
    }

    public static Catalogue empty() {
        return new Catalogue(List.of());
    }

    /** The catalogue shipped in the jar. */
    public static Catalogue bundled() {
        return Bundled.INSTANCE;
    }

    private static final class Bundled {
        static final Catalogue INSTANCE = load();

        private static Catalogue load() {
            try (InputStream in = Catalogue.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("the jar lacks its resource " + RESOURCE);
                }
                Catalogue c = parse(in.readAllBytes());
                try (InputStream dates = Catalogue.class.getResourceAsStream(RELEASE_DATES)) {
                    return dates == null ? c : c.withReleaseDates(parseDates(dates.readAllBytes()));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** {@code {"dates": {"9.5.1": "2024-10-25", "8.9.5.29": "2023-09-12"}}}: NVIDIA's manifest dates per release label. */
    static Map<String, String> parseDates(byte[] json) throws IOException {
        return CatalogueReader.dates(json);
    }

    /**
     * The same entries, each without a date of its own dated by its release label: the full version
     * ("8.9.5.29") first, else major.minor.patch ("9.5.1" for 9.5.1.17).
     */
    public Catalogue withReleaseDates(Map<String, String> byLabel) {
        List<CatalogueEntry> out = new ArrayList<>();
        for (CatalogueEntry e : archives) {
            String date = e.releaseDate();
            if (date == null) {
                date = byLabel.get(e.version());
            }
            if (date == null) {
                String[] p = e.version().split("\\.");
                date = p.length >= 3 ? byLabel.get(p[0] + "." + p[1] + "." + p[2]) : null;
            }
            out.add(e.withReleaseDate(date));
        }
        return new Catalogue(out);
    }

    /**
     * Reads and validates the data: schema 1, every archive with a parseable file name field set,
     * a 64-digit lower-case sha256, a positive size or null; every conflict with two or more candidates.
     */
    public static Catalogue parse(byte[] json) {
        return new Catalogue(CatalogueReader.entries(json, SCHEMA));
    }

    /** Every entry: the agreed archives first, then the disputed names. */
    public List<CatalogueEntry> archives() {
        return archives;
    }

    public int size() {
        return archives.size();
    }

    /**
     * The archives for one OS and a set of CPU labels, optionally for one CUDA version, newest first.
     * A variant without a minor ("12") fits every 12.x; one with a minor ("11.5", "13.4") fits that
     * minor when {@code cudaMinor} is given, and is listed for a plain {@code --cuda 11}.
     */
    public List<CatalogueEntry> select(String os, Set<String> arches, Integer cudaMajor, Integer cudaMinor) {
        List<CatalogueEntry> out = new ArrayList<>();
        for (CatalogueEntry e : archives) {
            if (!e.os().equals(os) || !arches.contains(e.arch())) {
                continue;
            }
            if (cudaMajor != null) {
                String[] v = e.cudaVariant().split("\\.");
                if (Integer.parseInt(v[0]) != cudaMajor
                        || cudaMinor != null && v.length > 1 && Integer.parseInt(v[1]) != cudaMinor) {
                    continue;
                }
            }
            out.add(e);
        }
        out.sort(NEWEST_FIRST);
        return out;
    }

    /** Newest cuDNN first; within a release, the newer CUDA variant first, then the name. */
    public static final Comparator<CatalogueEntry> NEWEST_FIRST = Comparator
            .comparing((CatalogueEntry e) -> numbers(e.version()), Catalogue::compareNumbers).reversed()
            .thenComparing((CatalogueEntry e) -> numbers(e.cudaVariant()), (a, b) -> compareNumbers(b, a))
            .thenComparing(CatalogueEntry::fileName);

    private static int[] numbers(String dotted) {
        String[] parts = dotted.split("\\.");
        int[] n = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            n[i] = parts[i].chars().allMatch(Character::isDigit) && !parts[i].isEmpty() ? Integer.parseInt(parts[i]) : 0;
        }
        return n;
    }

    private static int compareNumbers(int[] a, int[] b) {
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            int x = i < a.length ? a[i] : 0;
            int y = i < b.length ? b[i] : 0;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }

    /**
     * Where to download an archive, for a fix text: "from" its URL on NVIDIA's redist server when the
     * built-in catalogue has one, else from NVIDIA's archive page (behind a login). Loads the catalogue.
     */
    public static String downloadFrom(String canonicalName) {
        return bundled().lookup(canonicalName).map(CatalogueEntry::from).orElse(CatalogueEntry.FROM_LOGIN_PAGE);
    }

    /**
     * The catalogue with an NVIDIA manifest's archives (#30 item 2): a name it lacks is added, a known one gains the
     * manifest's size and URL; where both give a sha256 they must agree, else exit 3 naming both values.
     */
    public Catalogue withManifest(RedistManifest m) {
        List<CatalogueEntry> out = new ArrayList<>(archives);
        for (CatalogueEntry n : m.entries()) {
            Optional<CatalogueEntry> known = lookup(n.fileName());
            if (known.isEmpty()) {
                out.add(n);
                continue;
            }
            CatalogueEntry k = known.get();
            if (!k.accepted().contains(n.sha256())) {
                throw new ToolException(ExitCode.ARCHIVE_REJECTED, "NVIDIA's manifest "
                        + RedistManifest.fileName(m.label()) + " and the built-in catalogue disagree on " + n.fileName()
                        + ": the manifest says sha256 " + n.sha256() + ", the catalogue " + String.join(" or ", k.accepted()),
                        "nothing is fetched: check the mirror's manifest, or report it (the catalogue may be wrong)");
            }
            if (k.size() != null && !k.size().equals(n.size())) {
                throw new ToolException(ExitCode.ARCHIVE_REJECTED, "NVIDIA's manifest "
                        + RedistManifest.fileName(m.label()) + " and the built-in catalogue disagree on " + n.fileName()
                        + ": the manifest says " + n.size() + " bytes, the catalogue " + k.size(),
                        "nothing is fetched: check the mirror's manifest, or report it (the catalogue may be wrong)");
            }
            out.set(out.indexOf(k), new CatalogueEntry(k.fileName(), k.version(), k.os(), k.arch(), k.cudaVariant(), k.format(),
                    k.sha256(), n.size(), k.releaseDate() != null ? k.releaseDate() : n.releaseDate(), k.candidates(), true));
        }
        return new Catalogue(out);
    }

    /** The entry for an archive file name in NVIDIA's spelling (case-insensitive). */
    public Optional<CatalogueEntry> lookup(String canonicalName) {
        return Optional.ofNullable(byName.get(canonicalName.toLowerCase(Locale.ROOT)));
    }

    /** What an archive must hash to by this catalogue; an expectation that compares nothing when unknown. */
    public ChecksumExpectation expectation(ArchiveName name) {
        return lookup(name.canonicalName())
                .map(ChecksumExpectation::fromCatalogue)
                .orElseGet(() -> ChecksumExpectation.notInCatalogue(size()));
    }

    /** The JSON object {@code archive.catalogue}: {@code known}, and {@code sha256}, {@code size}, {@code releaseDate} where known;
     * a name public sources disagree on has {@code candidates} (every sha256 seen) instead of {@code sha256}. */
    public Map<String, Object> describe(ArchiveName name) {
        Map<String, Object> m = new LinkedHashMap<>();
        Optional<CatalogueEntry> e = lookup(name.canonicalName());
        m.put("known", e.isPresent());
        e.ifPresent(entry -> {
            if (entry.disputed()) {
                m.put("candidates", entry.candidates());
            } else {
                m.put("sha256", entry.sha256());
            }
            if (entry.size() != null) {
                m.put("size", entry.size());
            }
            if (entry.releaseDate() != null) {
                m.put(RELEASE_DATE, entry.releaseDate());
            }
        });
        return Collections.unmodifiableMap(m);
    }
}
