package dev.cudnntool.install;
import dev.cudnntool.ExitCode;
import dev.cudnntool.OsFamily;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.Host;
import dev.cudnntool.target.InstallTarget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code install --env-file FILE} (#31 item 3): after a successful install, {@code KEY=VALUE} lines
 * appended to FILE (the GitHub Action passes {@code $GITHUB_ENV}) that let a build find this cuDNN:
 * {@code CUDNN_PATH}, {@code CUDNN_ROOT_DIR}, the runtime folder ({@code CUDNN_RUNTIME_DIR}), the CMake
 * hints {@code CUDNN_INCLUDE_DIR} and {@code CUDNN_LIBRARY} (when that file is there), and the search
 * path with the runtime folder first: {@code LD_LIBRARY_PATH} on Linux, {@code PATH} on Windows.
 * A value holding a line break (or any control character) would inject a second line: refused.
 */
public final class EnvFile {
    /** One line of the file. */
    public record Entry(String key, String value) {
        public Entry {
            for (int i = 0; i < value.length(); i++) {
                if (Character.isISOControl(value.charAt(i))) {
                    throw new ToolException(ExitCode.USAGE, "the env file's " + key + " would hold a control character"
                            + " (a line break would start a line of its own)",
                            "install into a folder whose path has no newline or other control character, and clear "
                                    + key + " of them");
                }
            }
        }

        public String line() {
            return key + "=" + value;
        }
    }

    private EnvFile() {
    }

    /**
     * Before the install: FILE must be a file that can be appended to, or a new one in an existing
     * folder, and the search path it will extend must be one line. Usage error (exit 2) otherwise.
     */
    public static void check(Host host, Path file) {
        if (Files.isDirectory(file)) {
            throw new ToolException(ExitCode.USAGE, "--env-file " + file + " is a folder", "pass the path of a file (it is appended to)");
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) { // a FIFO or device would block or write elsewhere (#32)
            throw new ToolException(ExitCode.USAGE, "--env-file " + file + " is not a regular file (a FIFO, device or socket)",
                    "pass the path of a regular file (it is appended to)");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new ToolException(ExitCode.USAGE, "--env-file " + file + ": its folder does not exist", "create the folder first");
        }
        String inherited = host.env(searchPathKey(host.os()));
        new Entry(searchPathKey(host.os()), inherited == null ? "" : inherited); // throws on a line break
    }

    /** The lines for cuDNN installed into {@code target} from {@code archive}. */
    public static List<Entry> entries(Host host, InstallTarget target, ArchiveName archive) {
        List<Entry> out = new ArrayList<>();
        Path root = target.root();
        Path runtime = target.runtimeDir(archive);
        out.add(new Entry("CUDNN_PATH", root.toString()));
        out.add(new Entry("CUDNN_ROOT_DIR", root.toString()));
        out.add(new Entry("CUDNN_RUNTIME_DIR", runtime.toString()));
        Path include = target.layout().includeDir();
        if (Files.isDirectory(include)) {
            out.add(new Entry("CUDNN_INCLUDE_DIR", include.toString()));
        }
        target.layout().linkLibraryCandidates(archive).stream().filter(Files::exists).findFirst()
                .ifPresent(lib -> out.add(new Entry("CUDNN_LIBRARY", lib.toString())));
        String key = searchPathKey(host.os());
        String inherited = host.env(key);
        out.add(new Entry(key, runtime + (inherited == null || inherited.isEmpty() ? "" : host.pathSeparator() + inherited)));
        return out;
    }

    /** Appends {@code entries} to {@code file} (created if missing), one {@code KEY=VALUE} line each. */
    public static void append(Path file, List<Entry> entries) {
        StringBuilder b = new StringBuilder();
        for (Entry e : entries) {
            b.append(e.line()).append('\n');
        }
        try {
            Files.write(file, b.toString().getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new ToolException(ExitCode.USAGE, "cuDNN is installed, but --env-file " + file + " could not be written ("
                    + e.getClass().getSimpleName().replace("Exception", "").replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT)
                    + ")", "pass a file you can write; the install itself needs no repeat", e);
        }
    }

    private static String searchPathKey(OsFamily os) {
        return os == OsFamily.WINDOWS ? "PATH" : "LD_LIBRARY_PATH";
    }
}
