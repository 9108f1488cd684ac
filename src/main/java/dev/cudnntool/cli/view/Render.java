package dev.cudnntool.cli.view;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.Text;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.EntryRole;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.host.owner.Owner;
import dev.cudnntool.install.InstallPlan;
import dev.cudnntool.install.PlanStep;
import dev.cudnntool.rollback.RollbackEntry;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.verify.FrameworkReport;
import dev.cudnntool.verify.Verdict;
import dev.cudnntool.verify.VerifyReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Human output: short, aligned, one finding a line with its fix below it. */
public final class Render {
    private Render() {
    }

    public static void archive(PrintWriter out, ArchiveReport r) {
        var a = r.archive();
        out.println("archive   " + a.fileName());
        out.println("          cuDNN " + a.version() + " for " + a.os().label() + "-" + a.arch().label() + ", CUDA "
                + a.cudaVariant() + " build, " + a.format().label() + " (" + a.scheme().label() + " name), "
                + a.sizeBytes() + " bytes");
        out.println("sha256    " + a.sha256());
        if (r.evidence().headerVersion() != null) {
            out.println("header    " + r.evidence().headerFile() + " says " + r.evidence().headerVersion());
        }
        out.println("contents  " + r.entries(EntryRole.RUNTIME_LIBRARY).size() + " runtime libraries, "
                + r.entries(EntryRole.HEADER).size() + " headers, " + r.entries(EntryRole.IMPORT_LIBRARY).size()
                + " import libraries, " + r.entries(EntryRole.STATIC_LIBRARY).size() + " static libraries, "
                + r.entries(EntryRole.LICENSE).size() + " licence");
    }

    public static void plan(PrintWriter out, InstallPlan plan, boolean verbose) {
        out.println("target    " + plan.target().root() + " (" + plan.target().kind().label() + ")");
        out.println("plan      " + plan.count(PlanStep.Action.ADD) + " to add, " + plan.count(PlanStep.Action.REPLACE)
                + " to replace, " + plan.count(PlanStep.Action.SAME) + " already identical, "
                + plan.count(PlanStep.Action.REMOVE) + " old cuDNN files to move out");
        for (PlanStep s : plan.steps()) {
            if (verbose || s.action() != PlanStep.Action.SAME) {
                out.printf("  %-8s %s%s%n", s.action().label(), s.destination(),
                        s.source() == null ? "" : "  <- " + s.source());
            }
        }
    }

    public static void verify(PrintWriter out, VerifyReport r, boolean verbose) {
        var p = r.platform();
        out.println("machine   " + p.os().label() + "-" + p.arch().label() + (p.wsl() ? " (WSL)" : "") + ", " + p.jvmBits() + "-bit Java");
        var d = r.driver();
        out.println("driver    " + (d.present() ? d.driverVersion() + " (CUDA ceiling " + d.cudaCeiling() + ", "
                + d.gpus().size() + " GPU(s))" : "none found"));
        out.println("toolkit   " + (r.toolkit() == null ? (r.target() == null ? "none found" : "-")
                : r.toolkit().root() + " (CUDA " + r.toolkit().version() + ", by " + r.toolkit().foundBy() + ")"));
        if (r.target() != null && r.target().kind() == InstallTarget.Kind.PREFIX) {
            out.println("prefix    " + r.target().root());
        }
        long elsewhere = r.copies().stream().filter(c -> c.origin() != CudnnCopy.Origin.TARGET).count();
        out.println("cuDNN     " + (r.cudnn() == null ? (elsewhere == 0 ? "none found" : "none in " + (r.target() == null ? "a toolkit"
                : "the target") + "; " + elsewhere + " cop" + (elsewhere == 1 ? "y" : "ies") + " elsewhere (listed below): "
                + whereElse(r.copies())) : "cuDNN " + r.cudnn().major() + " in " + r.cudnn().runtimeDir()
                + (r.cudnn().headerVersion() == null ? "" : ", header " + r.cudnn().headerVersion())));
        if (r.probe() != null) {
            var pr = r.probe();
            out.println("probe     " + (pr.versionString() != null ? "cudnnGetVersion " + pr.version() + " = " + pr.versionString()
                    + (pr.cudartVersionString() == null ? "" : ", CUDA runtime " + pr.cudartVersionString())
                    + (pr.handleStatus() == null ? "" : ", cudnnCreate " + pr.handleStatus()) : "did not answer"));
        }
        findings(out, r.findings(), verbose);
        copies(out, r, verbose); // issue 11: every copy on the machine (and with --all, its findings)
        frameworks(out, r);
        String verdict;
        if (!r.ok()) {
            // with --all a copy's own errors fail verify too: counted, so the count and the exit code agree
            long own = r.findings().stream().filter(Finding::isError).count();
            // a copy plain verify judged as the target (#33 item 2) has its findings among the report's own: counted once
            long inCopies = r.copies().stream().filter(c -> c.origin() != CudnnCopy.Origin.TARGET)
                    .mapToLong(c -> c.findings().stream().filter(f -> f.isError() && !r.findings().contains(f)).count()).sum();
            verdict = "verify: " + (own + inCopies) + " problem(s) found" + (inCopies == 0 ? "" : " (" + inCopies
                    + " in other cuDNN copies, listed under them)") + " (exit 1)";
        } else if (r.verdict() == Verdict.UNKNOWN) {
            verdict = "verify: " + String.join("; ", r.notChecked().stream().map(Finding::message).distinct().toList())
                    + "; no problems found in what was checked (exit 9)";
        } else if (r.cudnn() == null && elsewhere > 0) {
            verdict = "verify: no cuDNN in " + (r.target() == null ? "a CUDA toolkit" : r.target().root()) + ", but " + elsewhere
                    + " cuDNN cop" + (elsewhere == 1 ? "y" : "ies") + " elsewhere (listed above), not checked here: run verify --all"
                    + " to check " + (elsewhere == 1 ? "it" : "them");
        } else if (r.target() == null) {
            verdict = "verify: no CUDA toolkit and no cuDNN on this machine; nothing is broken, nothing is installed";
        } else if (r.cudnn() == null) {
            verdict = "verify: no cuDNN is installed in " + r.target().root()
                    + "; nothing is broken (install one with cudnn install --archive FILE)";
        } else {
            verdict = "verify: no problems found";
        }
        out.println(verdict);
    }

    /** At most this many copies are named on verify's {@code cuDNN} line; the rest are counted (all are listed below). */
    static final int NAMED_ELSEWHERE = 4;

    /**
     * #33 item 6: where the copies outside the target are, in a few words each, for the {@code cuDNN} line when the
     * target holds none: "conda env /opt/conda (9.1.0), /usr/local/cuda-12.4 (8.9.7)".
     */
    static String whereElse(List<CudnnCopy> copies) {
        List<String> each = new ArrayList<>();
        List<CudnnCopy> others = copies.stream().filter(c -> c.origin() != CudnnCopy.Origin.TARGET).toList();
        for (CudnnCopy c : others.subList(0, Math.min(NAMED_ELSEWHERE, others.size()))) {
            each.add(place(c) + " (" + (c.version() == null ? "cuDNN " + c.major() : c.version()) + ")");
        }
        return String.join(", ", each) + (others.size() > NAMED_ELSEWHERE ? " and " + (others.size() - NAMED_ELSEWHERE) + " more" : "");
    }

    /** A copy's place as a person names it: the toolkit, the conda environment or the pip environment it is in, else its folder. */
    static String place(CudnnCopy c) {
        String path = c.path().replace('\\', '/');
        String folder = parent(path);
        String original = c.path();
        String sep = original.contains("\\") && !original.contains("/") ? "\\" : "/";
        switch (c.origin()) {
            case CONDA -> {
                // <env>/lib, or <env>/Library/bin on Windows
                String env = folder.toLowerCase(Locale.ROOT).endsWith("/library/bin") ? parent(parent(folder)) : parent(folder);
                return "conda env " + shown(env, sep);
            }
            case PIP -> {
                int at = path.lastIndexOf("/site-packages/");
                if (at > 0) {
                    String site = path.substring(0, at + "/site-packages".length());
                    String env = site.toLowerCase(Locale.ROOT).matches(".*/lib/python[^/]*/site-packages") ? parent(parent(parent(site)))
                            : site.toLowerCase(Locale.ROOT).endsWith("/lib/site-packages") ? parent(parent(site)) : site;
                    return (path.substring(at).contains("/torch/") ? "torch's wheel in " : "pip env ") + shown(env, sep);
                }
                return shown(folder, sep);
            }
            case TOOLKIT -> {
                // <toolkit>/lib64, <toolkit>/targets/<cpu>-linux/lib, <toolkit>\bin
                String up = parent(folder);
                String root = parent(up).endsWith("/targets") ? parent(parent(up)) : up;
                return shown(root, sep);
            }
            default -> {
                return shown(folder, sep);
            }
        }
    }

    private static String parent(String p) {
        int at = p.lastIndexOf('/');
        return at <= 0 ? (at == 0 ? "/" : p) : p.substring(0, at);
    }

    private static String shown(String p, String sep) {
        return sep.equals("/") ? p : p.replace("/", sep);
    }

    /** {@code rollback --list}: one install a line, the newest marked. */
    public static void installs(PrintWriter out, List<RollbackEntry> entries) {
        List<List<String>> rows = new ArrayList<>();
        for (var e : entries) {
            rows.add(List.of(e.id(), dash(e.date()), dash(e.version()),
                    e.state() + (e.newest() ? "*" : "") + (e.current() ? " (current)" : ""), dash(e.archive())));
        }
        table(out, List.of("ID", "DATE", "VERSION", "STATE", "ARCHIVE"), rows);
        if (entries.stream().noneMatch(RollbackEntry::current) && entries.stream().anyMatch(e -> "active".equals(e.state()))) {
            out.println("(current): none; the target's files are not those of any recorded install (changed since, or an unfinished run)");
        } else if (entries.stream().anyMatch(RollbackEntry::current)) {
            out.println("(current): what the target holds now");
        }
        out.println("* the newest: cudnn rollback undoes it");
    }

    /**
     * Columns as wide as their widest cell (heading included), two spaces apart; the last column
     * is not padded. Widths come from the values, so a long date (Windows prints 30 characters)
     * or id never pushes the columns after it out of line.
     */
    public static void table(PrintWriter out, List<String> headings, List<List<String>> rows) {
        int[] width = new int[headings.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = headings.get(c).length();
            for (List<String> row : rows) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        line(out, headings, width);
        for (List<String> row : rows) {
            line(out, row, width);
        }
    }

    private static void line(PrintWriter out, List<String> cells, int[] width) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            b.append(cells.get(c));
            if (c < cells.size() - 1) {
                b.append(" ".repeat(width[c] - cells.get(c).length() + 2));
            }
        }
        out.println(b);
    }

    private static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }

    /** rollback: what happened to the search path an install --add-to-path changed. */
    public static void searchPath(PrintWriter out, List<Finding> findings) {
        for (Finding f : findings) {
            if (f.is(FindingId.ROLLBACK_SEARCH_PATH)) {
                out.println("search path: " + Text.oneLine(f.message()));
            }
        }
    }

    public static void copies(PrintWriter out, VerifyReport r, boolean verbose) {
        boolean all = r.copies().stream().anyMatch(c -> !c.findings().isEmpty());
        boolean elsewhere = r.copies().stream().anyMatch(c -> c.origin() != CudnnCopy.Origin.TARGET);
        if (r.copies().size() < 2 && !all && !elsewhere) {
            return;
        }
        for (var c : r.copies()) {
            out.println("copy      " + Text.oneLine(String.valueOf(c.path())) + " (" + c.origin().label() + (c.version() == null ? "" : ", cuDNN " + c.version())
                    + (c.winsByName() ? ", what programs get by name" : "")
                    + (c.owner() != null && c.owner().kind() != Owner.Kind.NONE
                    ? ", owned by " + Text.oneLine(c.owner().describe()) : "") + ")");
            findings(out, c.findings(), verbose);
        }
    }

    /** One line per framework found: what it pins, what it gets, and whether that is right (#19 B16). */
    public static void frameworks(PrintWriter out, VerifyReport r) {
        for (var f : r.frameworks() == null ? List.<FrameworkReport>of() : r.frameworks()) {
            String gets = f.loads() == null ? "gets no cuDNN" : "gets " + Text.oneLine(f.loads().path())
                    + (f.loads().version() == null ? "" : " (cuDNN " + Text.oneLine(f.loads().version()) + ")");
            out.println("framework " + Text.oneLine(f.name() + " " + f.version()) + " in " + Text.oneLine(f.site()) + ": "
                    + (f.wants() == null ? "" : "pins " + Text.oneLine(f.wants()) + ", ") + gets + (f.ok() ? ", ok" : ", NOT OK"));
        }
    }

    public static void findings(PrintWriter out, List<Finding> findings, boolean verbose) {
        if (findings.isEmpty()) {
            return;
        }
        out.println("findings");
        for (Finding f : findings) {
            if (!verbose && f.severity() == Severity.INFO && f.is(FindingId.ARCHIVE_SHA256)) {
                continue; // the sha256 line above says it already
            }
            String tag = switch (f.severity()) {
                case ERROR -> "ERROR";
                case WARN -> "warn ";
                case INFO -> f.id().endsWith("ok") ? "ok   " : "info ";
            };
            out.println("  " + tag + " " + f.id() + ": " + Text.oneLine(f.message()));
            if (!f.fix().isEmpty() && f.severity() != Severity.INFO) {
                out.println("        fix: " + Text.oneLine(f.fix()));
            }
        }
    }
}
