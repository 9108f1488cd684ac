package dev.cudnntool.arch.cyclefixture.pong;
import dev.cudnntool.arch.cyclefixture.ping.Ping;

/** Test-only: the other half of a package cycle (pong -> ping -> pong). */
public final class Pong {
    private Pong() {
    }

    public static String ping() {
        return Ping.pong();
    }
}
