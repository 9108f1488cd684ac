package dev.cudnntool.target;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.function.Predicate;

/** Where the installs are recorded: &lt;target&gt;/.cudnn-tool/history/&lt;id&gt;/ (read through {@link StateReader}). */
public final class History {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private History() {
    }

    public static Path dir(Path stateDir) {
        return StateFolder.at(stateDir).history();
    }

    /**
     * Ids carry a per-target sequence number after the time ("20261130T030000Z-0003-1a2b3c4d"), so
     * order never depends on clocks; 0 when there is none.
     */
    public static int sequence(String id) {
        String[] parts = id.split("-");
        try {
            return parts.length < 2 ? 0 : Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * The tag of a target in its install ids: the first 8 hex digits of the sha256 of its root's
     * path as written (absolute, normalised), so installs on two targets never share an id, nor the
     * one {@code /etc/ld.so.conf.d/cudnn-tool-<id>.conf} file named after it.
     */
    public static String targetTag(Path root) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(
                    root.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A new install id for the target at {@code root}: the time to the second, a sequence one above
     * {@code lastSequence} (the newest recorded install), bumped while {@code taken} says an id is in use
     * (its history folder exists, or something else is named after it), and the target's tag.
     * Two installs in one second, on one target or on two, get two ids.
     */
    public static String newId(Instant now, Path root, int lastSequence, Predicate<String> taken) {
        String stamp = STAMP.format(now);
        String tag = targetTag(root);
        for (int seq = lastSequence + 1; ; seq++) {
            String id = stamp + "-" + String.format("%04d", seq) + "-" + tag;
            if (!taken.test(id)) {
                return id;
            }
        }
    }
}
