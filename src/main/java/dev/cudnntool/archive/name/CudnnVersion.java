package dev.cudnntool.archive.name;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cuDNN version: major.minor.patch and, where known (archive names), the build number.
 * {@code build} is -1 when unknown (headers and the API never carry it).
 */
public record CudnnVersion(int major, int minor, int patch, int build) implements Comparable<CudnnVersion> {
    private static final Pattern TEXT = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

    public static CudnnVersion of(int major, int minor, int patch) {
        return new CudnnVersion(major, minor, patch, -1);
    }

    /** Parses "8.9.5" or "8.9.5.30". */
    public static CudnnVersion parse(String text) {
        Matcher m = TEXT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a cuDNN version: " + text);
        }
        int build = m.group(4) == null ? -1 : Integer.parseInt(m.group(4));
        return new CudnnVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)), build);
    }

    /**
     * Decodes the number {@code cudnnGetVersion} returns: MAJOR*1000+MINOR*100+PATCH up to 8,
     * MAJOR*10000+MINOR*100+PATCH from 9 (a value of 10000 or more means the 9+ rule).
     */
    public static CudnnVersion fromApiNumber(long value) {
        if (value <= 0) {
            throw new IllegalArgumentException("not a cuDNN version number: " + value);
        }
        if (value >= 10000) {
            return of((int) (value / 10000), (int) (value % 10000 / 100), (int) (value % 100));
        }
        return of((int) (value / 1000), (int) (value % 1000 / 100), (int) (value % 100));
    }

    /** The number cudnnGetVersion would return for this version. */
    public long apiNumber() {
        return major >= 9 ? major * 10000L + minor * 100L + patch : major * 1000L + minor * 100L + patch;
    }

    /** The same release ignoring the build number. */
    public CudnnVersion release() {
        return of(major, minor, patch);
    }

    public boolean sameRelease(CudnnVersion other) {
        return major == other.major && minor == other.minor && patch == other.patch;
    }

    public String releaseString() {
        return major + "." + minor + "." + patch;
    }

    @JsonValue
    @Override
    public String toString() {
        return build < 0 ? releaseString() : releaseString() + "." + build;
    }

    @Override
    public int compareTo(CudnnVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) c = Integer.compare(minor, o.minor);
        if (c == 0) c = Integer.compare(patch, o.patch);
        if (c == 0) c = Integer.compare(build, o.build);
        return c;
    }
}
