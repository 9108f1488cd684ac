package dev.cudnntool.probe;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The files named in a Linux {@code /proc/PID/maps} text, in order of first mapping, each once. */
final class MappedFiles {
    private MappedFiles() {
    }

    /**
     * Each line is {@code address perms offset dev inode [path]}; the path (the sixth field, which may hold
     * spaces) is kept when it is absolute. A deleted file's {@code " (deleted)"} mark is kept as the kernel wrote it.
     */
    static List<String> parse(String maps) {
        Set<String> out = new LinkedHashSet<>();
        for (String line : maps.split("\n")) {
            String[] f = line.strip().split("\\s+", 6);
            if (f.length == 6 && f[5].startsWith("/")) {
                out.add(f[5]);
            }
        }
        return new ArrayList<>(out);
    }

    /** Whether a mapped file is one of cuDNN's libraries (libcudnn.so.9, libcudnn_ops.so.9.5.1, …). */
    static boolean isCudnn(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.startsWith("libcudnn") && name.contains(".so");
    }
}
