package dev.cudnntool.arch.cyclefixture.pong;

/** Test-only: uses the other package without being used back (no cycle). */
public final class OneWay {
    private OneWay() {
    }

    public static String ping() {
        return dev.cudnntool.arch.cyclefixture.ping.Ping.class.getSimpleName();
    }
}
