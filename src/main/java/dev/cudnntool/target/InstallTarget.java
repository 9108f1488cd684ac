package dev.cudnntool.target;
import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.Toolkit;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where cuDNN goes: into a CUDA toolkit (files spread into bin, include, lib\x64 or lib64), or into a
 * stand-alone --prefix folder in the archive's own layout. It carries, built once, its {@link TargetLayout}
 * (which folders hold what), its state folder (the tool's own files inside it) and its {@link StatePaths}
 * (how paths in that state are stored and proven to lie inside). JSON: {@code {"kind", "path"}}.
 */
@JsonAutoDetect(getterVisibility = JsonAutoDetect.Visibility.NONE, isGetterVisibility = JsonAutoDetect.Visibility.NONE,
        fieldVisibility = JsonAutoDetect.Visibility.NONE)
@JsonPropertyOrder({"kind", "path"})
public final class InstallTarget {
    public enum Kind {
        TOOLKIT, PREFIX;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final TargetLayout layout;
    private final StateFolder state;
    private final StatePaths paths;

    private InstallTarget(TargetLayout layout) {
        this.layout = layout;
        this.state = StateFolder.of(layout.root());
        this.paths = new StatePaths(layout.root());
    }

    /** cuDNN spread into {@code t}'s folders, laid out for {@code os} (the archive's when installing). */
    public static InstallTarget toolkit(Toolkit t, OsFamily os) {
        return new InstallTarget(TargetLayout.toolkit(t.root(), os));
    }

    /** A stand-alone folder, laid out for {@code os} (the archive's when installing). */
    public static InstallTarget prefix(Path root, OsFamily os) {
        return new InstallTarget(TargetLayout.prefix(root, os));
    }

    /** Which folders of this target hold runtime libraries, headers and import libraries. */
    public TargetLayout layout() {
        return layout;
    }

    @JsonProperty("kind")
    public Kind kind() {
        return layout instanceof TargetLayout.Prefix ? Kind.PREFIX : Kind.TOOLKIT;
    }

    public Path root() {
        return layout.root();
    }

    public OsFamily os() {
        return layout.os();
    }

    @JsonProperty("path")
    public String pathText() {
        return root().toString();
    }

    /** The tool's own folder inside the target: lock, journal, staging and history. */
    public Path stateDir() {
        return state.dir();
    }

    /** The tool's own folder as a type: every file name in it. */
    public StateFolder state() {
        return state;
    }

    /** How paths in this target's state are stored, and proven to lie inside it when read back. */
    public StatePaths paths() {
        return paths;
    }

    /** Where the loader must find the runtime libraries of this archive once installed. */
    public Path runtimeDir(ArchiveName archive) {
        return layout.runtimeDir(archive);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InstallTarget other && layout.equals(other.layout);
    }

    @Override
    public int hashCode() {
        return layout.hashCode();
    }

    @Override
    public String toString() {
        return kind().label() + " " + root();
    }
}
