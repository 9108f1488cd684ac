package dev.cudnntool.cli;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.cli.view.Json;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;
import picocli.CommandLine;

/**
 * A command line that did not parse, as one line on standard error (and the error document with
 * {@code --json}), exit 2. A mistyped option or command gets picocli's "did you mean" in the fix; an
 * unknown option is named first even when picocli stopped at a missing required one, since the
 * missing one is usually the same option mistyped ({@code --archiv x}).
 */
final class BadArguments {
    /** At most this many suggestions are offered. */
    private static final int SUGGESTIONS = 3;

    private BadArguments() {
    }

    /** What went wrong and what to do, each one line. */
    record Problem(String message, String fix) {
    }

    static int handle(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        Problem p = describe(e);
        err.println(cmd.getCommandName() + ": error: " + p.message() + "; fix: " + p.fix());
        if (Arrays.asList(args).contains("--json")) {
            // The arguments did not parse, so --json is taken from the raw words: a script asked for JSON.
            var doc = Json.document(cmd.getCommandName(), ExitCode.USAGE.code());
            var error = doc.putObject("error");
            error.put("message", p.message());
            error.put("fix", p.fix());
            Json.print(cmd.getOut(), doc);
        }
        err.flush();
        return ExitCode.USAGE.code();
    }

    static Problem describe(ParameterException e) {
        CommandLine cmd = e.getCommandLine();
        String help = "see '" + cmd.getCommandSpec().qualifiedName() + " --help'";
        UnmatchedArgumentException unknown = unknown(cmd, e instanceof UnmatchedArgumentException u ? u.getUnmatched()
                : cmd.getUnmatchedArguments());
        if (unknown == null) {
            return new Problem(Text.oneLine(e.getMessage()), help);
        }
        String message = unknownMessage(cmd, unknown);
        if (!(e instanceof UnmatchedArgumentException)) {
            String other = e.getMessage();
            message += " (and " + Character.toLowerCase(other.charAt(0)) + other.substring(1) + ")";
        }
        List<String> suggestions = suggestions(cmd, unknown);
        String fix = suggestions.isEmpty() ? help : "did you mean " + String.join(" or ", suggestions) + "? " + help;
        return new Problem(Text.oneLine(message), Text.oneLine(fix));
    }

    /**
     * The unknown words as the exception that names them, null when there are none: picocli's own,
     * or the words it set aside before it stopped at another problem (a missing required option).
     * Only the words that look like options are named when there are any (the rest are their
     * values), except for the first word of {@code cudnn}, a mistyped command.
     */
    private static UnmatchedArgumentException unknown(CommandLine cmd, List<String> unmatched) {
        if (unmatched.isEmpty()) {
            return null;
        }
        List<String> options = new ArrayList<>();
        for (String word : unmatched) {
            if (word.startsWith("-")) {
                options.add(word);
            }
        }
        boolean command = cmd.getParent() == null && !unmatched.get(0).startsWith("-");
        return new UnmatchedArgumentException(cmd, new ArrayList<>(options.isEmpty() || command ? unmatched : options));
    }

    /** picocli's message, but a mistyped command word at the top is called an unknown command. */
    private static String unknownMessage(CommandLine cmd, UnmatchedArgumentException unknown) {
        List<String> words = unknown.getUnmatched();
        if (cmd.getParent() == null && !words.isEmpty() && !words.get(0).startsWith("-")) {
            return "Unknown command: '" + words.get(0) + "'";
        }
        return unknown.getMessage();
    }

    /** picocli's suggestions (close option names, or command names), as the user would type them. */
    private static List<String> suggestions(CommandLine cmd, UnmatchedArgumentException unknown) {
        List<String> out = new ArrayList<>();
        List<String> likely = new ArrayList<>(unknown.getSuggestions());
        // A mistyped command keeps its first letter: 'instal' is install or inspect, not explain (picocli's bigram
        // likeness ranks any name sharing "in"); when no command shares it, picocli's ranking stands.
        List<String> typed = unknown.getUnmatched();
        if (!typed.isEmpty() && !typed.get(0).isEmpty() && !typed.get(0).startsWith("-")) {
            char first = Character.toLowerCase(typed.get(0).charAt(0));
            List<String> same = likely.stream().filter(s -> !cmd.getSubcommands().containsKey(s)
                    || !s.isEmpty() && Character.toLowerCase(s.charAt(0)) == first).toList();
            if (!same.isEmpty()) {
                likely = same;
            }
        }
        for (String s : likely) {
            if (out.size() == SUGGESTIONS) {
                break;
            }
            boolean command = cmd.getSubcommands().containsKey(s);
            out.add("'" + (command ? cmd.getCommandSpec().qualifiedName() + " " + s : s) + "'");
        }
        return out;
    }
}
