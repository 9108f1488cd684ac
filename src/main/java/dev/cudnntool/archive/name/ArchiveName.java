package dev.cudnntool.archive.name;

import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.ToolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an archive's file name says: version, platform, CUDA variant, format and naming scheme.
 * {@link #parse} is a pure function of the name; anything it does not recognise is rejected.
 *
 * @param fileName      the name as given (may carry " (1)" or the blog typo)
 * @param canonicalName NVIDIA's spelling of the same archive
 * @param warnings      findings about the name itself (typo, browser duplicate, renamed .tgz)
 */
public record ArchiveName(
        String fileName,
        String canonicalName,
        CudnnVersion version,
        OsFamily os,
        Arch arch,
        CudaVariant cudaVariant,
        ArchiveFormat format,
        NamingScheme scheme,
        List<Finding> warnings) {

    public static final String EXPECTED = "expected cudnn-<platform>-<M.m.p.b>_cuda<NN>-archive.<zip|tar.xz>"
            + " (e.g. cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz) or the legacy"
            + " cudnn-<CUDA M.m>-<os>-x64-v<M.m.p.b>.<zip|tgz> (e.g. cudnn-11.2-windows-x64-v8.1.1.33.zip)";

    private static final Pattern MODERN = Pattern.compile(
            "cudnn-(windows-x86_64|linux-x86_64|linux-sbsa|linux-aarch64|linux-ppc64le)-(\\d{1,6}\\.\\d{1,6}\\.\\d{1,6}\\.\\d{1,6})_cuda(\\d{1,6})(?:\\.(\\d{1,6}))?-archive");
    /** The spelling from a popular blog post: dashes instead of "x86_64" and "_cuda". */
    private static final Pattern TYPO = Pattern.compile(
            "cudnn-(windows|linux)-x86-64-(\\d{1,6}\\.\\d{1,6}\\.\\d{1,6}\\.\\d{1,6})-cuda(\\d{1,6})(?:\\.(\\d{1,6}))?-archive");
    private static final Pattern LEGACY = Pattern.compile(
            "cudnn-(\\d{1,6})\\.(\\d{1,6})-(linux|windows|windows7|windows10)-(x64|ppc64le|aarch64sbsa)-v(\\d{1,6}\\.\\d{1,6}\\.\\d{1,6}\\.\\d{1,6})");
    private static final Pattern BROWSER_COPY = Pattern.compile("(.*?) ?\\(\\d+\\)");

    public ArchiveName {
        warnings = List.copyOf(warnings);
    }

    /** The major cuDNN version, the one that names the libraries (cudnn64_8.dll, libcudnn.so.9). */
    public int major() {
        return version.major();
    }

    public static ArchiveName parse(String fileName) {
        String name = fileName;
        int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
        if (slash >= 0) {
            name = name.substring(slash + 1);
        }
        List<Finding> warnings = new ArrayList<>();
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".whl")) {
            return WheelName.parse(name);
        }
        ArchiveFormat format;
        String base;
        String ext;
        if (lower.endsWith(".tar.xz")) {
            format = ArchiveFormat.TAR_XZ;
            ext = ".tar.xz";
        } else if (lower.endsWith(".zip")) {
            format = ArchiveFormat.ZIP;
            ext = ".zip";
        } else if (lower.endsWith(".tgz")) {
            format = ArchiveFormat.TGZ;
            ext = ".tgz";
        } else if (lower.endsWith(".tar.gz")) {
            format = ArchiveFormat.TGZ;
            ext = ".tar.gz";
        } else if (lower.endsWith(".solitairetheme8")) {
            format = ArchiveFormat.TGZ;
            ext = ".solitairetheme8";
            warnings.add(Finding.warn(FindingId.ARCHIVE_RENAMED_TGZ,
                    "'" + name + "' is a .tgz archive that an old browser saved as .solitairetheme8; reading it as .tgz",
                    "nothing to do; renaming it to .tgz is optional"));
        } else {
            throw rejected(name, "unknown extension");
        }
        base = name.substring(0, name.length() - ext.length());
        Matcher copy = BROWSER_COPY.matcher(base);
        if (copy.matches()) {
            warnings.add(Finding.info(FindingId.ARCHIVE_BROWSER_COPY,
                    "'" + name + "' looks like a second download of the same archive (browser suffix ignored)"));
            base = copy.group(1);
        }

        Matcher m = MODERN.matcher(base);
        if (m.matches()) {
            String platform = m.group(1);
            return modern(name, platform, m.group(2), m.group(3), m.group(4), format, warnings);
        }
        m = TYPO.matcher(base);
        if (m.matches()) {
            String platform = m.group(1) + "-x86_64";
            ArchiveName parsed = modern(name, platform, m.group(2), m.group(3), m.group(4), format, warnings);
            List<Finding> w = new ArrayList<>(parsed.warnings());
            w.add(0, Finding.warn(FindingId.ARCHIVE_NAME_TYPO,
                    "'" + name + "' is not NVIDIA's spelling: the archive is published as '" + parsed.canonicalName()
                            + "' (x86_64 and _cuda" + parsed.cudaVariant() + ", not x86-64 and -cuda); reading it as that",
                    "check the download came from NVIDIA's cuDNN archive page; rename it to " + parsed.canonicalName()));
            return new ArchiveName(parsed.fileName(), parsed.canonicalName(), parsed.version(), parsed.os(),
                    parsed.arch(), parsed.cudaVariant(), parsed.format(), parsed.scheme(), w);
        }
        m = LEGACY.matcher(base);
        if (m.matches()) {
            OsFamily os = m.group(3).startsWith("windows") ? OsFamily.WINDOWS : OsFamily.LINUX;
            Arch arch = switch (m.group(4)) {
                case "x64" -> Arch.X86_64;
                case "ppc64le" -> Arch.PPC64LE;
                default -> Arch.SBSA;
            };
            CudnnVersion version = CudnnVersion.parse(m.group(5));
            CudaVariant variant = CudaVariant.parse(m.group(1), m.group(2));
            String canonicalExt = format == ArchiveFormat.ZIP ? ".zip" : ".tgz";
            return new ArchiveName(name, base + canonicalExt, version, os, arch, variant, format,
                    NamingScheme.LEGACY, warnings);
        }
        throw rejected(name, "unrecognised name");
    }

    private static ArchiveName modern(String name, String platform, String version, String cudaMajor,
                                      String cudaMinor, ArchiveFormat format, List<Finding> warnings) {
        int dash = platform.indexOf('-');
        OsFamily os = platform.startsWith("windows") ? OsFamily.WINDOWS : OsFamily.LINUX;
        Arch arch = Arch.fromLabel(platform.substring(dash + 1));
        CudaVariant variant = CudaVariant.parse(cudaMajor, cudaMinor);
        CudnnVersion v = CudnnVersion.parse(version);
        String canonical = canonicalModern(platform, v, variant, os == OsFamily.WINDOWS ? ArchiveFormat.ZIP : ArchiveFormat.TAR_XZ);
        return new ArchiveName(name, canonical, v, os, arch, variant, format, NamingScheme.MODERN, warnings);
    }

    /** NVIDIA's modern file name for the given platform ("linux-x86_64"), version and variant. */
    public static String canonicalModern(String platform, CudnnVersion version, CudaVariant variant, ArchiveFormat format) {
        return "cudnn-" + platform + "-" + version + "_cuda" + variant + "-archive." + format.label();
    }

    /** NVIDIA's name of the same release built for Linux on {@code arch}: the fix for a wrong-platform archive. */
    public String linuxEquivalent(Arch arch) {
        return canonicalModern("linux-" + arch.label(), version, cudaVariant, ArchiveFormat.TAR_XZ);
    }

    public String windowsEquivalent() {
        return canonicalModern("windows-x86_64", version, cudaVariant, ArchiveFormat.ZIP);
    }

    /** The folder name NVIDIA puts at the top of a modern archive: the canonical name without extension. */
    public String expectedTopFolder() {
        if (scheme == NamingScheme.LEGACY) {
            return "cuda";
        }
        if (scheme == NamingScheme.WHEEL) {
            return WheelName.PACKAGE_FOLDER;
        }
        String c = canonicalName;
        return c.substring(0, c.length() - (os == OsFamily.WINDOWS ? ".zip".length() : ".tar.xz".length()));
    }

    private static ToolException rejected(String name, String why) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED,
                "'" + name + "' is not a cuDNN archive name (" + why + "); " + EXPECTED,
                "pass the archive exactly as downloaded from NVIDIA's cuDNN archive page");
    }
}
