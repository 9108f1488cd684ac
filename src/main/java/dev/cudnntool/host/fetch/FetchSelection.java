package dev.cudnntool.host.fetch;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.ReleaseFilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which catalogued archives {@code cudnn fetch} means. A FILE is an exact catalogued name. A VERSION
 * ({@code 9.5.1} or {@code 9.5.1.17}) is that release for the filter's OS and CPU and a CUDA major:
 * {@code --cuda}'s, else the toolkit's ({@code toolkitMajor}, when one was found on this machine),
 * else the newest CUDA variant. For {@code --list}: every archive of the VERSION for the filter, or
 * without one the newest per CPU and CUDA major.
 */
public final class FetchSelection {
    private static final Pattern VERSION = Pattern.compile("\\d{1,4}(?:\\.\\d{1,6}){1,3}");

    private FetchSelection() {
    }

    private static final Pattern HEX64 = Pattern.compile("[0-9a-fA-F]{64}");

    /**
     * {@code fetch WHAT --sha256 HEX} (#30 item 3): a FILE neither the catalogue nor a manifest knows (an internal
     * repack on a mirror) is fetched and checked against HEX alone (its size unknown); for a known one, HEX must be
     * one of the sha256 the catalogue accepts, else exit 3 naming both. Without HEX: {@link #one}.
     */
    public static CatalogueEntry one(Catalogue c, ReleaseFilter f, String what, Integer toolkitMajor, String sha256) {
        if (sha256 == null) {
            return one(c, f, what, toolkitMajor);
        }
        String hex = sha256(sha256);
        CatalogueEntry known = null;
        if (VERSION.matcher(what.trim()).matches()) {
            known = one(c, f, what, toolkitMajor);
        } else {
            known = c.lookup(what.trim()).orElse(null);
            if (known == null) {
                ArchiveName n;
                try {
                    n = ArchiveName.parse(what.trim());
                } catch (RuntimeException notAName) {
                    throw new ToolException(ExitCode.USAGE, Text.printable(Text.oneLine(what.trim()))
                            + " is not a cuDNN archive name", "pass the archive's file name as NVIDIA spells it (cudnn releases)");
                }
                known = c.lookup(n.canonicalName()).orElse(null);
                if (known == null) {
                    return CatalogueEntry.of(n.canonicalName(), hex, null);
                }
            }
        }
        if (!known.accepted().contains(hex)) {
            throw new ToolException(ExitCode.ARCHIVE_REJECTED, "--sha256 " + hex + " disagrees with NVIDIA's sha256 of "
                    + known.fileName() + " (" + String.join(" or ", known.accepted()) + ")",
                    "drop --sha256 to check against NVIDIA's value, or check where HEX came from");
        }
        return known;
    }

    /** {@code --sha256 HEX} checked (exit 2 unless 64 hex digits), in lower case. */
    public static String sha256(String given) {
        String hex = given.trim();
        if (!HEX64.matcher(hex).matches()) {
            throw new ToolException(ExitCode.USAGE, "--sha256 " + Text.printable(Text.oneLine(hex)) + " is not 64 hex digits",
                    "pass the archive's sha256 as sha256sum prints it");
        }
        return hex.toLowerCase(Locale.ROOT);
    }

    /** The one archive {@code fetch WHAT} downloads. */
    public static CatalogueEntry one(Catalogue c, ReleaseFilter f, String what, Integer toolkitMajor) {
        if (!VERSION.matcher(what.trim()).matches()) {
            return byName(c, what);
        }
        String v = what.trim();
        List<CatalogueEntry> all = release(c, f, v, f.cudaMajor(), f.cudaMinor());
        if (all.isEmpty()) {
            throw none(c, f, v, f.cudaMajor() == null ? null : f.cuda());
        }
        List<CatalogueEntry> chosen = all;
        if (f.cudaMajor() == null && toolkitMajor != null) {
            chosen = release(c, f, v, toolkitMajor, null);
            if (chosen.isEmpty()) {
                throw new ToolException(ExitCode.USAGE, "cuDNN " + v + " has no build for CUDA " + toolkitMajor
                        + " (the toolkit found on this machine) on " + where(f),
                        "pass --cuda with one of its builds (" + variants(all) + "), or a newer release (cudnn releases)");
            }
        }
        TreeSet<String> arches = new TreeSet<>();
        chosen.forEach(e -> arches.add(e.arch()));
        if (arches.size() > 1) {
            throw new ToolException(ExitCode.USAGE, "cuDNN " + v + " is built for " + String.join(" and ", arches)
                    + " on this CPU", "pass --arch " + String.join(" or --arch ", arches) + " (sbsa: servers, aarch64: Jetson)");
        }
        return chosen.get(0);
    }

    /** What {@code fetch --list [WHAT]} names. */
    public static List<CatalogueEntry> list(Catalogue c, ReleaseFilter f, String what) {
        if (what != null && !VERSION.matcher(what.trim()).matches()) {
            return List.of(byName(c, what));
        }
        if (what != null) {
            List<CatalogueEntry> all = release(c, f, what.trim(), f.cudaMajor(), f.cudaMinor());
            if (all.isEmpty()) {
                throw none(c, f, what.trim(), f.cuda());
            }
            return all;
        }
        Map<String, CatalogueEntry> newest = new LinkedHashMap<>();
        for (CatalogueEntry e : c.select(f.os(), f.arches(), f.cudaMajor(), f.cudaMinor())) {
            if (!e.disputed()) {
                newest.putIfAbsent(e.arch() + "/" + e.cudaVariant().split("\\.")[0], e);
            }
        }
        return new ArrayList<>(newest.values());
    }

    private static CatalogueEntry byName(Catalogue c, String what) {
        String name = what.trim();
        Optional<CatalogueEntry> e = c.lookup(name);
        if (e.isEmpty()) {
            try {
                e = c.lookup(ArchiveName.parse(name).canonicalName());
            } catch (RuntimeException notAName) {
                // not an archive name either: said below
            }
        }
        return e.orElseThrow(() -> new ToolException(ExitCode.USAGE, Text.printable(Text.oneLine(name))
                + " is neither a cuDNN version nor an archive the catalogue knows",
                "pass a version (cudnn fetch 9.5.1) or a name cudnn releases lists"));
    }

    private static List<CatalogueEntry> release(Catalogue c, ReleaseFilter f, String v, Integer major, Integer minor) {
        List<CatalogueEntry> out = new ArrayList<>();
        for (CatalogueEntry e : c.select(f.os(), f.arches(), major, minor)) {
            if (e.version().equals(v) || e.version().startsWith(v + ".")) {
                out.add(e);
            }
        }
        return out;
    }

    private static ToolException none(Catalogue c, ReleaseFilter f, String v, String cuda) {
        return new ToolException(ExitCode.USAGE, "the catalogue has no cuDNN " + v + " for " + where(f)
                + (cuda == null ? "" : " and CUDA " + cuda), "cudnn releases" + (cuda == null ? "" : " --cuda " + cuda)
                + " lists the releases there are");
    }

    private static String where(ReleaseFilter f) {
        return f.os() + "/" + String.join(",", new TreeSet<>(f.arches()));
    }

    private static String variants(List<CatalogueEntry> all) {
        TreeSet<String> v = new TreeSet<>();
        all.forEach(e -> v.add("--cuda " + e.cudaVariant()));
        return String.join(", ", v);
    }
}
