package dev.cudnntool.arch.cyclefixture.ping;
import dev.cudnntool.arch.cyclefixture.pong.Pong;

/** Test-only: one half of a package cycle (ping -> pong -> ping), so the no-cycle rule has something to catch. */
public final class Ping {
    private Ping() {
    }

    public static String pong() {
        return Pong.class.getName();
    }
}
