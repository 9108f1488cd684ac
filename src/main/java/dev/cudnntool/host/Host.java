package dev.cudnntool.host;
import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The machine as the tool sees it: a file system, the environment, the OS and CPU, and the way
 * to run programs. Everything that touches the machine goes through one of these, so tests run
 * whole checks on jimfs with a made-up environment and fake programs.
 *
 * @param jvmBits      64 or 32 (sun.arch.data.model)
 * @param registryPath the registry's user and machine Path where they were read (Windows, {@link #system(Map, Optional)})
 */
public record Host(FileSystem fs, Map<String, String> env, OsFamily os, Arch arch, int jvmBits,
                   ProcessRunner runner, Optional<RegistryPath> registryPath) {

    public Host {
        // Windows variable names are case-insensitive (Path, PATH); keep one map that says so.
        Map<String, String> copy = os == OsFamily.WINDOWS ? new TreeMap<>(String.CASE_INSENSITIVE_ORDER) : new TreeMap<>();
        copy.putAll(env);
        env = Collections.unmodifiableMap(copy);
        Objects.requireNonNull(registryPath);
    }

    /** A host whose registry was not read. */
    public Host(FileSystem fs, Map<String, String> env, OsFamily os, Arch arch, int jvmBits, ProcessRunner runner) {
        this(fs, env, os, arch, jvmBits, runner, Optional.empty());
    }

    /**
     * This machine, with the environment {@code env} and the registry's Path values {@code registry}
     * as read by the caller ({@code SearchPathStores.systemHost()}, which the command line's entry point
     * uses: the registry's reader lives with the search path, below this type, so no cycle).
     */
    public static Host system(Map<String, String> env, Optional<RegistryPath> registry) {
        return new Host(FileSystems.getDefault(), env, systemOs(), Arch.fromJvm(System.getProperty("os.arch")),
                "32".equals(System.getProperty("sun.arch.data.model")) ? 32 : 64,
                new SystemProcessRunner(), registry);
    }

    /** This machine's OS. */
    public static OsFamily systemOs() {
        return osFromName(System.getProperty("os.name"));
    }

    public static OsFamily osFromName(String osName) {
        String n = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        if (n.startsWith("windows")) {
            return OsFamily.WINDOWS;
        }
        if (n.startsWith("linux")) {
            return OsFamily.LINUX;
        }
        if (n.startsWith("mac") || n.startsWith("darwin")) {
            return OsFamily.MACOS;
        }
        return OsFamily.OTHER;
    }

    public Host withRunner(ProcessRunner r) {
        return new Host(fs, env, os, arch, jvmBits, r, registryPath);
    }

    /** The same host with the registry's Path values read as {@code r} (tests of Windows diagnosis). */
    public Host withRegistryPath(RegistryPath r) {
        return new Host(fs, env, os, arch, jvmBits, runner, Optional.of(r));
    }

    public String env(String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : v;
    }

    public Path path(String first, String... more) {
        return fs.getPath(first, more);
    }

    /**
     * The current folder of this process, from the file system (the JVM's working directory, or
     * jimfs's configured one in tests): what an empty LD_LIBRARY_PATH entry means to the loader.
     */
    public Path currentDir() {
        return fs.getPath("").toAbsolutePath();
    }

    /**
     * {@code %ProgramFiles%} (Windows), or {@code C:\Program Files} when the variable is unset, not an
     * absolute path, or no path at all (a drive-relative {@code C:}, a character no path holds): an
     * environment value is hostile input and never crashes a lookup.
     */
    public Path programFiles() {
        String pf = env("ProgramFiles");
        try {
            if (pf != null && pf.length() < 4096 && fs.getPath(pf).isAbsolute()) {
                return fs.getPath(pf);
            }
        } catch (RuntimeException notAPath) {
            // Windows' own default below
        }
        return fs.getPath("C:\\Program Files");
    }

    public boolean windows() {
        return os == OsFamily.WINDOWS;
    }

    public String pathSeparator() {
        return windows() ? ";" : ":";
    }

    /** File names compare without case on Windows. */
    public boolean samePath(Path a, Path b) {
        String x = a.toAbsolutePath().normalize().toString();
        String y = b.toAbsolutePath().normalize().toString();
        return windows() ? x.equalsIgnoreCase(y) : x.equals(y);
    }

    /**
     * The one way the tool resolves a real path: links followed, or the absolute normal path when it
     * cannot be resolved (a dangling link, a loop, a folder it may not read).
     */
    public Path realPath(Path p) {
        return RealPaths.real(p);
    }

    /**
     * The one way the tool compares files: the same real path (without case on Windows). Two hard links
     * to one file are two copies, as a loader sees them.
     */
    public boolean sameFile(Path a, Path b) {
        return RealPaths.sameFile(a, b, windows());
    }
}
