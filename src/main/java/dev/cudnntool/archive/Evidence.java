package dev.cudnntool.archive;

import dev.cudnntool.archive.name.CudnnVersion;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * What the archive's contents say about its version.
 *
 * @param headerVersion from CUDNN_MAJOR/MINOR/PATCHLEVEL, null when no header defines them
 * @param headerFile    the header that defined them
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Evidence(CudnnVersion headerVersion, String headerFile, List<LibraryEvidence> libraries) {
    public Evidence {
        libraries = List.copyOf(libraries);
    }

    /** A library file and the version its name carries. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record LibraryEvidence(String file, String base, Integer major, CudnnVersion version) {
    }
}
