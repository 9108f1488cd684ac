package dev.cudnntool.host;
import dev.cudnntool.Arch;
import dev.cudnntool.ExitCode;
import dev.cudnntool.OsFamily;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.FrameworkPins;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which archives {@code cudnn releases} lists: the catalogue's spelling of an OS and of the CPUs,
 * and a CUDA version. {@link #parse} reads the user's words (aliases such as {@code win},
 * {@code x64}, {@code aarch64sbsa}; {@code --cuda 12} or {@code 12.4}) and defaults to this machine.
 *
 * @param os        the catalogue's OS: linux, windows or osx
 * @param arches    the catalogue's CPU names to list
 * @param cudaMajor null for every CUDA version
 * @param cudaMinor null for every minor of {@code cudaMajor}
 * @param cuda      the CUDA version as the user wrote it (trimmed), or null
 */
public record ReleaseFilter(String os, Set<String> arches, Integer cudaMajor, Integer cudaMinor, String cuda) {
    private static final Pattern CUDA = Pattern.compile("(\\d{1,9})(?:\\.(\\d{1,9}))?");
    private static final Map<String, String> OS_ALIASES = Map.of("linux", "linux", "windows", "windows",
            "win", "windows", "osx", "osx", "macos", "osx");
    private static final Map<String, String> ARCH_ALIASES = Map.of("x86_64", "x86_64", "x64", "x86_64",
            "amd64", "x86_64", "sbsa", "sbsa", "aarch64sbsa", "sbsa", "aarch64", "aarch64", "arm64", "arm64",
            "ppc64le", "ppc64le");

    /** The filter for {@code --os}, {@code --arch} and {@code --cuda} (each null when not given); a word it does not know is exit 2. */
    public static ReleaseFilter parse(Host host, String os, String arch, String cuda) {
        String wantOs = os == null ? hostOs(host) : alias(OS_ALIASES, os, "--os", "linux, windows or osx");
        Set<String> arches = arch == null ? hostArches(host) : Set.of(alias(ARCH_ALIASES, arch, "--arch",
                "x86_64, sbsa, aarch64, ppc64le or arm64"));
        if (cuda == null) {
            return new ReleaseFilter(wantOs, arches, null, null, null);
        }
        Matcher m = CUDA.matcher(cuda.trim());
        if (!m.matches()) {
            throw new ToolException(ExitCode.USAGE, "--cuda " + cuda + " is not a CUDA version",
                    "write the major (--cuda 12) or major.minor (--cuda 12.4)");
        }
        return new ReleaseFilter(wantOs, arches, Integer.valueOf(m.group(1)),
                m.group(2) == null ? null : Integer.valueOf(m.group(2)), cuda.trim());
    }

    /**
     * Whether the filter's platform is the machine's own (its OS, and CPUs it runs), so its toolkit and
     * driver say something; a foreign {@code --os} or {@code --arch} is another machine.
     */
    public boolean thisMachine(Host host) {
        return os.equals(hostOs(host)) && hostArches(host).containsAll(arches);
    }

    private static final Pattern DRIVER = Pattern.compile("\\d{2,4}(?:\\.\\d{1,3}){0,2}");

    /** Reads {@code --driver} as nvidia-smi prints it (535.104.05, 536.25, 580); anything else is exit 2. */
    public static String driverVersion(String driver) {
        String d = driver.trim();
        if (!DRIVER.matcher(d).matches()) {
            throw new ToolException(ExitCode.USAGE, "--driver " + Text.printable(d) + " is not a driver version",
                    "write it as nvidia-smi prints it: --driver 535.104.05 (Linux) or --driver 536.25 (Windows)");
        }
        return d;
    }

    private static final Pattern FOR = Pattern.compile("([A-Za-z][A-Za-z0-9_-]{0,40})==(\\d{1,4}(?:\\.\\d{1,4}){0,3})");

    /**
     * Reads {@code --for torch==2.5.1} against the framework pins kept with the catalogue; a word of another form, or a
     * framework release the table does not hold, is exit 2 with one line naming what it knows. The pin's CUDA major must
     * agree with {@code --cuda} when both are given.
     */
    public FrameworkPins.Pin pin(FrameworkPins pins, String word) {
        Matcher m = FOR.matcher(word.trim());
        if (!m.matches()) {
            throw new ToolException(ExitCode.USAGE, "--for " + Text.printable(word.trim()) + " is not FRAMEWORK==VERSION",
                    "write it as pip does: --for torch==2.5.1 (known: " + pins.known() + ")");
        }
        var pin = pins.find(m.group(1), m.group(2), os).orElseThrow(() -> new ToolException(ExitCode.USAGE,
                "--for " + m.group(1) + "==" + m.group(2) + " is not in the tool's table of framework pins",
                "pass one it knows: " + pins.known()));
        if (cudaMajor != null && cudaMajor != pin.cuda()) {
            throw new ToolException(ExitCode.USAGE, "--for " + m.group(1) + "==" + m.group(2) + " uses cuDNN for CUDA " + pin.cuda()
                    + ", not --cuda " + cuda, "drop --cuda, or pass --cuda " + pin.cuda());
        }
        return pin;
    }

    /** The OS family the filter's archives run on (for the driver minimums). */
    public OsFamily family() {
        return os.equals("windows") ? OsFamily.WINDOWS : OsFamily.LINUX;
    }

    private static String alias(Map<String, String> aliases, String value, String option, String allowed) {
        String v = aliases.get(value.trim().toLowerCase(Locale.ROOT));
        if (v == null) {
            throw new ToolException(ExitCode.USAGE, option + " " + value + " is not known", "pass one of " + allowed);
        }
        return v;
    }

    static String hostOs(Host host) {
        return switch (host.os()) {
            case WINDOWS -> "windows";
            case MACOS -> "osx";
            default -> "linux";
        };
    }

    /** The archive CPUs this machine runs: both 64-bit ARM kinds on an ARM machine (sbsa servers, aarch64 Jetson). */
    static Set<String> hostArches(Host host) {
        Arch a = host.arch();
        if (host.os() == OsFamily.WINDOWS && a == Arch.AARCH64) {
            return Set.of("arm64");
        }
        return switch (a) {
            case AARCH64, SBSA -> Set.of("sbsa", "aarch64");
            case OTHER -> Set.of();
            default -> Set.of(a.label());
        };
    }
}
