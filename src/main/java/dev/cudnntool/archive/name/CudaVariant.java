package dev.cudnntool.archive.name;

import com.fasterxml.jackson.annotation.JsonValue;

/** The CUDA build variant of an archive: "12", or with a minor as in 8.3–8.4 names ("11.5"). */
public record CudaVariant(int major, Integer minor) {
    public static CudaVariant parse(String major, String minor) {
        return new CudaVariant(Integer.parseInt(major), minor == null ? null : Integer.valueOf(minor));
    }

    @JsonValue
    @Override
    public String toString() {
        return minor == null ? Integer.toString(major) : major + "." + minor;
    }
}
