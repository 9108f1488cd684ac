package dev.cudnntool.cli.view;


import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.install.InstallOutcome;
import dev.cudnntool.install.EnvFile;
import dev.cudnntool.install.InstallRun;
import dev.cudnntool.install.Preflight;
import dev.cudnntool.host.fetch.ReleaseFetch;

/** What {@code cudnn install} prints: the JSON document (README, "JSON output") or the text, and the exit code. */
public final class InstallView {
    private InstallView() {
    }

    /** {@code cudnn install}'s result: what it fetched (--release), how the install ended, and the exit code. */
    public static int show(Screen ctx, InstallRun run) {
        if (!run.env().isEmpty() && !ctx.json() && !ctx.quiet()) {
            ctx.out().println("env file: " + run.env().size() + " lines appended to " + run.envFile() + " ("
                    + String.join(", ", run.env().stream().map(EnvFile.Entry::key).toList()) + ")");
        }
        return show(ctx, run.name(), run.dryRun(), run.outcome(), run.fetched());
    }

    public static int show(Screen ctx, ArchiveName name, boolean dryRun, InstallOutcome o) {
        return show(ctx, name, dryRun, o, null);
    }

    /** @param fetched what {@code --release} fetched (or would), shown as the object {@code fetch}; null for --archive */
    public static int show(Screen ctx, ArchiveName name, boolean dryRun, InstallOutcome o,
                           ReleaseFetch fetched) {
        if (fetched != null && fetched.cacheWarning() != null) {
            ctx.err().println("warning: " + fetched.cacheWarning());
            ctx.err().flush();
        }
        if (ctx.json()) {
            Json.print(ctx.out(), json(o, dryRun, ctx.catalogue(), name, fetched));
        } else {
            if (fetched != null && !ctx.quiet()) {
                ctx.out().println((fetched.downloaded() ? "fetched " : fetched.cached() ? "in the cache: " : "would fetch ")
                        + fetched.file() + (fetched.url() == null || fetched.cached() ? "" : " from " + fetched.url())
                        + " (" + fetched.path() + ")");
            }
            text(ctx, dryRun, o);
        }
        return o.exit().code();
    }

    public static ObjectNode json(InstallOutcome o, boolean dryRun, Catalogue catalogue, ArchiveName name) {
        return json(o, dryRun, catalogue, name, null);
    }

    public static ObjectNode json(InstallOutcome o, boolean dryRun, Catalogue catalogue, ArchiveName name, ReleaseFetch fetched) {
        var doc = Json.document("install", o.exit().code());
        doc.put("dryRun", dryRun);
        doc.put("changed", o.changed(dryRun));
        doc.put("summary", o.summary());
        if (fetched != null) {
            Json.put(doc, "fetch", fetched); // --release only: what was fetched (or would be), and where it lies
        }
        if (o.archive() != null) {
            Json.put(doc, "archive", o.archive().archive());
            ((ObjectNode) doc.get("archive")).set("catalogue", Json.MAPPER.valueToTree(catalogue.describe(name)));
            Json.put(doc, "evidence", o.archive().evidence());
        }
        Preflight pf = o.preflight();
        if (pf != null) {
            Json.put(doc, "platform", pf.platform());
            Json.put(doc, "driver", pf.driver());
            Json.put(doc, "toolkit", pf.toolkit());
            Json.put(doc, "toolkitsFound", pf.toolkitsFound());
            Json.put(doc, "target", pf.target());
        }
        if (o.plan() != null) {
            Json.put(doc, "plan", o.plan().steps());
        }
        if (o.record() != null) {
            doc.put("installId", o.record().id());
        }
        Json.put(doc, "findings", o.findings());
        return doc;
    }

    private static void text(Screen ctx, boolean dryRun, InstallOutcome o) {
        if (o.archive() != null && !ctx.quiet()) {
            Render.archive(ctx.out(), o.archive());
        }
        if (o.plan() != null && (dryRun || ctx.verbose())) {
            Render.plan(ctx.out(), o.plan(), ctx.verbose());
        }
        if (!ctx.quiet()) {
            Render.findings(ctx.out(), o.findings(), ctx.verbose());
        }
        (o.exit() == ExitCode.OK ? ctx.out() : ctx.err()).println(Text.oneLine(o.summary())
                + (o.exit() == ExitCode.OK ? "" : " (exit " + o.exit().code() + ")"));
    }
}
