package dev.cudnntool.probe;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The files the loader mapped into the probe's child: those named in a Linux {@code /proc/PID/maps} text, or a
 * Windows process's module files; in order of first mapping, each once.
 */
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

    /** Whether a mapped file is one of cuDNN's libraries (libcudnn.so.9, libcudnn_ops.so.9.5.1, cudnn_ops64_9.dll, …). */
    static boolean isCudnn(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (name.startsWith("libcudnn") && name.contains(".so")) {
            return true;
        }
        String dll = name.substring(name.lastIndexOf('\\') + 1).toLowerCase(Locale.ROOT);
        return dll.startsWith("cudnn") && dll.endsWith(".dll");
    }

    /**
     * A Windows process's module files as GetModuleFileNameExW named them: each checked ({@link #windowsPath}),
     * in the loader's order, each once (a file's name compared without case, as Windows does), at most
     * {@link NativeLoader.Windows#MODULES_LIMIT}.
     */
    static List<String> windowsModules(List<String> names) {
        Set<String> seen = new HashSet<>();
        List<String> out = new ArrayList<>();
        for (String raw : names) {
            String path = windowsPath(raw);
            if (path != null && out.size() < NativeLoader.Windows.MODULES_LIMIT && seen.add(path.toLowerCase(Locale.ROOT))) {
                out.add(path);
            }
        }
        return out;
    }

    /**
     * A module's file name as the child reports it, or null when it is not one: an absolute path on a drive
     * ({@code C:\...}) or a share ({@code \\server\share\...}), no control characters, at most 32,767
     * characters; the {@code \\?\} prefix of a long path is dropped ({@code \\?\UNC\} becomes {@code \\}).
     */
    static String windowsPath(String name) {
        if (name == null || name.length() > NativeLoader.Windows.PATH_LIMIT) {
            return null;
        }
        String p = name.startsWith("\\\\?\\UNC\\") ? "\\\\" + name.substring(8)
                : name.startsWith("\\\\?\\") ? name.substring(4) : name;
        if (p.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return null;
        }
        boolean drive = p.length() > 3 && Character.isLetter(p.charAt(0)) && p.charAt(0) < 0x80
                && p.charAt(1) == ':' && p.charAt(2) == '\\';
        boolean share = p.length() > 4 && p.startsWith("\\\\") && p.charAt(2) != '\\' && p.charAt(2) != '?';
        return drive || share ? p : null;
    }

    /**
     * Whether {@code folder} is one of the folders of a Windows PATH value: compared without case, a trailing
     * backslash and surrounding quotes ignored, empty entries skipped.
     */
    static boolean onWindowsPath(String path, String folder) {
        String want = windowsFolder(folder);
        if (path == null || want.isEmpty()) {
            return false;
        }
        for (String entry : path.split(";")) {
            if (!entry.isBlank() && windowsFolder(entry).equalsIgnoreCase(want)) {
                return true;
            }
        }
        return false;
    }

    private static String windowsFolder(String entry) {
        String e = entry.strip();
        if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
            e = e.substring(1, e.length() - 1);
        }
        while (e.length() > 3 && e.endsWith("\\")) {
            e = e.substring(0, e.length() - 1);
        }
        return e;
    }
}
