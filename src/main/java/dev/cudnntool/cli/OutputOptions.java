package dev.cudnntool.cli;

import picocli.CommandLine.Option;

/** --json, --verbose and --quiet, shared by every command. */
public class OutputOptions {
    @Option(names = "--json", description = "Print one JSON document on standard output (shapes in the README).")
    boolean json;

    @Option(names = {"-v", "--verbose"}, description = "Print more detail, and stack traces on errors.")
    boolean verbose;

    @Option(names = {"-q", "--quiet"}, description = "Print only errors and the final line; no progress.")
    boolean quiet;

    public boolean json() {
        return json;
    }

    public boolean verbose() {
        return verbose;
    }

    public boolean quiet() {
        return quiet;
    }
}
