package dev.cudnntool.archive;

import java.util.List;
import java.util.Locale;

/**
 * Sorts an entry by its path below the top folder into what it is for. Folder names compare
 * case-insensitively (Windows zips); libraries are searched at any depth below bin/ and lib/.
 */
public final class ArchiveLayout {
    private ArchiveLayout() {
    }

    public static EntryRole classify(List<String> rel, EntryType type) {
        if (type == EntryType.DIRECTORY) {
            return EntryRole.DIRECTORY;
        }
        String first = rel.get(0).toLowerCase(Locale.ROOT);
        String file = rel.get(rel.size() - 1).toLowerCase(Locale.ROOT);
        if (rel.size() == 1) {
            return file.startsWith("license") || file.startsWith("nvidia_sla") ? EntryRole.LICENSE : EntryRole.OTHER;
        }
        switch (first) {
            case "include":
                return file.endsWith(".h") ? EntryRole.HEADER : EntryRole.OTHER;
            case "bin":
                return file.endsWith(".dll") ? EntryRole.RUNTIME_LIBRARY : EntryRole.OTHER;
            case "lib":
            case "lib64":
                if (file.endsWith(".lib")) {
                    return EntryRole.IMPORT_LIBRARY;
                }
                if (file.endsWith(".a")) {
                    return EntryRole.STATIC_LIBRARY;
                }
                if (file.contains(".so")) {
                    return EntryRole.RUNTIME_LIBRARY;
                }
                if (file.endsWith(".dll")) {
                    return EntryRole.RUNTIME_LIBRARY;
                }
                return EntryRole.OTHER;
            default:
                return EntryRole.OTHER;
        }
    }
}
