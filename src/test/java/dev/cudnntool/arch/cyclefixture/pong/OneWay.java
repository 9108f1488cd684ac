package dev.cudnntool.arch.cyclefixture.pong;
import dev.cudnntool.arch.cyclefixture.ping.Ping;

/** Test-only: uses the other package without being used back (no cycle). */
public final class OneWay {
    private OneWay() {
    }

    public static String ping() {
        return Ping.class.getSimpleName();
    }
}
