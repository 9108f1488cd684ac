package dev.cudnntool.target;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.NamingScheme;
import dev.cudnntool.host.RealPaths;
import dev.cudnntool.host.Toolkit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where cuDNN goes: into a CUDA toolkit (files spread into bin, include, lib\x64 or lib64), or
 * into a stand-alone --prefix folder in the archive's own layout.
 */
public record InstallTarget(Kind kind, @JsonIgnore Path root, @JsonIgnore OsFamily os) {
    public enum Kind {
        TOOLKIT, PREFIX;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public static InstallTarget toolkit(Toolkit t, OsFamily os) {
        return new InstallTarget(Kind.TOOLKIT, t.root(), os);
    }

    public static InstallTarget prefix(Path root, OsFamily os) {
        return new InstallTarget(Kind.PREFIX, root, os);
    }

    @JsonProperty("path")
    public String pathText() {
        return root.toString();
    }

    /** The tool's own folder inside the target: lock, journal, staging and history. */
    @JsonIgnore
    public Path stateDir() {
        return StateFolder.of(root).dir();
    }

    /** The tool's own folder as a type: every file name in it. */
    @JsonIgnore
    public StateFolder state() {
        return StateFolder.of(root);
    }

    /**
     * The folder the Linux runtime libraries go to: {@code lib64}, through its link
     * (lib64 -&gt; targets/x86_64-linux/lib) when it is one, so files land in the real folder.
     */
    @JsonIgnore
    public Path linuxLibDir() {
        Path lib64 = root.resolve("lib64");
        if (Files.isSymbolicLink(lib64) && Files.exists(lib64)) {
            return RealPaths.real(lib64); // dangling: lib64 itself, and creating it fails later with a clear message
        }
        return lib64;
    }

    /** Where the loader must find the runtime libraries of this archive once installed. */
    public Path runtimeDir(ArchiveName archive) {
        if (kind == Kind.PREFIX) {
            if (archive.os() == OsFamily.WINDOWS && archive.scheme() == NamingScheme.WHEEL) {
                return root.resolve("bin"); // a wheel keeps its DLLs in nvidia/cudnn/bin
            }
            if (archive.os() == OsFamily.WINDOWS) {
                boolean x64 = archive.major() > 9 || archive.major() == 9 && archive.version().minor() >= 18;
                return x64 ? root.resolve("bin").resolve("x64") : root.resolve("bin");
            }
            return root.resolve(archive.scheme() == NamingScheme.LEGACY ? "lib64" : "lib");
        }
        return archive.os() == OsFamily.WINDOWS ? root.resolve("bin") : linuxLibDir();
    }
}
