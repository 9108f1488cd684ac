package dev.cudnntool.host;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A GPU as {@code cudnn releases --gpu} reads it: a compute capability ("6.1", "sm_61", "compute_90a")
 * or the name of a common GPU ("RTX 2080", "NVIDIA A100-SXM4-80GB"), mapped through a small table of
 * NVIDIA's published compute capabilities (developer.nvidia.com/cuda-gpus).
 *
 * @param asked             the word as the user wrote it (printable)
 * @param name              the table's name of the GPU, or null when a compute capability was given
 * @param computeCapability "major.minor"
 */
public record GpuCapability(String asked, String name, String computeCapability) {
    private static final Pattern DOTTED = Pattern.compile("(\\d{1,2})\\.(\\d)");
    private static final Pattern SM = Pattern.compile("(?:sm|compute)_?(\\d{1,2})(\\d)[af]?");
    /** Words a GPU name may carry that say nothing about which GPU it is. */
    private static final Pattern NOISE = Pattern.compile("\\b(?:nvidia|geforce|tesla|quadro)\\b");
    private static final Map<String, String[]> TABLE = table(
            "GeForce GTX 1060", "6.1", "GeForce GTX 1070", "6.1", "GeForce GTX 1080", "6.1", "GeForce GTX 1080 Ti", "6.1",
            "Tesla P4", "6.1", "Tesla P40", "6.1", "Tesla P100", "6.0",
            "Tesla V100", "7.0", "Titan V", "7.0", "Jetson Xavier", "7.2", "Jetson Nano", "5.3",
            "Tesla T4", "7.5", "GeForce RTX 2060", "7.5", "GeForce RTX 2070", "7.5", "GeForce RTX 2080", "7.5",
            "GeForce RTX 2080 Ti", "7.5", "Titan RTX", "7.5",
            "A100", "8.0", "A30", "8.0", "A10", "8.6", "A40", "8.6", "RTX A6000", "8.6",
            "GeForce RTX 3060", "8.6", "GeForce RTX 3070", "8.6", "GeForce RTX 3080", "8.6", "GeForce RTX 3090", "8.6",
            "Jetson Orin", "8.7", "Jetson AGX Orin", "8.7",
            "L4", "8.9", "L40", "8.9", "L40S", "8.9", "RTX 6000 Ada", "8.9",
            "GeForce RTX 4060", "8.9", "GeForce RTX 4070", "8.9", "GeForce RTX 4080", "8.9", "GeForce RTX 4090", "8.9",
            "H100", "9.0", "H200", "9.0", "GH200", "9.0", "B200", "10.0", "GB200", "10.0",
            "GeForce RTX 5070", "12.0", "GeForce RTX 5080", "12.0", "GeForce RTX 5090", "12.0");

    private static Map<String, String[]> table(String... pairs) {
        Map<String, String[]> t = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            t.put(key(pairs[i]), new String[] {pairs[i], pairs[i + 1]});
        }
        return t;
    }

    /**
     * Lower case, without NVIDIA's brand words, letters and digits only ("NVIDIA GeForce RTX 2080 Ti" is "rtx2080ti"),
     * except that a gap between two numbers stays as '|' ("H100 80GB" is "h100|80gb", not the H10080).
     */
    static String key(String name) {
        String words = NOISE.matcher(name.toLowerCase(Locale.ROOT)).replaceAll(" ");
        return words.replaceAll("(?<=\\d)[^a-z0-9]+(?=\\d)", "|").replaceAll("[^a-z0-9|]", "");
    }

    /** Reads {@code --gpu}; a word that is neither a compute capability nor a GPU of the table is exit 2. */
    public static GpuCapability parse(String word) {
        String w = word.trim();
        String shown = Text.printable(w);
        Matcher m = DOTTED.matcher(w);
        if (!m.matches()) {
            m = SM.matcher(w.toLowerCase(Locale.ROOT));
        }
        if (m.matches()) {
            int major = Integer.parseInt(m.group(1));
            if (major < 1) {
                throw unknown(shown);
            }
            return new GpuCapability(shown, null, major + "." + m.group(2));
        }
        String k = key(w);
        String[] best = null;
        int bestLength = 0;
        for (Map.Entry<String, String[]> e : TABLE.entrySet()) {
            String key = e.getKey();
            // "a100sxm480gb" is an A100; "a1000" (RTX A1000) is neither an A100 nor an A10.
            boolean fits = k.startsWith(key) && (k.length() == key.length() || !Character.isDigit(k.charAt(key.length())));
            if (fits && key.length() > bestLength) {
                best = e.getValue();
                bestLength = key.length();
            }
        }
        if (best == null || k.isEmpty()) {
            throw unknown(shown);
        }
        return new GpuCapability(shown, best[0], best[1]);
    }

    private static ToolException unknown(String shown) {
        return new ToolException(ExitCode.USAGE, "--gpu " + shown + " is neither a compute capability nor a GPU this tool knows",
                "pass its compute capability (--gpu 7.5 or --gpu sm_75; nvidia-smi --query-gpu=compute_cap --format=csv prints it)");
    }
}
