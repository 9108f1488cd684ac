package dev.cudnntool.host;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Pure parsers for nvidia-smi's output, tested on text copied from real drivers. */
public final class NvidiaSmi {
    /** "Driver Version: 535.104.05" up to R595, "KMD Version: 610.57.04" from R610; also "-q" style "Driver Version : …". */
    private static final Pattern DRIVER = Pattern.compile("(?:Driver|KMD) Version\\s*:\\s*([0-9]+(?:\\.[0-9]+)+)");
    /** "CUDA Version: 12.2", from R610 "CUDA UMD Version: 13.3". */
    private static final Pattern CUDA = Pattern.compile("CUDA (?:UMD )?Version\\s*:\\s*([0-9]+\\.[0-9]+)");

    /** The driver version and the newest CUDA it supports, from the table header or "-q" output. */
    public record Header(String driverVersion, String cudaCeiling) {
    }

    /** One GPU; {@code computeCapability} ("8.6") is null when nvidia-smi is too old to report {@code compute_cap}. */
    @com.fasterxml.jackson.annotation.JsonInclude(JsonInclude.Include.NON_NULL)
    public record Gpu(String name, String driverVersion, String computeCapability) {
        public Gpu(String name, String driverVersion) {
            this(name, driverVersion, null);
        }
    }

    /** The query with the compute capability; nvidia-smi before R510 or so refuses the field (then {@link #GPU_QUERY}). */
    public static final String GPU_QUERY_CC = "--query-gpu=name,driver_version,compute_cap";
    public static final String GPU_QUERY = "--query-gpu=name,driver_version";
    private static final Pattern CC = Pattern.compile("\\d{1,2}\\.\\d");

    private NvidiaSmi() {
    }

    public static Optional<Header> parseHeader(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher d = DRIVER.matcher(text);
        if (!d.find()) {
            return Optional.empty();
        }
        Matcher c = CUDA.matcher(text);
        return Optional.of(new Header(d.group(1), c.find() ? c.group(1) : null));
    }

    /** Parses {@code --query-gpu=name,driver_version --format=csv,noheader}: one GPU a line. */
    public static List<Gpu> parseGpuList(String text) {
        List<Gpu> gpus = new ArrayList<>();
        if (text == null) {
            return gpus;
        }
        for (String line : text.split("\\R")) {
            int comma = line.lastIndexOf(',');
            if (comma <= 0) {
                continue;
            }
            String name = line.substring(0, comma).strip();
            String driver = line.substring(comma + 1).strip();
            if (!name.isEmpty() && driver.matches("[0-9]+(\\.[0-9]+)+")) {
                gpus.add(new Gpu(name, driver));
            }
        }
        return gpus;
    }

    /**
     * Parses {@code --query-gpu=name,driver_version,compute_cap --format=csv,noheader}: "NVIDIA GeForce RTX 3090, 535.104.05, 8.6".
     * A line whose last field is not a compute capability ("[N/A]", an error text) keeps the GPU without one.
     */
    public static List<Gpu> parseGpuListWithCc(String text) {
        List<Gpu> gpus = new ArrayList<>();
        if (text == null) {
            return gpus;
        }
        for (String line : text.split("\\R")) {
            int last = line.lastIndexOf(',');
            if (last <= 0) {
                continue;
            }
            String cc = line.substring(last + 1).strip();
            List<Gpu> head = parseGpuList(line.substring(0, last));
            if (head.size() == 1) {
                gpus.add(new Gpu(head.get(0).name(), head.get(0).driverVersion(), CC.matcher(cc).matches() ? cc : null));
            }
        }
        return gpus;
    }

    /** Compares dotted driver versions numerically: "535.104.05" &gt; "535.54.03". */
    public static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = compareNumbers(i < x.length ? x[i] : "0", i < y.length ? y[i] : "0");
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Two runs of digits compared as numbers of any length (no int to overflow); a non-number counts as 0. */
    private static int compareNumbers(String a, String b) {
        String p = stripZeros(a);
        String q = stripZeros(b);
        return p.length() != q.length() ? Integer.compare(p.length(), q.length()) : Integer.signum(p.compareTo(q));
    }

    private static String stripZeros(String s) {
        if (s.isEmpty() || !s.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            return "";
        }
        int i = 0;
        while (i < s.length() && s.charAt(i) == '0') {
            i++;
        }
        return s.substring(i);
    }
}
