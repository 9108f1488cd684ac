package dev.cudnntool.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Build-time only: man pages in troff ({@code man -l cudnn-install.1} reads them), written from the same
 * command model as the help. picocli's own {@code ManPageGenerator} writes AsciiDoc only, which needs
 * asciidoctor to become a man page; this writer needs nothing. Sections: NAME, SYNOPSIS, DESCRIPTION,
 * OPTIONS (and ARGUMENTS), COMMANDS for the root, then the help's footer (exit codes, examples) verbatim.
 */
final class RoffManPages {
    private RoffManPages() {
    }

    /** The page of one command; {@code date} is the build's fixed date (reproducible output). */
    static String page(CommandLine command, String version, String date) {
        CommandSpec spec = command.getCommandSpec();
        String title = spec.qualifiedName("-");
        StringBuilder out = new StringBuilder();
        out.append(".TH ").append(quote(title.toUpperCase(Locale.ROOT))).append(" 1 ").append(quote(date)).append(' ')
                .append(quote(version)).append(' ').append(quote("cudnn-tool manual")).append('\n');
        // No hyphenation and no stretched spaces: identifiers such as platform.mismatch never break inside.
        out.append(".nh\n.ad l\n");
        List<String> description = lines(spec.usageMessage().description());
        out.append(".SH NAME\n").append(escape(title)).append(" \\- ")
                .append(escape(description.isEmpty() ? title : description.get(0))).append('\n');
        Help help = new Help(spec, Help.defaultColorScheme(Help.Ansi.OFF));
        out.append(".SH SYNOPSIS\n.nf\n").append(escapeBlock(help.synopsis(0).stripTrailing())).append("\n.fi\n");
        if (!description.isEmpty()) {
            out.append(".SH DESCRIPTION\n");
            paragraphs(out, description);
        }
        List<OptionSpec> options = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            if (!o.hidden()) {
                options.add(o);
            }
        }
        options.sort((a, b) -> a.longestName().replaceFirst("^-+", "").compareToIgnoreCase(b.longestName().replaceFirst("^-+", "")));
        if (!options.isEmpty()) {
            out.append(".SH OPTIONS\n");
            for (OptionSpec o : options) {
                out.append(".TP\n").append(optionLabel(o)).append('\n');
                paragraphs(out, lines(o.description()));
            }
        }
        List<PositionalParamSpec> positionals = spec.positionalParameters();
        if (!positionals.isEmpty()) {
            out.append(".SH ARGUMENTS\n");
            for (PositionalParamSpec p : positionals) {
                if (!p.hidden()) {
                    out.append(".TP\n\\fI").append(escape(p.paramLabel())).append("\\fR\n");
                    paragraphs(out, lines(p.description()));
                }
            }
        }
        if (!command.getSubcommands().isEmpty()) {
            out.append(".SH COMMANDS\n");
            command.getSubcommands().forEach((name, sub) -> {
                if (!sub.getCommandSpec().usageMessage().hidden() && name.equals(sub.getCommandName())) {
                    List<String> d = lines(sub.getCommandSpec().usageMessage().description());
                    out.append(".TP\n\\fB").append(escape(name)).append("\\fR\n")
                            .append(escape(d.isEmpty() ? "" : d.get(0))).append('\n');
                }
            });
        }
        List<String> footer = lines(spec.usageMessage().footer());
        if (!footer.isEmpty()) {
            String heading = spec.usageMessage().footerHeading().replace("%n", "").replaceAll(":\\s*$", "").strip();
            out.append(".SH ").append(escape(heading.isEmpty() ? "NOTES" : heading.toUpperCase(Locale.ROOT))).append("\n.nf\n");
            for (String line : footer) {
                out.append(escapeBlock(line)).append('\n');
            }
            out.append(".fi\n");
        }
        out.append(".SH SEE ALSO\n").append(command.getParent() == null ? "cudnn-install(1), cudnn-verify(1), cudnn-rollback(1)"
                : "cudnn(1)").append('\n');
        return out.toString();
    }

    private static String optionLabel(OptionSpec o) {
        StringBuilder b = new StringBuilder();
        String[] names = o.names();
        for (int i = 0; i < names.length; i++) {
            b.append(i == 0 ? "" : ", ").append("\\fB").append(escape(names[i])).append("\\fR");
        }
        if (o.arity().max() > 0 && !o.typeInfo().isBoolean()) {
            boolean optional = o.arity().min() == 0;
            b.append(optional ? "[=" : "=").append("\\fI").append(escape(o.paramLabel().replaceAll("^<|>$", ""))).append("\\fR")
                    .append(optional ? "]" : "");
        }
        return b.toString();
    }

    /** Description lines as picocli holds them, with its %n line breaks taken apart and %% made %. */
    private static List<String> lines(String[] raw) {
        List<String> out = new ArrayList<>();
        for (String r : raw) {
            for (String line : r.split("%n", -1)) {
                out.add(line.replace("%%", "%"));
            }
        }
        while (!out.isEmpty() && out.get(out.size() - 1).isBlank()) {
            out.remove(out.size() - 1);
        }
        return out;
    }

    private static void paragraphs(StringBuilder out, List<String> lines) {
        for (String line : lines) {
            out.append(line.isBlank() ? ".PP" : escape(line.strip())).append('\n');
        }
    }

    /** Text in a filled paragraph: backslashes and hyphens escaped, no line may start with a control character. */
    static String escape(String s) {
        String e = s.replace("\\", "\\e").replace("-", "\\-");
        return e.startsWith(".") || e.startsWith("'") ? "\\&" + e : e;
    }

    /** As {@link #escape}, for a line of a no-fill block (kept as is, leading spaces too). */
    private static String escapeBlock(String s) {
        StringBuilder b = new StringBuilder();
        for (String line : s.split("\n", -1)) {
            b.append(b.length() == 0 ? "" : "\n").append(escape(line));
        }
        return b.toString();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "'") + "\"";
    }
}
