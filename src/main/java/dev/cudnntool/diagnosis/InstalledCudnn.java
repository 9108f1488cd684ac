package dev.cudnntool.diagnosis;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cudnntool.archive.name.CudnnVersion;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The cuDNN files found in one place: which major, the main library, its sub-libraries, what is
 * missing, the header's version, and the versions the library files themselves carry.
 *
 * @param fileVersions library file name to the release it carries (Linux real-file names,
 *                     Windows FileVersion); used to spot mixed releases
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InstalledCudnn(int major, @JsonIgnore Path runtimeDir, @JsonIgnore Path mainLibrary,
                             @JsonIgnore List<Path> subLibraries, List<String> missing, CudnnVersion headerVersion,
                             String headerFile, Map<String, String> fileVersions, List<Integer> otherMajors) {
    @JsonProperty("runtimeDir")
    public String runtimeDirText() {
        return runtimeDir.toString();
    }

    @JsonProperty("mainLibrary")
    public String mainLibraryText() {
        return mainLibrary.toString();
    }
}
