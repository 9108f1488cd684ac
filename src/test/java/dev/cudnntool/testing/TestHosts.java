package dev.cudnntool.testing;
import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ProcessRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/** Hosts on jimfs with a made-up environment: no test reads the real PATH or CUDA_PATH. */
public final class TestHosts {
    private TestHosts() {
    }

    public static FileSystem windowsFs() {
        return Jimfs.newFileSystem(Configuration.windows().toBuilder().setAttributeViews("basic").build());
    }

    public static FileSystem unixFs() {
        return Jimfs.newFileSystem(Configuration.unix().toBuilder().setAttributeViews("basic", "posix").build());
    }

    public static Host windows(FileSystem fs, Map<String, String> env, ProcessRunner runner) {
        return new Host(fs, env, OsFamily.WINDOWS, Arch.X86_64, 64, runner);
    }

    public static Host linux(FileSystem fs, Map<String, String> env, ProcessRunner runner) {
        return new Host(fs, env, OsFamily.LINUX, Arch.X86_64, 64, runner);
    }

    /** The system's {@code /sbin/ldconfig}, where the tool takes it from (never PATH): a file the fake runner answers for. */
    public static void ldconfig(FileSystem fs) {
        try {
            Path p = fs.getPath("/sbin/ldconfig");
            Files.createDirectories(p.getParent());
            Files.writeString(p, "\u007fELF");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A toolkit folder with version.json as NVIDIA's installer writes it. */
    public static Path toolkit(Path root, String version) {
        try {
            Files.createDirectories(root.resolve("bin"));
            Files.createDirectories(root.resolve("include"));
            Files.writeString(root.resolve("version.json"), "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n"
                    + "      \"version\" : \"" + version + "\"\n   }\n}\n");
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Linux toolkit whose lib64 is a link to targets/x86_64-linux/lib, as NVIDIA lays it out. */
    public static Path linuxToolkit(Path root, String version) {
        toolkit(root, version);
        try {
            Path real = root.resolve("targets/x86_64-linux/lib");
            Files.createDirectories(real);
            Files.createSymbolicLink(root.resolve("lib64"), root.getFileSystem().getPath("targets/x86_64-linux/lib"));
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
