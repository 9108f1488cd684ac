package dev.cudnntool.cli.view;


import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.catalogue.RedistManifest;
import dev.cudnntool.host.fetch.ManifestCache;
import dev.cudnntool.host.fetch.RedistListing;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.GpuCapability;
import dev.cudnntool.host.ReleaseFit.Asked;
import dev.cudnntool.host.ReleaseFilter;
import dev.cudnntool.host.ReleaseFit.Listing;
import dev.cudnntool.host.ReleaseFit.Row;
import dev.cudnntool.host.Toolkit;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** What {@code cudnn releases} prints: the JSON document (README, "JSON output") or the table, and the exit code. */
public final class ReleasesView {
    /** How the GPU is checked (JSON gpu.note, and the text's heading). */
    public static final String GPU_CHECKED = "checked against NVIDIA's support matrix of each release it holds (gpuOk);"
            + " releases it does not hold are not checked";
    private ReleasesView() {
    }

    /** The marker of a row known only from a cached NVIDIA manifest (text), explained in a footnote. */
    public static final String MANIFEST_MARK = "[manifest]";

    public static int show(Screen ctx, Listing listing, ManifestCache.Merged manifests) {
        if (ctx.json()) {
            Json.print(ctx.out(), json(listing, manifests));
        } else {
            for (String w : manifests.warnings()) {
                ctx.err().println("warning: " + w);
            }
            ctx.err().flush();
            text(ctx.out(), ctx.verbose(), listing);
            manifests(ctx.out(), listing, manifests);
        }
        return ExitCode.OK.code();
    }

    /** The footnote of the rows from cached manifests, and what --refresh read. */
    private static void manifests(PrintWriter out, Listing l, ManifestCache.Merged m) {
        Map<String, String> read = new TreeMap<>((a, b) -> RedistListing.NEWEST_FIRST.compare(label(a), label(b)));
        for (Row r : l.rows()) {
            if (r.manifestRead() != null) {
                read.putIfAbsent(RedistManifest.fileName(r.version()), r.manifestRead());
            }
        }
        for (Map.Entry<String, String> e : read.entrySet()) {
            out.println("  " + MANIFEST_MARK + " from NVIDIA's manifest " + e.getKey() + ", cached, read " + e.getValue()
                    + " (not in the built-in catalogue)");
        }
        if (m.listing() != null) {
            out.println("  Refreshed from " + m.listing() + ": " + (m.refreshed().isEmpty() ? "no manifest the catalogue lacks"
                    : m.refreshed().size() + " new manifest" + (m.refreshed().size() == 1 ? "" : "s") + " read ("
                    + String.join(", ", m.refreshed()) + ")"));
        }
        out.flush();
    }

    private static String label(String fileName) {
        return fileName.substring("redistrib_".length(), fileName.length() - ".json".length());
    }

    public static ObjectNode json(Listing l, ManifestCache.Merged m) {
        var doc = Json.document("releases", ExitCode.OK.code());
        if (m.listing() != null) {
            Map<String, Object> refresh = new LinkedHashMap<>();
            refresh.put("listing", m.listing());
            refresh.put("read", m.refreshed());
            Json.put(doc, "refresh", refresh);
        }
        if (!m.warnings().isEmpty()) {
            Json.put(doc, "warnings", m.warnings());
        }
        ReleaseFilter f = l.filter();
        Map<String, Object> filter = new LinkedHashMap<>();
        filter.put("os", f.os());
        filter.put("arch", List.copyOf(new TreeSet<>(f.arches())));
        if (f.cuda() != null) {
            filter.put("cuda", f.cuda());
        }
        Asked asked = l.asked();
        if (asked.driver() != null) {
            filter.put("driver", asked.driver());
        }
        if (asked.gpu() != null) {
            filter.put("gpu", asked.gpu().asked());
        }
        if (asked.pin() != null) {
            filter.put("for", asked.pin().framework() + "==" + asked.pin().version());
        }
        Json.put(doc, "filter", filter);
        doc.put("thisMachine", l.thisMachine());
        if (l.toolkit() != null) {
            Json.put(doc, "toolkit", l.toolkit());
        }
        if (asked.driver() != null) {
            Map<String, Object> driver = new LinkedHashMap<>(); // ordered: the golden file pins the shape
            driver.put("driverVersion", asked.driver());
            driver.put("source", "--driver");
            Json.put(doc, "driver", driver);
        } else if (l.thisMachine()) {
            Json.put(doc, "driver", l.driver());
        }
        if (asked.pin() != null) {
            Map<String, Object> pin = new LinkedHashMap<>();
            pin.put("framework", asked.pin().framework());
            pin.put("version", asked.pin().version());
            pin.put("cudnn", asked.pin().cudnn());
            pin.put("cuda", asked.pin().cuda());
            pin.put("source", asked.pin().source());
            if (asked.pin().note() != null) {
                pin.put("note", asked.pin().note());
            }
            if (asked.pin().requires() != null) {
                pin.put("requires", asked.pin().requires());
            }
            Json.put(doc, "for", pin);
        }
        if (asked.gpu() != null || l.gpu() != null) {
            Map<String, Object> gpu = new LinkedHashMap<>();
            if (asked.gpu() != null) {
                gpu.put("asked", asked.gpu().asked());
                gpu.put("name", asked.gpu().name());
            }
            gpu.put("computeCapability", l.gpu());
            gpu.put("source", asked.gpu() != null ? "--gpu" : "nvidia-smi");
            gpu.put("checked", true);
            gpu.put("note", GPU_CHECKED);
            Json.put(doc, "gpu", gpu);
        }
        Json.put(doc, "archives", l.rows());
        return doc;
    }

    /** " (toolkit …; driver …; GPU …)": what the rows are marked against, or "" when nothing is known. */
    private static String against(Listing l) {
        List<String> parts = new ArrayList<>();
        Toolkit toolkit = l.toolkit();
        DriverInfo driver = l.driver();
        if (l.thisMachine() && l.filter().cuda() == null) {
            parts.add("toolkit " + (toolkit == null ? "none found"
                    : (toolkit.version() == null ? "of unknown version" : toolkit.version()) + " at " + toolkit.root()));
        }
        if (l.asked().driver() != null) {
            parts.add("driver " + l.asked().driver() + " as asked");
        } else if (l.thisMachine()) {
            parts.add("driver " + (driver.present() ? driver.driverVersion() : "none found"));
        }
        GpuCapability gpu = l.asked().gpu();
        if (gpu != null) {
            parts.add("GPU " + (gpu.name() == null ? gpu.computeCapability() : gpu.name() + " (" + gpu.computeCapability() + ")")
                    + " as asked");
        } else if (l.gpu() != null) {
            parts.add("GPU compute capability " + l.gpu());
        }
        if (l.asked().pin() != null) {
            parts.add("cuDNN " + l.asked().pin().cudnn() + " for CUDA " + l.asked().pin().cuda() + " as " + l.asked().pin().framework()
                    + " " + l.asked().pin().version() + " pins");
        }
        return parts.isEmpty() ? "" : " (" + String.join("; ", parts) + ")";
    }

    private static void text(PrintWriter out, boolean verbose, Listing l) {
        Toolkit toolkit = l.toolkit();
        out.println("cuDNN archives for " + l.filter().os() + "/" + String.join(",", new TreeSet<>(l.filter().arches()))
                + (l.filter().cuda() == null ? "" : ", CUDA " + l.filter().cuda()) + ", newest first" + against(l) + ":");
        List<Row> rows = l.rows();
        if (l.asked().pin() != null) {
            out.println("  " + l.asked().pin().framework() + " " + l.asked().pin().version() + ": " + l.asked().pin().source());
        }
        if (rows.isEmpty()) {
            out.println("  none in the catalogue");
            return;
        }
        int shown = 0;
        boolean behindLogin = false;
        for (Row r : rows) {
            if (!verbose && shown == 25) {
                out.println("  … " + (rows.size() - shown) + " older (--verbose lists all, --json gives every field)");
                break;
            }
            List<String> marks = new ArrayList<>();
            if (r.recommended()) {
                marks.add(l.recommendation());
            }
            if (Boolean.FALSE.equals(r.toolkitFits())) {
                marks.add("not for toolkit " + toolkit.version());
            } else if (Boolean.FALSE.equals(r.cudaOk())) {
                marks.add("not for CUDA " + (toolkit == null ? l.filter().cuda() : toolkit.version()));
            }
            if (Boolean.FALSE.equals(r.gpuOk())) {
                marks.add("not for GPU " + l.gpu());
            } else if (Boolean.TRUE.equals(r.gpuUncertain())) {
                marks.add("GPU " + l.gpu() + " not known");
            } else if (l.gpu() != null && r.gpuOk() == null) {
                marks.add(r.why() != null ? "not for GPU " + l.gpu() + " (by the releases around it)"
                        : "GPU not checked");
            }
            if (Boolean.FALSE.equals(r.driverOk())) {
                marks.add("driver too old (needs " + r.driverMinimum() + ")");
            }
            if (r.candidates() != null) {
                marks.add("sources disagree on its sha256");
            }
            if (r.manifestRead() != null) {
                marks.add(MANIFEST_MARK);
            }
            String size = r.size() == null ? "" : String.format(Locale.ROOT, "%,d MB", r.size() / 1_000_000);
            out.println(String.format(Locale.ROOT, "  %s %-56s %-11s CUDA %-5s %9s  %s", r.recommended() ? "*" : " ",
                    r.fileName(), r.version(), r.cudaVariant(), size, String.join("; ", marks)).stripTrailing());
            if (r.url() != null) {
                out.println("      " + r.url());
            }
            if (r.why() != null && (Boolean.FALSE.equals(r.gpuOk()) || Boolean.FALSE.equals(r.cudaOk()) || l.gpu() != null && r.gpuOk() == null)) {
                out.println("      " + r.why());
            }
            if (r.reported() != null) {
                for (var f : r.reported()) {
                    if (r.why() == null || !r.why().endsWith(f.line())) {
                        out.println("      " + f.line());
                    }
                }
            }
            behindLogin |= r.url() == null;
            shown++;
        }
        if (behindLogin) {
            out.println("  Archives without a URL line: no NVIDIA redist manifest in the catalogue lists them; look on "
                    + CatalogueEntry.LOGIN_PAGE + " (after signing in)");
        }
        out.flush();
    }
}
