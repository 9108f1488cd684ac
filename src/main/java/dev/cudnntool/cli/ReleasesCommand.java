package dev.cudnntool.cli;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.DriverCheck;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.Platform;
import dev.cudnntool.host.ReleaseFit;
import dev.cudnntool.host.ReleaseFit.Row;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.ToolkitLocator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "releases", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Lists the cuDNN archives NVIDIA published (the built-in catalogue) for this platform,",
                "newest first, marking those that fit the CUDA toolkit found and this machine's driver."})
public class ReleasesCommand implements Callable<Integer> {
    private static final Pattern CUDA = Pattern.compile("(\\d+)(?:\\.(\\d+))?");
    private static final Map<String, String> OS_ALIASES = Map.of("linux", "linux", "windows", "windows",
            "win", "windows", "osx", "osx", "macos", "osx");
    private static final Map<String, String> ARCH_ALIASES = Map.of("x86_64", "x86_64", "x64", "x86_64",
            "amd64", "x86_64", "sbsa", "sbsa", "aarch64sbsa", "sbsa", "aarch64", "aarch64", "arm64", "arm64",
            "ppc64le", "ppc64le");

    private final ToolContext ctx;

    @Option(names = "--os", paramLabel = "OS", description = "linux, windows or osx (default: this machine's).")
    String os;

    @Option(names = "--arch", paramLabel = "ARCH", description = "x86_64, sbsa, aarch64 (Jetson), ppc64le or arm64 (default: this machine's).")
    String arch;

    @Option(names = "--cuda", paramLabel = "VERSION", description = "Only archives for this CUDA version: 12 or 12.4.")
    String cuda;

    @Option(names = "--cuda-path", paramLabel = "DIR", description = "The CUDA toolkit to match (default: found as install finds it).")
    String cudaPath;

    @Mixin
    OutputOptions output;

    public ReleasesCommand(ToolContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String wantOs = os == null ? hostOs() : alias(OS_ALIASES, os, "--os", "linux, windows or osx");
        Set<String> arches = arch == null ? hostArches() : Set.of(alias(ARCH_ALIASES, arch, "--arch",
                "x86_64, sbsa, aarch64, ppc64le or arm64"));
        Integer cudaMajor = null;
        Integer cudaMinor = null;
        if (cuda != null) {
            Matcher m = CUDA.matcher(cuda.trim());
            if (!m.matches()) {
                throw new ToolException(ExitCode.USAGE, "--cuda " + cuda + " is not a CUDA version",
                        "write the major (--cuda 12) or major.minor (--cuda 12.4)");
            }
            cudaMajor = Integer.valueOf(m.group(1));
            cudaMinor = m.group(2) == null ? null : Integer.valueOf(m.group(2));
        }
        boolean thisMachine = wantOs.equals(hostOs());
        Toolkit toolkit = null;
        DriverInfo driver = DriverInfo.NONE;
        if (thisMachine) {
            toolkit = ToolkitLocator.locate(ctx.host(), cudaPath == null ? null : ctx.host().path(cudaPath), null).chosen();
            driver = DriverCheck.check(ctx.host(), Platform.detect(ctx.host()), null).driver();
        }
        OsFamily family = wantOs.equals("windows") ? OsFamily.WINDOWS : OsFamily.LINUX;
        List<Row> rows = ReleaseFit.mark(ctx.catalogue().select(wantOs, arches, cudaMajor, cudaMinor), family, toolkit, driver);
        if (output.json) {
            var doc = Json.document("releases", ExitCode.OK.code());
            Map<String, Object> filter = new LinkedHashMap<>();
            filter.put("os", wantOs);
            filter.put("arch", List.copyOf(new java.util.TreeSet<>(arches)));
            if (cuda != null) {
                filter.put("cuda", cuda.trim());
            }
            Json.put(doc, "filter", filter);
            if (toolkit != null) {
                Json.put(doc, "toolkit", toolkit);
            }
            if (thisMachine) {
                Json.put(doc, "driver", driver);
            }
            Json.put(doc, "archives", rows);
            Json.print(ctx.out(), doc);
            return ExitCode.OK.code();
        }
        render(wantOs, arches, toolkit, driver, thisMachine, rows);
        return ExitCode.OK.code();
    }

    private void render(String wantOs, Set<String> arches, Toolkit toolkit, DriverInfo driver, boolean thisMachine,
                        List<Row> rows) {
        var out = ctx.out();
        String against = !thisMachine ? "" : " (toolkit " + (toolkit == null ? "none found"
                : (toolkit.version() == null ? "of unknown version" : toolkit.version()) + " at " + toolkit.root())
                + "; driver " + (driver.present() ? driver.driverVersion() : "none found") + ")";
        out.println("cuDNN archives for " + wantOs + "/" + String.join(",", new java.util.TreeSet<>(arches))
                + (cuda == null ? "" : ", CUDA " + cuda.trim()) + ", newest first" + against + ":");
        if (rows.isEmpty()) {
            out.println("  none in the catalogue");
            return;
        }
        int shown = 0;
        for (Row r : rows) {
            if (!output.verbose && shown == 25) {
                out.println("  … " + (rows.size() - shown) + " older (--verbose lists all, --json gives every field)");
                break;
            }
            List<String> marks = new ArrayList<>();
            if (r.recommended()) {
                marks.add(thisMachine ? "newest that fits this machine" : "newest");
            }
            if (Boolean.FALSE.equals(r.toolkitFits())) {
                marks.add("not for toolkit " + toolkit.version());
            }
            if (Boolean.FALSE.equals(r.driverOk())) {
                marks.add("driver too old (needs " + r.driverMinimum() + ")");
            }
            if (r.candidates() != null) {
                marks.add("sources disagree on its sha256");
            }
            String size = r.size() == null ? "" : String.format(Locale.ROOT, "%,d MB", r.size() / 1_000_000);
            out.println(String.format(Locale.ROOT, "  %s %-56s %-11s CUDA %-5s %9s  %s", r.recommended() ? "*" : " ",
                    r.fileName(), r.version(), r.cudaVariant(), size, String.join("; ", marks)).stripTrailing());
            shown++;
        }
        out.flush();
    }

    private static String alias(Map<String, String> aliases, String value, String option, String allowed) {
        String v = aliases.get(value.trim().toLowerCase(Locale.ROOT));
        if (v == null) {
            throw new ToolException(ExitCode.USAGE, option + " " + value + " is not known", "pass one of " + allowed);
        }
        return v;
    }

    private String hostOs() {
        return switch (ctx.host().os()) {
            case WINDOWS -> "windows";
            case MACOS -> "osx";
            default -> "linux";
        };
    }

    /** The archive CPUs this machine runs: both 64-bit ARM kinds on an ARM machine (sbsa servers, aarch64 Jetson). */
    private Set<String> hostArches() {
        Arch a = ctx.host().arch();
        if (ctx.host().os() == OsFamily.WINDOWS && a == Arch.AARCH64) {
            return Set.of("arm64");
        }
        return switch (a) {
            case AARCH64, SBSA -> Set.of("sbsa", "aarch64");
            case OTHER -> Set.of();
            default -> Set.of(a.label());
        };
    }
}
