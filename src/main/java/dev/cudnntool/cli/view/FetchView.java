package dev.cudnntool.cli.view;


import dev.cudnntool.ExitCode;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.host.ReleaseFilter;
import dev.cudnntool.host.fetch.FetchResult;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/** What {@code cudnn fetch} prints: the JSON document (README, "JSON output") or a line per file. */
public final class FetchView {
    private FetchView() {
    }

    public static int fetched(Screen ctx, FetchResult r) {
        if (ctx.json()) {
            var doc = Json.document("fetch", ExitCode.OK.code());
            doc.put("file", r.file());
            doc.put("url", r.url());
            doc.put("size", r.size());
            doc.put("sha256", r.sha256());
            doc.put("path", r.path().toString());
            doc.put("downloaded", r.downloaded());
            Json.print(ctx.out(), doc);
        } else {
            PrintWriter out = ctx.out();
            out.println((r.downloaded() ? "fetched   " : "present   ") + r.path());
            out.println("          " + String.format(Locale.ROOT, "%,d", r.size()) + " bytes, sha256 " + r.sha256()
                    + " (NVIDIA's)");
            out.println(r.downloaded() ? "from      " + r.url() : "          already there and genuine: nothing downloaded");
            out.println("next      cudnn install --archive " + r.path());
            out.flush();
        }
        return ExitCode.OK.code();
    }

    public static int list(Screen ctx, ReleaseFilter f, List<CatalogueEntry> entries) {
        if (ctx.json()) {
            var doc = Json.document("fetch", ExitCode.OK.code());
            var filter = doc.putObject("filter");
            filter.put("os", f.os());
            var arch = filter.putArray("arch");
            new TreeSet<>(f.arches()).forEach(arch::add);
            if (f.cuda() != null) {
                filter.put("cuda", f.cuda());
            }
            var files = doc.putArray("archives");
            for (CatalogueEntry e : entries) {
                var o = files.addObject();
                o.put("file", e.fileName());
                o.put("url", e.downloadUrl().orElse(null));
                if (e.size() == null) {
                    o.putNull("size");
                } else {
                    o.put("size", e.size());
                }
                o.put("sha256", e.sha256());
                if (e.disputed()) {
                    var c = o.putArray("candidates");
                    e.candidates().forEach(c::add);
                }
            }
            Json.print(ctx.out(), doc);
        } else {
            PrintWriter out = ctx.out();
            if (entries.isEmpty()) {
                out.println("no archives in the catalogue for " + f.os() + "/" + String.join(",", new TreeSet<>(f.arches()))
                        + (f.cuda() == null ? "" : ", CUDA " + f.cuda()));
            }
            for (CatalogueEntry e : entries) {
                out.println(e.fileName() + "  " + (e.size() == null ? "size unknown" : e.size() + " bytes"));
                out.println("  sha256 " + String.join(" or ", e.accepted()));
                out.println("  " + e.downloadUrl().orElse(e.whereToDownload()));
            }
            out.flush();
        }
        return ExitCode.OK.code();
    }
}
