package dev.cudnntool.archive;

import dev.cudnntool.archive.format.EntryType;
import dev.cudnntool.archive.name.LibraryName;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Sorts an entry by its path below the top folder into what it is for. Only cuDNN's own files in
 * NVIDIA's layout get a role (facts §3–§4a): the licence at the top, {@code cudnn*.h} directly
 * in {@code include/}, {@code cudnn*.dll} at any depth below {@code bin/}, and below {@code lib/}
 * or {@code lib64/} the {@code libcudnn*} shared and static libraries and {@code cudnn*.lib}.
 * Everything else is {@link EntryRole#OTHER}: a foreign file that refuses the archive. Folder
 * names compare case-insensitively (Windows zips).
 */
public final class ArchiveLayout {
    private ArchiveLayout() {
    }

    public static EntryRole classify(List<String> rel, EntryType type) {
        if (type == EntryType.DIRECTORY) {
            return EntryRole.DIRECTORY;
        }
        String first = rel.get(0).toLowerCase(Locale.ROOT);
        String file = rel.get(rel.size() - 1);
        if (rel.size() == 1) {
            return CudnnFiles.isLicence(file) ? EntryRole.LICENSE : EntryRole.OTHER;
        }
        Optional<LibraryName.Kind> lib = LibraryName.parse(file).map(LibraryName::kind);
        switch (first) {
            case "include":
                return rel.size() == 2 && CudnnFiles.isHeader(file) ? EntryRole.HEADER : EntryRole.OTHER;
            case "bin":
                return lib.orElse(null) == LibraryName.Kind.WINDOWS_DLL ? EntryRole.RUNTIME_LIBRARY : EntryRole.OTHER;
            case "lib":
            case "lib64":
                if (lib.isEmpty()) {
                    return EntryRole.OTHER;
                }
                return switch (lib.get()) {
                    case IMPORT_LIBRARY -> EntryRole.IMPORT_LIBRARY;
                    case STATIC_LIBRARY -> EntryRole.STATIC_LIBRARY;
                    case LINUX_SHARED -> EntryRole.RUNTIME_LIBRARY;
                    case WINDOWS_DLL -> EntryRole.OTHER;
                };
            default:
                return EntryRole.OTHER;
        }
    }
}
