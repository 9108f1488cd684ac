package dev.cudnntool.archive;
import dev.cudnntool.cli.Main;

/** Test-only: an archive class that uses the command line, so the layering rule has something to catch. */
public final class LayeringViolationFixture {
    private LayeringViolationFixture() {
    }

    public static String upward() {
        return Main.class.getName();
    }
}
