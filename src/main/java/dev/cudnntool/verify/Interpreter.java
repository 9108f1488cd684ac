package dev.cudnntool.verify;

import dev.cudnntool.diagnosis.CopyFinder;

import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.ProgramLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The Python executable of a site-packages on Linux ({@code PREFIX/lib/python3.X/site-packages} is run by
 * {@code PREFIX/bin/python3.X}), read as the executable a framework's libraries are loaded under: its DT_RPATH
 * counts for every library without a DT_RUNPATH ({@link ProgramLoader.Loaders}). A venv's python is a link to the
 * interpreter it was made from, whose folder {@code $ORIGIN} names (the loader takes the executable's real path).
 */
final class Interpreter {
    private static final Pattern PYTHON_DIR = Pattern.compile("python3\\.\\d{1,3}t?");

    private Interpreter() {
    }

    /** The executable's loaders for {@code site}: {@link ProgramLoader.Loaders#NONE} where no interpreter is found or read. */
    static ProgramLoader.Loaders of(Host host, Path site) {
        if (host.windows() || site.getParent() == null || site.getParent().getFileName() == null) {
            return ProgramLoader.Loaders.NONE;
        }
        String dir = site.getParent().getFileName().toString();
        Path lib = site.getParent().getParent();
        if (!site.getFileName().toString().equals("site-packages") || !PYTHON_DIR.matcher(dir).matches() || lib == null
                || lib.getParent() == null) {
            return ProgramLoader.Loaders.NONE;
        }
        Path bin = lib.getParent().resolve("bin");
        for (String name : List.of(dir, "python3", "python")) {
            Path exe = bin.resolve(name);
            if (Files.isRegularFile(exe)) {
                ProgramLoader.Program p = ProgramLoader.Program.read(host.realPath(exe));
                return p.problem() == null ? ProgramLoader.Loaders.executable(p) : ProgramLoader.Loaders.NONE;
            }
        }
        return ProgramLoader.Loaders.NONE;
    }
}
