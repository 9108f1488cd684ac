package dev.cudnntool.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.cli.Main;
import dev.cudnntool.cli.ToolContext;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * The command line run in-process through {@link Main#run}, as a user or a script would run it on
 * {@code host}: exit code, standard output and standard error. The one harness every CLI test uses.
 *
 * <p>By default the archive catalogue is empty: fixture archives carry NVIDIA's names, not NVIDIA's
 * bytes, so the jar's catalogue would refuse them. {@link #withCatalogue} sets another.
 */
public final class Cli {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Host host;
    private final Catalogue catalogue;
    private final boolean terminal;

    private Cli(Host host, Catalogue catalogue, boolean terminal) {
        this.host = host;
        this.catalogue = catalogue;
        this.terminal = terminal;
    }

    /** What one run printed and how it exited. */
    public record Run(int exit, String out, String err) {
        /** Standard output as the JSON document {@code --json} prints; fails the test when it is not one. */
        public JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (IOException e) {
                throw new UncheckedIOException("not a JSON document: " + out + err, e);
            }
        }

        /** Whether standard output is a JSON document (it begins with "{"). */
        public boolean isJson() {
            return out.trim().startsWith("{");
        }
    }

    /** The command line on {@code host} with an empty catalogue, standard error not a terminal. */
    public static Cli on(Host host) {
        return new Cli(host, Catalogue.empty(), false);
    }

    /** Runs {@code args} on {@code host} as {@link #on(Host)} does. */
    public static Run run(Host host, String... args) {
        return on(host).run(args);
    }

    public Cli withCatalogue(Catalogue c) {
        return new Cli(host, c, terminal);
    }

    /** Standard error is an interactive terminal: progress bars are drawn on it. */
    public Cli onTerminal() {
        return new Cli(host, catalogue, true);
    }

    public Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ToolContext(host, new PrintWriter(out), new PrintWriter(err), terminal)
                .withCatalogue(catalogue), args);
        return new Run(code, out.toString(), err.toString());
    }
}
