package dev.cudnntool.cli.view;

import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.host.Host;
import java.io.PrintWriter;
import java.util.function.Supplier;

/**
 * What a view needs to print one command's result: where to print, the machine (for its paths and
 * defaults), the catalogue, the tool's own version, and the output options (--json, --verbose, --quiet). The command builds it
 * ({@code ToolContext.screen(OutputOptions)}), so the views know nothing of the commands (no cycle
 * between {@code cli} and {@code cli.view}).
 */
public record Screen(PrintWriter out, PrintWriter err, Host host, Supplier<Catalogue> catalogues, String toolVersion,
                     boolean json, boolean verbose, boolean quiet) {
    /** The catalogue of NVIDIA's archives, read only when a view names one. */
    public Catalogue catalogue() {
        return catalogues.get();
    }
}
