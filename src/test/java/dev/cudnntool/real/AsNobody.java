package dev.cudnntool.real;

import dev.cudnntool.probe.ProbeRunner;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM with this test run's class path, started as the user nobody through setpriv: root is never
 * denied a file, so what an ordinary user meets (a folder or library only root may read) is proven
 * by a process that is such a user. The class path's jars are copied into a folder nobody can read.
 */
final class AsNobody {
    private AsNobody() {
    }

    /** Whether this run can start a process as nobody: it is root and util-linux's setpriv is there. */
    static boolean available() {
        return "root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/setpriv"));
    }

    /**
     * The command that starts java as nobody, up to and including {@code -cp CLASSPATH}: the jars
     * copied into {@code open/cp}, java's temporary files (and JNA's) in {@code open/jna}, both open
     * to everyone. {@code open} and every folder above it must be enterable by nobody.
     */
    static List<String> java(Path open) throws IOException {
        Path cp = Files.createDirectories(open.resolve("cp"));
        StringBuilder classPath = new StringBuilder();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path src = Path.of(e);
            if (Files.isRegularFile(src)) {
                Path copy = cp.resolve(classPath.length() + "-" + src.getFileName());
                Files.copy(src, copy);
                e = copy.toString();
            }
            classPath.append(classPath.length() == 0 ? "" : File.pathSeparator).append(e);
        }
        Path tmp = tmpdir(open);
        for (Path p : List.of(open, cp, tmp)) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxrwxrwx"));
        }
        List<String> java = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"));
        List<String> current = ProbeRunner.currentJava();
        java.addAll(current.subList(0, current.indexOf("-cp")));
        java.addAll(List.of("-Djna.tmpdir=" + tmp, "-Djava.io.tmpdir=" + tmp, "-cp", classPath.toString()));
        return java;
    }

    /** The folder {@link #java} gives the child for its temporary files (and its HOME). */
    static Path tmpdir(Path open) throws IOException {
        return Files.createDirectories(open.resolve("jna"));
    }
}
