package dev.cudnntool.install.state;

import java.nio.file.Path;

/** Where the installs are recorded: &lt;target&gt;/.cudnn-tool/history/&lt;id&gt;/ (read through {@link StateReader}). */
public final class History {
    private History() {
    }

    public static Path dir(Path stateDir) {
        return StateFolder.at(stateDir).history();
    }

    /** Ids end in a per-target sequence number ("20261130T030000Z-0003"), so order never depends on clocks. */
    public static int sequence(String id) {
        int dash = id.lastIndexOf('-');
        try {
            return Integer.parseInt(id.substring(dash + 1));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return 0;
        }
    }
}
