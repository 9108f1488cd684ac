package dev.cudnntool.arch.cyclefixture.pong;

/** Test-only: the other half of a package cycle (pong -> ping -> pong). */
public final class Pong {
    private Pong() {
    }

    public static String ping() {
        return dev.cudnntool.arch.cyclefixture.ping.Ping.pong();
    }
}
