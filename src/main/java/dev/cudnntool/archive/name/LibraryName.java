package dev.cudnntool.archive.name;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cuDNN library file name taken apart: {@code cudnn_ops_infer64_8.dll} is base
 * {@code cudnn_ops_infer}, major 8; {@code libcudnn.so.8.9.5} is base {@code cudnn}, major 8,
 * version 8.9.5; {@code libcudnn.so} has no major (the development link). Numbers have at most six
 * digits, so no name (from an archive or already on disk) can make parsing overflow: a longer one
 * is simply not a cuDNN library name.
 *
 * @param version the full M.m.p where the name carries it (Linux real files), else null
 */
public record LibraryName(String fileName, String base, Integer major, CudnnVersion version, Kind kind) {
    public enum Kind { WINDOWS_DLL, LINUX_SHARED, IMPORT_LIBRARY, STATIC_LIBRARY }

    private static final Pattern DLL = Pattern.compile("(cudnn(?:_[a-z0-9_]+?)?)64_(\\d{1,6})\\.dll");
    private static final Pattern SO = Pattern.compile("lib(cudnn(?:_[a-z0-9_]+)?)\\.so(?:\\.(\\d{1,6})(?:\\.(\\d{1,6})\\.(\\d{1,6}))?)?");
    private static final Pattern LIB = Pattern.compile("(cudnn(?:_[a-z0-9_]+?)?)(?:64_(\\d{1,6}))?\\.lib");
    private static final Pattern STATIC = Pattern.compile("lib(cudnn(?:_[a-z0-9_]+?)?)(?:_static)(?:_v(\\d{1,6}))?\\.a");

    public static Optional<LibraryName> parse(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        Matcher m = DLL.matcher(n);
        if (m.matches()) {
            return Optional.of(new LibraryName(fileName, m.group(1), Integer.valueOf(m.group(2)), null, Kind.WINDOWS_DLL));
        }
        m = SO.matcher(fileName);
        if (m.matches()) {
            Integer major = m.group(2) == null ? null : Integer.valueOf(m.group(2));
            CudnnVersion v = m.group(3) == null ? null
                    : CudnnVersion.of(major, Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
            return Optional.of(new LibraryName(fileName, m.group(1), major, v, Kind.LINUX_SHARED));
        }
        m = LIB.matcher(n);
        if (m.matches()) {
            Integer major = m.group(2) == null ? null : Integer.valueOf(m.group(2));
            return Optional.of(new LibraryName(fileName, m.group(1), major, null, Kind.IMPORT_LIBRARY));
        }
        m = STATIC.matcher(fileName);
        if (m.matches()) {
            Integer major = m.group(2) == null ? null : Integer.valueOf(m.group(2));
            return Optional.of(new LibraryName(fileName, m.group(1), major, null, Kind.STATIC_LIBRARY));
        }
        return Optional.empty();
    }

    /** True for the files the loader uses at run time (DLLs and shared objects). */
    public boolean isRuntime() {
        return kind == Kind.WINDOWS_DLL || kind == Kind.LINUX_SHARED;
    }
}
