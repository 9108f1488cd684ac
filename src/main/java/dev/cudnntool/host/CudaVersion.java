package dev.cudnntool.host;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A CUDA toolkit or runtime version, major.minor. */
public record CudaVersion(int major, int minor) implements Comparable<CudaVersion> {
    // At most nine digits a part, so every match fits an int; a longer number is no CUDA version.
    private static final Pattern MM = Pattern.compile("(\\d{1,9})\\.(\\d{1,9})(?!\\d)");
    private static final Pattern NVCC = Pattern.compile("release (\\d{1,9})\\.(\\d{1,9})(?!\\d)");
    private static final Pattern TXT = Pattern.compile("CUDA Version (\\d{1,9})\\.(\\d{1,9})(?!\\d)");

    public static Optional<CudaVersion> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = MM.matcher(text);
        return m.lookingAt() ? Optional.of(new CudaVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))
                : Optional.empty();
    }

    /** "Cuda compilation tools, release 12.2, V12.2.140" from {@code nvcc --version}. */
    public static Optional<CudaVersion> fromNvcc(String text) {
        return find(NVCC, text);
    }

    /** "CUDA Version 10.2.89" from version.txt (toolkits before 11.1). */
    public static Optional<CudaVersion> fromVersionTxt(String text) {
        return find(TXT, text);
    }

    /** cudnnGetCudartVersion's number: 12020 is CUDA 12.2. */
    public static CudaVersion fromCudartNumber(long n) {
        return new CudaVersion((int) (n / 1000), (int) (n % 1000 / 10));
    }

    private static Optional<CudaVersion> find(Pattern p, String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = p.matcher(text);
        return m.find() ? Optional.of(new CudaVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))
                : Optional.empty();
    }

    @JsonValue
    @Override
    public String toString() {
        return major + "." + minor;
    }

    @Override
    public int compareTo(CudaVersion o) {
        int c = Integer.compare(major, o.major);
        return c != 0 ? c : Integer.compare(minor, o.minor);
    }
}
