package dev.cudnntool.cli;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import picocli.CommandLine;

/**
 * {@code cudnn help [COMMAND]} (#31 item 7), as {@code git help} reads: {@code cudnn help} alone is the
 * root help with the command list (exit 0), {@code cudnn help CMD} is {@code cudnn CMD --help}, and
 * a name that is no command is the same usage error as {@code cudnn CMD} (exit 2, with picocli's
 * "did you mean"). Not a subcommand of its own, so the command list and its JSON stay as they are.
 */
final class HelpTopic {
    static final String NAME = "help";

    private HelpTopic() {
    }

    /** Whether {@code args} ask for help by word. */
    static boolean asked(String... args) {
        return args.length > 0 && NAME.equals(args[0]);
    }

    static int run(ToolContext ctx, String... args) {
        if (args.length == 1 || args.length == 2 && (NAME.equals(args[1]) || "--help".equals(args[1]) || "-h".equals(args[1]))) {
            CommandLine cl = Main.commandLine(ctx, null);
            cl.usage(ctx.out());
            ctx.out().flush();
            return ExitCode.OK.code();
        }
        if (args.length == 2 && CudnnCommand.SUBCOMMANDS.containsKey(args[1])) {
            return Main.run(ctx, args[1], "--help");
        }
        if (args.length == 2 && !args[1].startsWith("-")) {
            // Not a command: the very error (and suggestions) 'cudnn NAME' gives.
            return Main.run(ctx, args[1]);
        }
        String what = args.length == 2 ? "an option, " + Text.printable(args[1]) : (args.length - 1) + " words";
        ctx.err().println("cudnn: error: help takes one command name, not " + what
                + "; fix: 'cudnn help' lists the commands, 'cudnn help COMMAND' shows one");
        ctx.err().flush();
        return ExitCode.USAGE.code();
    }
}
