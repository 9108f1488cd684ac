package dev.cudnntool.archive.catalogue;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Facts about a cuDNN release that only third parties state ({@value #RESOURCE}: someone's copy of NVIDIA's
 * support-matrix row, maintainers of other projects saying a build dropped GPUs). Kept apart from
 * {@link SupportMatrix} on purpose: they are shown as "reported", with their source, never as NVIDIA's word, and
 * they never make the tool refuse or recommend on their own; at most a release NVIDIA's matrix does not hold becomes
 * "not known" for a GPU the claim excludes.
 */
public final class ReportedFacts {
    public static final String RESOURCE = "cudnn-reported-facts.json";
    /** Every fact's strength: what JSON shows beside it. */
    public static final String STRENGTH = "reported";
    private static final Pattern RELEASE = Pattern.compile("\\d{1,2}\\.\\d{1,3}\\.\\d{1,3}");
    private static final Pattern KIND = Pattern.compile("third-party-transcription|third-party-claim");
    private static final Pattern CC = Pattern.compile("\\d{1,2}\\.\\d");
    private static final Pattern TEXT = Pattern.compile("[\\x20-\\x7e]{1,500}");

    /**
     * @param release               the cuDNN release X.Y.Z it is about
     * @param cuda                  the CUDA major of the build it is about
     * @param kind                  third-party-transcription or third-party-claim
     * @param says                  what it says, in one line
     * @param belowComputeCapability for a claim that a build dropped GPUs: the compute capability below which, else null
     * @param source                where it was read (URLs or repository, path and commit)
     * @param quote                 the text read
     */
    @com.fasterxml.jackson.annotation.JsonInclude(JsonInclude.Include.NON_NULL)
    public record Fact(String release, int cuda, String kind, String says, String belowComputeCapability, String source,
                       String quote) {
        /** Always {@value ReportedFacts#STRENGTH}: never NVIDIA's word. */
        @com.fasterxml.jackson.annotation.JsonProperty("strength")
        public String strength() {
            return STRENGTH;
        }

        /** "reported (not NVIDIA's word) by …: …", for the text view. */
        public String line() {
            return "reported (not NVIDIA's word): cuDNN " + release + " for CUDA " + cuda + ": " + says + "; source: " + source;
        }
    }

    private final List<Fact> facts;

    private ReportedFacts(List<Fact> facts) {
        this.facts = List.copyOf(facts);
    }

    public static ReportedFacts bundled() {
        return Bundled.INSTANCE;
    }

    public static ReportedFacts none() {
        return new ReportedFacts(List.of());
    }

    private static final class Bundled {
        static final ReportedFacts INSTANCE = parse(SmallJson.bundled(RESOURCE));
    }

    /** Reads the table; bounded as every bundled table is, each field checked; anything else is an IllegalArgumentException. */
    public static ReportedFacts parse(byte[] json) {
        Map<String, Object> top = SmallJson.object(json, "reported facts");
        if (!Long.valueOf(1).equals(top.get("schema"))) {
            throw new IllegalArgumentException("reported facts schema is not 1");
        }
        List<Fact> out = new ArrayList<>();
        int i = 0;
        for (Map<String, Object> o : SmallJson.objects(top, "rows", "reported facts")) {
            String where = "reported fact " + i++;
            out.add(new Fact(SmallJson.text(o, "release", RELEASE, false, where), SmallJson.number(o, "cuda", 7, 99, where),
                    SmallJson.text(o, "kind", KIND, false, where), SmallJson.text(o, "says", TEXT, false, where),
                    SmallJson.text(o, "belowComputeCapability", CC, true, where), SmallJson.text(o, "source", TEXT, false, where),
                    SmallJson.text(o, "quote", TEXT, false, where)));
        }
        return new ReportedFacts(out);
    }

    public List<Fact> all() {
        return facts;
    }

    /** The facts about a catalogued version ("9.1.1.17" is release 9.1.1) and CUDA major; empty when none. */
    public List<Fact> about(String version, int cudaMajor) {
        String[] p = version.split("\\.");
        String release = p.length >= 3 ? p[0] + "." + p[1] + "." + p[2] : version;
        return facts.stream().filter(f -> f.release().equals(release) && f.cuda() == cudaMajor).toList();
    }
}
