package dev.cudnntool.archive.format;
import dev.cudnntool.archive.ArchiveInspector;

/** Test-only: a format reader that uses the inspector above it, so the rule inside a capability has something to catch. */
public final class LayeringViolationFixture {
    private LayeringViolationFixture() {
    }

    public static String upward() {
        return ArchiveInspector.class.getName();
    }
}
