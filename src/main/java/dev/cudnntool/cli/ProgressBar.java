package dev.cudnntool.cli;
import dev.cudnntool.Text;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.install.InstallWorkflow;
import java.io.PrintWriter;

/**
 * A one-line progress bar on standard error: bytes of the archive read, files done, rate and
 * time left. Only on a terminal, and never with --json or --quiet.
 */
final class ProgressBar implements InstallWorkflow.Progress {
    private final PrintWriter err;
    private final String label;
    private final long start = System.nanoTime();
    private long lastDraw;
    private boolean drawn;

    private ProgressBar(PrintWriter err, String label) {
        this.err = err;
        this.label = label;
    }

    static ProgressBar forContext(ToolContext ctx, OutputOptions o, String label) {
        return new ProgressBar(ctx.terminal() && !o.json && !o.quiet ? SafeOutput.raw(ctx.err()) : null, Text.terminalSafe(label));
    }

    @Override
    public void update(long read, long total, int files, long written) {
        if (err == null) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastDraw < 100_000_000L && read < total) {
            return;
        }
        lastDraw = now;
        double secs = Math.max(1e-3, (now - start) / 1e9);
        double rate = read / secs;
        int pct = total <= 0 ? 0 : (int) Math.min(100, read * 100 / total);
        int width = 24;
        int filled = pct * width / 100;
        String eta = rate <= 0 || read >= total ? "" : String.format(" %ds left", (long) ((total - read) / rate));
        err.printf("\r%s [%s%s] %3d%% %s/%s, %d files, %s/s%s   ", label, "#".repeat(filled), ".".repeat(width - filled),
                pct, mb(read), mb(total), files, mb((long) rate), eta);
        err.flush();
        drawn = true;
    }

    @Override
    public void done() {
        if (err != null && drawn) {
            err.print("\r" + " ".repeat(100) + "\r");
            err.flush();
        }
    }

    private static String mb(long bytes) {
        return String.format("%.0f MB", bytes / 1e6);
    }
}
