package dev.cudnntool.cli;
import dev.cudnntool.BoundedFiles;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The image's class-data archive covers every common command, not only the first one run (#31 item 5).
 * Java 17 cannot map an archive made where the image was built (it records the jar's absolute path),
 * so the launcher makes it on the image's first run with {@code -XX:ArchiveClassesAtExit}, and the
 * archive holds what that JVM had loaded when it ended. The launcher then also names the list that
 * {@code scripts/dist.sh} wrote from training runs of {@code --version}, {@code verify},
 * {@code releases} and {@code install --dry-run} ({@code lib/cudnn-tool.classlist}) in
 * {@link #PROPERTY}; once the command is done, {@link #loadListed} loads those classes too, without
 * initializing them (no static initializer runs), so the archive holds them all.
 */
final class ClassDataTraining {
    /** The system property naming the class list; read by {@link Main#main} only. */
    static final String PROPERTY = "cudnntool.cds.classes";
    /** The list is read as hostile input: at most 1 MiB, and only lines that are class names. */
    static final long MAX_BYTES = 1L << 20;
    private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*");

    private ClassDataTraining() {
    }

    /** As {@link #loadListed(Path, ClassLoader)} for the file the launcher named; nothing when {@code listFile} is null or blank. */
    static int loadListed(String listFile, ClassLoader loader) {
        if (listFile == null || listFile.isBlank()) {
            return 0;
        }
        return loadListed(FileSystems.getDefault(), listFile, loader);
    }

    static int loadListed(FileSystem fs, String listFile, ClassLoader loader) {
        try {
            return loadListed(fs.getPath(listFile), loader);
        } catch (RuntimeException e) {
            return 0; // not a path: nothing to train on
        }
    }

    /**
     * Loads each class named in {@code list} (one binary name a line) through {@code loader}, without
     * initializing it. A missing, unreadable or oversized list, a line that is no class name, a class
     * that is not there or does not link: skipped; the command's outcome never depends on this.
     *
     * @return how many classes were loaded
     */
    static int loadListed(Path list, ClassLoader loader) {
        List<String> lines;
        try {
            lines = BoundedFiles.readLines(list, MAX_BYTES);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        int loaded = 0;
        for (String line : lines) {
            String name = line.strip();
            if (name.length() > 512 || !CLASS_NAME.matcher(name).matches()) {
                continue;
            }
            try {
                Class.forName(name, false, loader);
                loaded++;
            } catch (ClassNotFoundException | LinkageError e) {
                // gone from this build, or not linkable here: the archive simply lacks it
            }
        }
        return loaded;
    }
}
