package dev.cudnntool.cli;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.format.XzDecoders;
import dev.cudnntool.cli.view.Screen;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.searchpath.SearchPathStore;
import dev.cudnntool.host.searchpath.SearchPathStores;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.target.FaultHook;
import java.io.InputStream;
import java.io.PrintWriter;

/**
 * What every command gets from the entry point: the machine (ports) and where to print.
 *
 * @param terminal  whether standard error is an interactive terminal (progress bars)
 * @param warmProbe a probe child already starting, or null
 * @param catalogueOverride the archive catalogue to use instead of the jar's (tests), or null
 * @param faults    the install's fault hook: {@link FaultHook#NONE} but where {@link Main#main} read
 *                  the commit-delay property ({@link FaultHook#COMMIT_STEP_DELAY_PROPERTY})
 * @param xz          the .xz decoder: {@link XzDecoders.Choice#AUTO} but where {@link Main#main} read
 *                    {@link XzDecoders#PROPERTY}
 * @param searchPaths where {@code --add-to-path} writes: {@link Main#main} wires this machine's
 *                    ({@link SearchPathStores#system}); other contexts have no registry to write
 * @param in          standard input ({@code cudnn explain -}): {@link Main#main} wires System.in; other contexts an empty one
 */
public record ToolContext(Host host, PrintWriter out, PrintWriter err, boolean terminal,
                          ProbeRunner warmProbe,
                          Catalogue catalogueOverride, FaultHook faults,
                          XzDecoders.Choice xz, SearchPathStore searchPaths, InputStream in) {
    /** #32 item 6: both streams pass the one output filter, installed here once for every command. */
    public ToolContext {
        out = SafeOutput.wrap(out);
        err = SafeOutput.wrap(err);
    }

    public ToolContext(Host host, PrintWriter out, PrintWriter err, boolean terminal) {
        this(host, out, err, terminal, null);
    }

    public ToolContext(Host host, PrintWriter out, PrintWriter err, boolean terminal,
                       ProbeRunner warmProbe) {
        this(host, out, err, terminal, warmProbe, null, FaultHook.NONE, XzDecoders.Choice.AUTO,
                host == null ? null : SearchPathStores.withoutRegistry(host), InputStream.nullInputStream());
        // null host: the command model only (GenerateDocs)
    }

    /** The same context without standard input (a test's or Main's wiring before System.in). */
    public ToolContext(Host host, PrintWriter out, PrintWriter err, boolean terminal,
                       ProbeRunner warmProbe,
                       Catalogue catalogueOverride, FaultHook faults,
                       XzDecoders.Choice xz, SearchPathStore searchPaths) {
        this(host, out, err, terminal, warmProbe, catalogueOverride, faults, xz, searchPaths, InputStream.nullInputStream());
    }

    /** The same context reading {@code input} as its standard input (tests). */
    public ToolContext withInput(InputStream input) {
        return new ToolContext(host, out, err, terminal, warmProbe, catalogueOverride, faults, xz, searchPaths, input);
    }

    /** The same context with another catalogue of NVIDIA's archives (tests). */
    public ToolContext withCatalogue(Catalogue catalogue) {
        return new ToolContext(host, out, err, terminal, warmProbe, catalogue, faults, xz, searchPaths, in);
    }

    /** The catalogue of NVIDIA's published archives: the jar's, read on first use, unless overridden. */
    public Catalogue catalogue() {
        return catalogueOverride != null ? catalogueOverride : Catalogue.bundled();
    }

    /** Where and how a view prints this command's result. */
    public Screen screen(OutputOptions output) {
        return new Screen(out, err, host, this::catalogue, VersionProvider.version(), output.json(), output.verbose(), output.quiet());
    }

    /** The services the commands call, wired to this context's machine. */
    Services services() {
        return new Services(this);
    }

    /** The probe runner: the one started early by {@link Main} for verify, else a new one. */
    public ProbeRunner probe() {
        return warmProbe != null ? warmProbe
                : new ProbeRunner(host.runner(), ProbeRunner.currentJava());
    }
}
