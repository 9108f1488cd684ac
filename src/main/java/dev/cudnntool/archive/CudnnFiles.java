package dev.cudnntool.archive;

import dev.cudnntool.archive.name.LibraryName;
import java.util.Locale;
import java.util.Optional;

/**
 * Which file names are cuDNN's (facts §4a): {@code cudnn*.h}, {@code libcudnn*.so*} and
 * {@code libcudnn*_static*.a}, {@code cudnn*64_N.dll}, {@code cudnn*.lib}, and the licence. The
 * single answer to "is this a cuDNN file" for the archive's entries and for files already in a
 * target: everything the tool installs, replaces or moves aside must pass {@link #isCudnnFile}.
 */
public final class CudnnFiles {
    private CudnnFiles() {
    }

    /** A header, shared/static/import library or DLL of cuDNN, by its file name alone. */
    public static boolean isCudnnFile(String fileName) {
        return isHeader(fileName) || LibraryName.parse(fileName).isPresent();
    }

    /** {@code cudnn*.h}, compared without case (Windows). */
    public static boolean isHeader(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        return lower.startsWith("cudnn") && lower.endsWith(".h") && safeChars(fileName);
    }

    /** The licence at the top of the archive: {@code LICENSE} (modern) or {@code NVIDIA_SLA_cuDNN_Support.txt} (legacy). */
    public static boolean isLicence(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        return lower.equals("license") || lower.equals("license.txt") || lower.equals("nvidia_sla_cudnn_support.txt");
    }

    /**
     * The cuDNN major a file belongs to: -1 for files without one (headers, {@code libcudnn.so},
     * {@code cudnn.lib}), which belong to whichever release is installed; empty for files that
     * are not cuDNN's (never moved, replaced or removed). Never throws, whatever the name.
     */
    public static Optional<Integer> ownedMajor(String fileName) {
        if (isHeader(fileName)) {
            return Optional.of(-1);
        }
        return LibraryName.parse(fileName).map(l -> l.major() == null ? -1 : l.major());
    }

    private static boolean safeChars(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isISOControl(c) || c == '/' || c == '\\' || c == ':') {
                return false;
            }
        }
        return true;
    }
}
