package dev.cudnntool.archive.catalogue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * NVIDIA's cuDNN support matrices, one row per release, CUDA variant and table row ({@value #RESOURCE}, kept next
 * to the catalogue, each row with the page it was copied from): the CUDA toolkit minors, the driver minimum on Linux
 * and on Windows, and the compute capabilities. A release whose page could not be read has no rows; callers then
 * fall back to the driver minimum of the CUDA major. Loaded on first use only.
 */
public final class SupportMatrix {
    public static final String RESOURCE = "cudnn-support-matrix.json";
    public static final int SCHEMA = 1;
    private static final Pattern RELEASE = Pattern.compile("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    private static final Pattern MINOR = Pattern.compile("\\d{1,3}\\.\\d{1,3}");
    private static final Pattern DRIVER = Pattern.compile("\\d{2,4}(?:\\.\\d{1,3}){0,2}");
    private static final Pattern URL = Pattern.compile("https://[\\x21-\\x7e]{1,300}");
    private static final Pattern NOTE = Pattern.compile("[\\x20-\\x7e]{1,500}");

    /**
     * One row of a release's table.
     *
     * @param release             "9.10.2"
     * @param cuda                the CUDA major of the build ("for CUDA 12.x")
     * @param toolkits            the toolkit minors the row lists ("12.8", "12.9")
     * @param driverLinux         the Linux driver minimum ("570.26"; "470" where an old page names the driver branch
     *                            r470), or null where the page publishes none
     * @param driverWindows       the Windows driver minimum, or null where the page says N/A or publishes none
     * @param computeCapabilities "5.0" … "12.0", as listed; empty where the page says "SM 3.5 and later"
     * @param computeCapabilityFrom "3.5" where the page says "SM 3.5 and later", else null
     * @param source              the page the row was copied from
     * @param note                what the page's row says besides, or null
     */
    public record Row(String release, int cuda, List<String> toolkits, String driverLinux, String driverWindows,
                      List<String> computeCapabilities, String computeCapabilityFrom, String source, String note) {
        public Row {
            toolkits = List.copyOf(toolkits);
            computeCapabilities = List.copyOf(computeCapabilities);
            if (computeCapabilities.isEmpty() == (computeCapabilityFrom == null)) {
                throw new IllegalArgumentException("a row lists compute capabilities or names the lowest one, not both or neither");
            }
        }

        public boolean hasToolkit(int major, int minor) {
            return toolkits.contains(major + "." + minor);
        }

        /**
         * Whether a GPU of compute capability {@code cc} ("8.7") runs this row's build: a listed one of its major at or
         * below its minor, or (old pages) any at or above the row's lowest.
         */
        public boolean supportsGpu(String cc) {
            int[] g = numbers(cc);
            if (computeCapabilityFrom != null) {
                return compare(g, numbers(computeCapabilityFrom)) >= 0;
            }
            return computeCapabilities.stream().map(SupportMatrix::numbers).anyMatch(c -> c[0] == g[0] && c[1] <= g[1]);
        }

        /** The driver minimum for an OS, or empty where the page publishes none. */
        public Optional<String> driverMinimum(boolean windows) {
            return Optional.ofNullable(windows ? driverWindows : driverLinux);
        }

        /** "12.0–12.9" */
        public String toolkitRange() {
            return range(toolkits);
        }

        /** "5.0–9.0"; "3.5 and later" */
        public String computeRange() {
            return computeCapabilityFrom != null ? computeCapabilityFrom + " and later" : range(computeCapabilities);
        }

        /** The lowest compute capability the row supports. */
        int[] lowestGpu() {
            return computeCapabilityFrom != null ? numbers(computeCapabilityFrom)
                    : computeCapabilities.stream().map(SupportMatrix::numbers).min(SupportMatrix::compare).orElseThrow();
        }
    }

    /**
     * How an archive fits what is known, by the rows of its release and CUDA variant. Every field but {@code rows} is
     * null when the matrix has no row for it (or the toolkit/GPU is not known).
     *
     * @param rows          the rows of the release and variant (empty: the matrix does not know it)
     * @param toolkitOk     whether a row lists the toolkit's minor
     * @param gpuOk         whether a row (for that toolkit, when known) supports the GPU
     * @param driverMinimum the lowest driver minimum among the rows that fit, for the OS; null where none is published
     * @param source        the page of the rows that decided
     * @param why           why the toolkit or the GPU does not fit, or null
     */
    public record Fit(List<Row> rows, Boolean toolkitOk, Boolean gpuOk, String driverMinimum, String source, String why) {
        static final Fit UNKNOWN = new Fit(List.of(), null, null, null, null, null);

        public boolean known() {
            return !rows.isEmpty();
        }
    }

    private final List<Row> rows;

    private SupportMatrix(List<Row> rows) {
        this.rows = List.copyOf(rows);
    }

    public static SupportMatrix of(List<Row> rows) {
        return new SupportMatrix(rows);
    }

    public static SupportMatrix empty() {
        return new SupportMatrix(List.of());
    }

    public static SupportMatrix bundled() {
        return Bundled.INSTANCE;
    }

    private static final class Bundled {
        static final SupportMatrix INSTANCE = parse(SmallJson.bundled(RESOURCE));
    }

    /** Reads the matrix; anything not of schema 1's shape is an {@link IllegalArgumentException} naming the row and field. */
    public static SupportMatrix parse(byte[] json) {
        Map<String, Object> top = SmallJson.object(json, "support matrix");
        if (!Long.valueOf(SCHEMA).equals(top.get("schema"))) {
            throw new IllegalArgumentException("support matrix schema is not " + SCHEMA);
        }
        List<Row> out = new ArrayList<>();
        int i = 0;
        for (Map<String, Object> o : SmallJson.objects(top, "rows", "support matrix")) {
            String where = "support matrix row " + i++;
            String release = SmallJson.text(o, "release", RELEASE, false, where);
            where += " (" + release + ")";
            int cuda = SmallJson.number(o, "cuda", 7, 99, where);
            List<String> toolkits = SmallJson.list(o, "toolkits", MINOR, where);
            for (String t : toolkits) {
                if (numbers(t)[0] != cuda) {
                    throw new IllegalArgumentException(where + ": toolkit " + t + " is not of CUDA " + cuda);
                }
            }
            String from = SmallJson.text(o, "computeCapabilityFrom", MINOR, true, where);
            List<String> cc;
            if (from == null) {
                cc = SmallJson.list(o, "computeCapabilities", MINOR, where);
            } else if (o.get("computeCapabilities") instanceof List<?> l && l.isEmpty()) {
                cc = List.of();
            } else {
                throw new IllegalArgumentException(where + ": 'computeCapabilities' must be [] beside 'computeCapabilityFrom'");
            }
            out.add(new Row(release, cuda, toolkits, SmallJson.text(o, "driverLinux", DRIVER, true, where),
                    SmallJson.text(o, "driverWindows", DRIVER, true, where), cc, from,
                    SmallJson.text(o, "source", URL, false, where), SmallJson.text(o, "note", NOTE, true, where)));
        }
        return new SupportMatrix(out);
    }

    public List<Row> all() {
        return rows;
    }

    /** The rows of a release ("9.5.1", or longer: "9.5.1.17") built for CUDA {@code cudaMajor}. */
    public List<Row> rows(String version, int cudaMajor) {
        String release = release(version);
        return rows.stream().filter(r -> r.release().equals(release) && r.cuda() == cudaMajor).toList();
    }

    /** "9.5.1" of "9.5.1.17"; the version itself when shorter. */
    public static String release(String version) {
        String[] p = version.split("\\.");
        return p.length >= 3 ? p[0] + "." + p[1] + "." + p[2] : version;
    }

    /**
     * How the archive of {@code version} for CUDA {@code cudaMajor} fits a toolkit (major.minor, null when not known),
     * a GPU (compute capability, null when not known) and an OS.
     */
    public Fit fit(String version, int cudaMajor, int[] toolkit, String gpu, boolean windows) {
        List<Row> all = rows(version, cudaMajor);
        if (all.isEmpty()) {
            return Fit.UNKNOWN;
        }
        String name = "cuDNN " + release(version) + " for CUDA " + cudaMajor;
        List<Row> byToolkit = toolkit == null ? all : all.stream().filter(r -> r.hasToolkit(toolkit[0], toolkit[1])).toList();
        Boolean toolkitOk = toolkit == null ? null : !byToolkit.isEmpty();
        String why = Boolean.FALSE.equals(toolkitOk) ? "NVIDIA's support matrix of " + name + " lists toolkits "
                + String.join(", ", all.stream().map(Row::toolkitRange).distinct().toList()) + ", not " + toolkit[0] + "." + toolkit[1]
                : null;
        List<Row> base = byToolkit.isEmpty() ? all : byToolkit;
        List<Row> chosen = base;
        Boolean gpuOk = null;
        if (gpu != null) {
            List<Row> byGpu = base.stream().filter(r -> r.supportsGpu(gpu)).toList();
            gpuOk = !byGpu.isEmpty();
            if (byGpu.isEmpty()) {
                List<Row> elsewhere = all.stream().filter(r -> r.supportsGpu(gpu)).toList();
                String gpuWhy = elsewhere.isEmpty()
                        ? "NVIDIA's support matrix of " + name + " lists compute capabilities "
                        + String.join(", ", all.stream().map(Row::computeRange).distinct().toList()) + ", not " + gpu
                        : "with " + name + " compute capability " + gpu + " needs toolkit "
                        + String.join(", ", elsewhere.stream().map(Row::toolkitRange).distinct().toList());
                why = why == null ? gpuWhy : why + "; " + gpuWhy;
            } else {
                chosen = byGpu;
            }
        }
        String min = chosen.stream().map(r -> r.driverMinimum(windows).orElse(null)).filter(m -> m != null)
                .min(Comparator.comparing(SupportMatrix::releaseNumbers, SupportMatrix::compare)).orElse(null);
        return new Fit(all, toolkitOk, gpuOk, min, chosen.get(0).source(), why);
    }

    /**
     * For a release the matrix does not hold, why it surely lacks the GPU too: the nearest older release it holds lacks
     * it and so does the nearest newer one (support for a GPU generation is added once and dropped once, never in
     * between), or there is no newer one and the GPU is of a generation the older one already dropped (below its lowest
     * compute capability). Empty when nothing can be said; callers then neither recommend nor refuse on the GPU's account
     * alone, and never call such a release unsupported.
     */
    public Optional<String> droppedBefore(String version, int cudaMajor, String gpu) {
        if (gpu == null || !rows(version, cudaMajor).isEmpty()) {
            return Optional.empty();
        }
        String[] around = around(version, cudaMajor);
        String older = around[0];
        String newer = around[1];
        if (older == null || !Boolean.FALSE.equals(fit(older, cudaMajor, null, gpu, false).gpuOk())) {
            return Optional.empty();
        }
        if (newer != null) {
            return Boolean.FALSE.equals(fit(newer, cudaMajor, null, gpu, false).gpuOk())
                    ? Optional.of("not in the support matrix, but cuDNN " + older + " and " + newer + " around it (CUDA " + cudaMajor
                    + ") both lack compute capability " + gpu) : Optional.empty();
        }
        String o = older;
        int[] lowest = rows(older, cudaMajor).stream().map(Row::lowestGpu).min(SupportMatrix::compare).orElseThrow();
        return compare(numbers(gpu), lowest) < 0 ? Optional.of("not in the support matrix, but cuDNN " + o + ", the newest release it"
                + " holds for CUDA " + cudaMajor + ", already dropped compute capability " + gpu) : Optional.empty();
    }

    /**
     * For a release the matrix does not hold, why its support for the GPU is not known either way: the nearest older
     * release it holds supports the GPU and the nearest newer one does not, so a release in between dropped it. Such a
     * release is neither refused nor recommended. Empty otherwise.
     */
    public Optional<String> droppedBetween(String version, int cudaMajor, String gpu) {
        if (gpu == null || !rows(version, cudaMajor).isEmpty()) {
            return Optional.empty();
        }
        String[] around = around(version, cudaMajor);
        if (around[0] == null || around[1] == null || !Boolean.TRUE.equals(fit(around[0], cudaMajor, null, gpu, false).gpuOk())
                || !Boolean.FALSE.equals(fit(around[1], cudaMajor, null, gpu, false).gpuOk())) {
            return Optional.empty();
        }
        return Optional.of("not in the support matrix: cuDNN " + around[0] + " (CUDA " + cudaMajor + ") supports compute capability "
                + gpu + " and " + around[1] + " does not; which release between them dropped it is not known");
    }

    /** The nearest older and newer releases the matrix holds for a CUDA major (null where none). */
    private String[] around(String version, int cudaMajor) {
        int[] v = releaseNumbers(release(version));
        String older = null;
        String newer = null;
        for (String h : rows.stream().filter(r -> r.cuda() == cudaMajor).map(Row::release).distinct()
                .sorted(Comparator.comparing(SupportMatrix::releaseNumbers, SupportMatrix::compare)).toList()) {
            int c = compare(releaseNumbers(h), v);
            if (c < 0) {
                older = h;
            } else if (c > 0 && newer == null) {
                newer = h;
            }
        }
        return new String[] {older, newer};
    }

    /** Up to three numbers of a release ("9.10.2") or a driver ("580.65.06"), zeros where it has fewer. */
    private static int[] releaseNumbers(String release) {
        String[] p = release.split("\\.");
        int[] out = new int[3];
        for (int i = 0; i < Math.min(3, p.length); i++) {
            out[i] = Integer.parseInt(p[i]);
        }
        return out;
    }

    private static String range(List<String> values) {
        List<String> sorted = values.stream().sorted(Comparator.comparing(SupportMatrix::numbers, SupportMatrix::compare)).toList();
        return sorted.size() == 1 ? sorted.get(0) : sorted.get(0) + "–" + sorted.get(sorted.size() - 1);
    }

    static int[] numbers(String dotted) {
        String[] p = dotted.split("\\.");
        return new int[] {Integer.parseInt(p[0]), p.length > 1 ? Integer.parseInt(p[1]) : 0};
    }

    private static int compare(int[] a, int[] b) {
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            if (a[i] != b[i]) {
                return Integer.compare(a[i], b[i]);
            }
        }
        return Integer.compare(a.length, b.length);
    }
}
