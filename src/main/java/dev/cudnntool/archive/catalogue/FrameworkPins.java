package dev.cudnntool.archive.catalogue;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Which cuDNN a framework release pins or was tested with ({@value #RESOURCE}, kept with the catalogue, each row
 * with its source): torch's {@code nvidia-cudnn-cuXX==…} pins, TensorFlow's tested build configurations, ONNX
 * Runtime's requirements page, jax's CUDA plugin pins. What {@code cudnn releases --for torch==2.5.1} reads.
 */
public final class FrameworkPins {
    public static final String RESOURCE = "cudnn-framework-pins.json";
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,40}");
    private static final Pattern VERSION = Pattern.compile("\\d{1,4}(?:\\.\\d{1,4}){0,3}");
    private static final Pattern OS = Pattern.compile("linux|windows");
    private static final Pattern TEXT = Pattern.compile("[\\x20-\\x7e]{1,500}");
    private static final Pattern REQUIRES = Pattern.compile("nvidia-cudnn-cu\\d{2}==\\d{1,4}(?:\\.\\d{1,4}){1,3}");

    /**
     * @param framework its pip name: torch, tensorflow, onnxruntime-gpu, jax
     * @param version   the release ("2.5.1"), or the series it covers ("1.19": every 1.19.x)
     * @param cudnn     the cuDNN release ("9.1.0.70") or the prefix of one ("8.9": the newest 8.9.x catalogued)
     * @param cuda      the CUDA major of the build
     * @param os        linux or windows where the pin differs by OS, else null
     * @param requires  the exact pin read from the wheel's METADATA ({@code nvidia-cudnn-cu12==9.1.0.70}), or null
     */
    public record Pin(String framework, String version, String cudnn, int cuda, String os, String source, String note,
                      String requires) {
        public Pin(String framework, String version, String cudnn, int cuda, String os, String source, String note) {
            this(framework, version, cudnn, cuda, os, source, note, null);
        }

        /** Whether a catalogued cuDNN version ("9.1.0.70") is this pin's. */
        public boolean matches(String cudnnVersion) {
            return cudnnVersion.equals(cudnn) || cudnnVersion.startsWith(cudnn + ".");
        }

        boolean covers(String asked) {
            return asked.equals(version) || asked.startsWith(version + ".");
        }
    }

    private final List<Pin> pins;

    private FrameworkPins(List<Pin> pins) {
        this.pins = List.copyOf(pins);
    }

    public static FrameworkPins bundled() {
        return Bundled.INSTANCE;
    }

    private static final class Bundled {
        static final FrameworkPins INSTANCE = parse(SmallJson.bundled(RESOURCE));
    }

    public static FrameworkPins parse(byte[] json) {
        Map<String, Object> top = SmallJson.object(json, "framework pins");
        if (!Long.valueOf(1).equals(top.get("schema"))) {
            throw new IllegalArgumentException("framework pins schema is not 1");
        }
        List<Pin> out = new ArrayList<>();
        int i = 0;
        for (Map<String, Object> o : SmallJson.objects(top, "rows", "framework pins")) {
            String where = "framework pin " + i++;
            out.add(new Pin(SmallJson.text(o, "framework", NAME, false, where), SmallJson.text(o, "version", VERSION, false, where),
                    SmallJson.text(o, "cudnn", VERSION, false, where), SmallJson.number(o, "cuda", 7, 99, where),
                    SmallJson.text(o, "os", OS, true, where), SmallJson.text(o, "source", TEXT, false, where),
                    SmallJson.text(o, "note", TEXT, true, where), requires(o, where)));
        }
        return new FrameworkPins(out);
    }

    /** The optional {@code requires} (schema 1 compatible: older tables lack it); it must name the row's own cuDNN. */
    private static String requires(Map<String, Object> o, String where) {
        String r = SmallJson.text(o, "requires", REQUIRES, true, where);
        if (r != null && !r.endsWith("==" + o.get("cudnn"))) {
            throw new IllegalArgumentException(where + ": requires " + r + " does not name its cudnn " + o.get("cudnn"));
        }
        return r;
    }

    public List<Pin> all() {
        return pins;
    }

    /**
     * The pin for {@code framework} at {@code version} on an OS ("linux"/"windows"): the row of that release, else the
     * row of the longest series covering it. Framework names are compared in lower case ({@code jaxlib} is jax).
     */
    public Optional<Pin> find(String framework, String version, String os) {
        String name = framework.toLowerCase(Locale.ROOT).replace('_', '-');
        String f = name.equals("jaxlib") || name.startsWith("jax-cuda") ? "jax" : name.equals("pytorch") ? "torch" : name;
        Pin best = null;
        for (Pin p : pins) {
            if (p.framework().equals(f) && p.covers(version) && (p.os() == null || p.os().equals(os))
                    && (best == null || p.version().length() > best.version().length())) {
                best = p;
            }
        }
        return Optional.ofNullable(best);
    }

    /** "jax 0.4.28; onnxruntime-gpu 1.15, 1.16, 1.19; …": what the table knows, for an error message. */
    public String known() {
        Map<String, LinkedHashSet<String>> by = new TreeMap<>();
        for (Pin p : pins) { // versions in the table's order (its first rows are the ones read from real wheels)
            by.computeIfAbsent(p.framework(), k -> new LinkedHashSet<>()).add(p.version());
        }
        List<String> parts = new ArrayList<>();
        by.forEach((k, v) -> parts.add(k + " " + String.join(", ", v)));
        return String.join("; ", parts);
    }
}
