package dev.cudnntool.cli.view;
import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.Text;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.NvidiaSmi;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.owner.Owner;
import dev.cudnntool.verify.Verdict;
import dev.cudnntool.verify.VerifyReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code cudnn verify --report} (#19 B20): Markdown to paste into a bug report. The machine, driver,
 * GPUs, toolkits, every copy with its owner, what a program gets by name, each framework (what it pins
 * and loads), and the
 * findings; of the environment only the variables that decide the search (never a whole dump). Every
 * value read from the machine is printed on one line inside a code span, with backticks replaced (and
 * pipes escaped in the table), and free text with Markdown's structural characters escaped, so a
 * hostile value cannot change the document's structure.
 */
public final class ReportView {
    /** The variables the report shows, Linux then Windows; nothing else of the environment. */
    static final List<String> LINUX_VARIABLES = List.of("LD_LIBRARY_PATH", "LD_PRELOAD", "CUDA_PATH", "CUDA_HOME",
            "CUDA_VISIBLE_DEVICES", "VIRTUAL_ENV", "CONDA_PREFIX");
    static final List<String> WINDOWS_VARIABLES = List.of("PATH", "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "VIRTUAL_ENV", "CONDA_PREFIX");

    private ReportView() {
    }

    public static String markdown(Host host, String toolVersion, VerifyReport r, int exit) {
        List<String> md = new ArrayList<>();
        md.add("### cuDNN report (" + toolVersion + ", `cudnn verify --report`)");
        md.add("");
        md.add("- **Result:** " + (!r.ok() ? count(r.findings()) + " error(s)" : r.verdict() == Verdict.UNKNOWN
                ? "no errors, but could not check everything" : "no errors") + " (exit " + exit + ")");
        if (r.platform() != null) {
            md.add("- **Machine:** " + code(r.platform().os() + " " + r.platform().arch()) + (r.platform().wsl() ? " (WSL)" : "")
                    + ", Java " + r.platform().jvmBits() + "-bit");
        }
        if (r.driver() != null && r.driver().present()) {
            md.add("- **Driver:** " + code(r.driver().driverVersion()) + (r.driver().cudaCeiling() == null ? ""
                    : ", CUDA up to " + code(r.driver().cudaCeiling())));
            for (NvidiaSmi.Gpu g : r.driver().gpus() == null ? List.<NvidiaSmi.Gpu>of() : r.driver().gpus()) {
                md.add("  - GPU " + code(g.name()) + (g.computeCapability() == null ? ""
                        : ", compute capability " + code(g.computeCapability())));
            }
        } else {
            md.add("- **Driver:** none found (no nvidia-smi answered)");
        }
        List<Toolkit> toolkits = r.toolkitsFound() == null ? List.of() : r.toolkitsFound();
        md.add("- **Toolkits:**" + (toolkits.isEmpty() ? " none found" : ""));
        for (Toolkit t : toolkits) {
            boolean chosen = r.toolkit() != null && t.root().equals(r.toolkit().root());
            md.add("  - " + code(t.root()) + " CUDA " + code(t.version()) + (chosen ? " (verified)" : ""));
        }
        if (r.cudnn() != null) {
            md.add("- **cuDNN verified:** " + code(r.cudnn().runtimeDir()) + (r.cudnn().headerVersion() == null ? ""
                    : ", headers " + code(r.cudnn().headerVersion())));
        }
        if (r.probe() != null) {
            md.add("- **Loaded:** " + code(r.probe().loadedPath()) + ", version " + code(r.probe().versionString())
                    + ", built with CUDA runtime " + code(r.probe().cudartVersionString())
                    + (r.probe().loadedByNamePath() == null ? "" : "; by name: " + code(r.probe().loadedByNamePath())));
        }
        md.add("");
        md.add("| cuDNN copy | version | origin | owner | by name |");
        md.add("|---|---|---|---|---|");
        for (CudnnCopy c : r.copies() == null ? List.<CudnnCopy>of() : r.copies()) {
            Owner o = c.owner() == null ? Owner.NONE : c.owner();
            md.add("| " + inTable(code(c.path())) + " | " + inTable(code(c.version())) + " | " + c.origin().label() + " | "
                    + (o.kind() == Owner.Kind.NONE ? "none" : cell(o.describe())) + " | " + (c.winsByName() ? "yes" : "") + " |");
        }
        if (r.frameworks() != null && !r.frameworks().isEmpty()) {
            md.add("");
            md.add("| framework | environment | pins | loads | ok |");
            md.add("|---|---|---|---|---|");
            for (var f : r.frameworks()) {
                md.add("| " + code(f.name() + " " + f.version()) + " | " + code(f.site()) + " | " + code(f.wants()) + " | "
                        + (f.loads() == null ? "nothing" : code(f.loads().path()) + " " + code(f.loads().version())) + " | "
                        + (f.ok() ? "yes" : "**no**") + " |");
            }
        }
        md.add("");
        md.add("**Findings**");
        md.add("");
        for (Finding f : r.findings()) {
            md.add("- " + f.severity().name().toLowerCase(Locale.ROOT) + " `" + f.id() + "`: " + cell(f.message())
                    + (f.fix() == null || f.fix().isEmpty() ? "" : " — fix: " + cell(f.fix())));
        }
        md.add("");
        md.add("**Search variables**");
        md.add("");
        for (String v : host.windows() ? WINDOWS_VARIABLES : LINUX_VARIABLES) {
            String value = host.env(v);
            md.add("- " + v + ": " + (value == null ? "(unset)" : code(value)));
        }
        return String.join("\n", md) + "\n";
    }

    private static long count(List<Finding> findings) {
        return findings.stream().filter(f -> f.severity() == Severity.ERROR).count();
    }

    /** A value in a code span: one printable line, no backtick, never empty. */
    static String code(Object value) {
        if (value == null) {
            return "—";
        }
        String s = Text.oneLine(Text.printable(String.valueOf(value))).replace('`', '\'');
        return "`" + (s.isEmpty() ? " " : s) + "`";
    }

    /**
     * Free text in a table cell or list item: one line, no backtick, and every character that could start
     * Markdown structure escaped: a pipe that would split the cell, {@code <} that would open raw HTML (a
     * {@code <!--} hides the rest of the report on GitHub), a link's brackets, and the backslash itself.
     */
    static String cell(String text) {
        String s = Text.oneLine(Text.printable(text)).replace('`', '\'');
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' || c == '|' || c == '<' || c == '[' || c == ']') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /**
     * A code span in a table cell: GitHub splits a row at every pipe not escaped, code spans included, and a
     * backslash escapes the next character there; so each pipe is escaped and the backslashes right before it
     * doubled (a code span cannot escape a backslash otherwise).
     */
    static String inTable(String codeSpan) {
        StringBuilder b = new StringBuilder(codeSpan.length() + 8);
        int run = 0;
        for (int i = 0; i < codeSpan.length(); i++) {
            char c = codeSpan.charAt(i);
            if (c == '|') {
                b.append("\\".repeat(run)).append("\\|");
            } else {
                b.append(c);
            }
            run = c == '\\' ? run + 1 : 0;
        }
        return b.toString();
    }
}
