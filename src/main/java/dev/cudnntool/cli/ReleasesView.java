package dev.cudnntool.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.host.DriverInfo;
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
import java.util.TreeSet;

/** What {@code cudnn releases} prints: the JSON document (README, "JSON output") or the table, and the exit code. */
final class ReleasesView {
    private ReleasesView() {
    }

    static int show(ToolContext ctx, OutputOptions output, Listing listing) {
        if (output.json) {
            Json.print(ctx.out(), json(listing));
        } else {
            text(ctx.out(), output.verbose, listing);
        }
        return ExitCode.OK.code();
    }

    static ObjectNode json(Listing l) {
        var doc = Json.document("releases", ExitCode.OK.code());
        ReleaseFilter f = l.filter();
        Map<String, Object> filter = new LinkedHashMap<>();
        filter.put("os", f.os());
        filter.put("arch", List.copyOf(new TreeSet<>(f.arches())));
        if (f.cuda() != null) {
            filter.put("cuda", f.cuda());
        }
        Json.put(doc, "filter", filter);
        if (l.toolkit() != null) {
            Json.put(doc, "toolkit", l.toolkit());
        }
        if (l.thisMachine()) {
            Json.put(doc, "driver", l.driver());
        }
        Json.put(doc, "archives", l.rows());
        return doc;
    }

    private static void text(PrintWriter out, boolean verbose, Listing l) {
        Toolkit toolkit = l.toolkit();
        DriverInfo driver = l.driver();
        String against = !l.thisMachine() ? "" : " (toolkit " + (toolkit == null ? "none found"
                : (toolkit.version() == null ? "of unknown version" : toolkit.version()) + " at " + toolkit.root())
                + "; driver " + (driver.present() ? driver.driverVersion() : "none found") + ")";
        out.println("cuDNN archives for " + l.filter().os() + "/" + String.join(",", new TreeSet<>(l.filter().arches()))
                + (l.filter().cuda() == null ? "" : ", CUDA " + l.filter().cuda()) + ", newest first" + against + ":");
        List<Row> rows = l.rows();
        if (rows.isEmpty()) {
            out.println("  none in the catalogue");
            return;
        }
        int shown = 0;
        for (Row r : rows) {
            if (!verbose && shown == 25) {
                out.println("  … " + (rows.size() - shown) + " older (--verbose lists all, --json gives every field)");
                break;
            }
            List<String> marks = new ArrayList<>();
            if (r.recommended()) {
                marks.add(l.thisMachine() ? "newest that fits this machine" : "newest");
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
}
