package dev.cudnntool.cli;

import dev.cudnntool.host.Host;
import java.io.PrintWriter;

/**
 * What every command gets from the entry point: the machine (ports) and where to print.
 *
 * @param terminal  whether standard error is an interactive terminal (progress bars)
 * @param warmProbe a probe child already starting, or null
 */
public record ToolContext(Host host, PrintWriter out, PrintWriter err, boolean terminal,
                          dev.cudnntool.probe.ProbeRunner warmProbe) {
    public ToolContext(Host host, PrintWriter out, PrintWriter err, boolean terminal) {
        this(host, out, err, terminal, null);
    }

    /** The probe runner: the one started early by {@link Main} for verify, else a new one. */
    public dev.cudnntool.probe.ProbeRunner probe() {
        return warmProbe != null ? warmProbe
                : new dev.cudnntool.probe.ProbeRunner(host.runner(), dev.cudnntool.probe.ProbeRunner.currentJava());
    }
}
