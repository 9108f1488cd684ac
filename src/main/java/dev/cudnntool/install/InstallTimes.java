package dev.cudnntool.install;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** How a recorded install time reads in text: to the second, in UTC ({@code --json} keeps the record's full precision). */
public final class InstallTimes {
    private InstallTimes() {
    }

    /**
     * {@code 2026-11-30T09:30:15.123456789Z} as {@code 2026-11-30T09:30:15Z}; a time that is not an
     * ISO-8601 instant (a damaged or hand-edited record) as it is, null as null.
     */
    public static String toSecond(String recorded) {
        if (recorded == null) {
            return null;
        }
        try {
            return Instant.parse(recorded).truncatedTo(ChronoUnit.SECONDS).toString();
        } catch (DateTimeException e) {
            return recorded;
        }
    }
}
