package dev.cudnntool.archive.name;

import dev.cudnntool.Arch;
import dev.cudnntool.ExitCode;
import dev.cudnntool.OsFamily;
import dev.cudnntool.ToolException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NVIDIA's pip wheel of cuDNN by its file name (PEP 427):
 * {@code nvidia_cudnn_cu12-9.5.1.17-py3-none-manylinux2014_x86_64.whl}, {@code …-win_amd64.whl},
 * {@code nvidia_cudnn_cu13-9.24.0.43-py3-none-manylinux_2_27_x86_64.whl}. The distribution name
 * gives the CUDA major, the version the cuDNN release, the platform tag OS and architecture
 * ({@code manylinux…_x86_64}, {@code manylinux…_aarch64} = sbsa, {@code win_amd64}). A compressed
 * tag set ({@code manylinux2014_x86_64.manylinux_2_17_x86_64}) must name one platform.
 */
public final class WheelName {
    /** Where a cuDNN wheel keeps include/, lib/ and bin/: the "top folder" of a wheel. */
    public static final String PACKAGE_FOLDER = "nvidia/cudnn";

    private static final Pattern NAME = Pattern.compile(
            "nvidia_cudnn_cu(\\d{1,3})-(\\d{1,6}\\.\\d{1,6}\\.\\d{1,6}(?:\\.\\d{1,6})?)-(py3)-(none)-([a-z0-9_.]{1,200})\\.whl");
    private static final Pattern LINUX_TAG = Pattern.compile("(?:many|musl)?linux(?:1|2010|2014|_\\d{1,3}_\\d{1,4})?_(x86_64|aarch64)");

    private WheelName() {
    }

    /** The distribution name pip knows it by: {@code nvidia-cudnn-cu12}. */
    public static String distribution(CudaVariant cuda) {
        return "nvidia-cudnn-cu" + cuda.major();
    }

    public static ArchiveName parse(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            throw rejected(name, name.toLowerCase(Locale.ROOT).startsWith("nvidia_cudnn_cu") ? "unrecognised wheel name"
                    : "not NVIDIA's cuDNN wheel");
        }
        OsFamily os = null;
        Arch arch = null;
        for (String tag : m.group(5).split("\\.")) {
            OsFamily o;
            Arch a;
            Matcher l = LINUX_TAG.matcher(tag);
            if (tag.equals("win_amd64")) {
                o = OsFamily.WINDOWS;
                a = Arch.X86_64;
            } else if (l.matches()) {
                o = OsFamily.LINUX;
                a = l.group(1).equals("x86_64") ? Arch.X86_64 : Arch.SBSA;
            } else {
                throw rejected(name, "platform tag '" + tag + "' is not one NVIDIA builds cuDNN wheels for"
                        + " (manylinux…_x86_64, manylinux…_aarch64, win_amd64)");
            }
            if (os != null && (os != o || arch != a)) {
                throw rejected(name, "its platform tags name two platforms");
            }
            os = o;
            arch = a;
        }
        CudaVariant cuda = CudaVariant.parse(m.group(1), null);
        CudnnVersion version = CudnnVersion.parse(m.group(2));
        return new ArchiveName(name, name, version, os, arch, cuda, ArchiveFormat.WHEEL, NamingScheme.WHEEL, List.of());
    }

    private static ToolException rejected(String name, String why) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED, "'" + name + "' is not a cuDNN wheel name (" + why
                + "); expected nvidia_cudnn_cu<NN>-<M.m.p.b>-py3-none-<manylinux…_x86_64|manylinux…_aarch64|win_amd64>.whl",
                "pass the wheel exactly as pip downloaded it (pip download nvidia-cudnn-cu12==VERSION --no-deps)");
    }
}
