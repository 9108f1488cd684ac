package dev.cudnntool.host;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;

/**
 * A CUDA toolkit folder and its version.
 *
 * @param versionSource where the version came from: version.json, version.txt, nvcc, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Toolkit(@JsonIgnore Path root, CudaVersion version, String versionSource, String foundBy) {
    @JsonProperty("path")
    public String pathText() {
        return root.toString();
    }
}
