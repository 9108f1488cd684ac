package dev.cudnntool.arch.cyclefixture.ping;

/** Test-only: one half of a package cycle (ping -> pong -> ping), so the no-cycle rule has something to catch. */
public final class Ping {
    private Ping() {
    }

    public static String pong() {
        return dev.cudnntool.arch.cyclefixture.pong.Pong.class.getName();
    }
}
