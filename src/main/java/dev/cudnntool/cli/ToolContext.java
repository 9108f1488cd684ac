package dev.cudnntool.cli;

import dev.cudnntool.host.Host;
import java.io.PrintWriter;

/**
 * What every command gets from the entry point: the machine (ports) and where to print.
 *
 * @param terminal whether standard error is an interactive terminal (progress bars)
 */
public record ToolContext(Host host, PrintWriter out, PrintWriter err, boolean terminal) {
}
