package dev.cudnntool.host;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Arch;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.OsFamily;
import java.util.ArrayList;
import java.util.List;

/** Whether this machine can run the archive's binaries at all. */
public final class PlatformCheck {
    private PlatformCheck() {
    }

    public static List<Finding> check(Platform p, ArchiveName archive) {
        return check(p, archive, ArchiveAdvice.bundled(DriverInfo.NONE));
    }

    /** As {@link #check(Platform, ArchiveName)}; a wrong-platform fix names an archive {@code advice} finds in the catalogue. */
    public static List<Finding> check(Platform p, ArchiveName archive, ArchiveAdvice advice) {
        return check(p, archive, advice, null);
    }

    /**
     * As {@link #check(Platform, ArchiveName, ArchiveAdvice)}, the fix naming the archive for this platform and
     * {@code cudaMajor} (the toolkit's, when known: #31 item 7, so that it and the toolkit's CUDA-major fix name one
     * archive, never a Windows zip on Linux); {@code null}: the archive's own CUDA major.
     */
    public static List<Finding> check(Platform p, ArchiveName archive, ArchiveAdvice advice, Integer cudaMajor) {
        int major = cudaMajor != null ? cudaMajor : archive == null ? 0 : archive.cudaVariant().major();
        List<Finding> out = new ArrayList<>();
        if (p.jvmBits() == 32) {
            out.add(Finding.error(FindingId.JVM_32BIT, "this Java runtime is 32-bit; cuDNN is 64-bit only and cannot be loaded by it",
                    "run the tool with a 64-bit Java 17 or newer"));
        }
        if (p.wsl()) {
            out.add(Finding.info(FindingId.PLATFORM_WSL, "running inside WSL: Linux archives apply, and the driver comes from Windows"
                    + " through /usr/lib/wsl/lib"));
        }
        if (archive == null) {
            return out;
        }
        if (p.os() == OsFamily.MACOS) {
            out.add(Finding.error(FindingId.PLATFORM_MISMATCH, "cuDNN has no macOS build; " + archive.fileName()
                    + " cannot run here", "use a Linux or Windows machine with an NVIDIA GPU"));
            return out;
        }
        if (archive.os() == OsFamily.WINDOWS && p.os() != OsFamily.WINDOWS) {
            String where = p.wsl() ? "inside WSL2, which runs Linux binaries" : "on Linux";
            out.add(Finding.error(FindingId.PLATFORM_MISMATCH, archive.fileName() + " is the Windows build; this machine runs "
                            + where + " and cannot load its DLLs",
                    instead(advice, archive, right(p, archive), major)));
        } else if (archive.os() == OsFamily.LINUX && p.os() == OsFamily.WINDOWS) {
            out.add(Finding.error(FindingId.PLATFORM_MISMATCH, archive.fileName() + " is a Linux build; Windows cannot load it",
                    instead(advice, archive, right(p, archive), major) + " (or install inside WSL2)"));
        } else if (p.arch() != Arch.OTHER && !p.arch().runs(archive.arch())) {
            out.add(Finding.error(FindingId.PLATFORM_MISMATCH, archive.fileName() + " is built for " + archive.arch().label()
                            + " but this CPU is " + p.arch().label(),
                    instead(advice, archive, right(p, archive), major)));
        }
        return out;
    }

    /** The OS and CPU an archive must be built for to run here. */
    public record Target(OsFamily os, Arch arch) {
    }

    /**
     * The OS and CPU of the archive that runs on this machine: the archive's own when this machine runs
     * it, else Windows x86_64 on Windows, else Linux for this CPU (sbsa for a 64-bit ARM server). The one
     * answer every fix naming an archive uses, so no two fixes name builds for different platforms.
     */
    public static Target right(Platform p, ArchiveName archive) {
        if (p.os() == OsFamily.WINDOWS) {
            return archive != null && archive.os() == OsFamily.WINDOWS ? new Target(OsFamily.WINDOWS, archive.arch())
                    : new Target(OsFamily.WINDOWS, Arch.X86_64);
        }
        if (archive != null && archive.os() == OsFamily.LINUX && (p.arch() == Arch.OTHER || p.arch().runs(archive.arch()))) {
            return new Target(OsFamily.LINUX, archive.arch());
        }
        return new Target(OsFamily.LINUX, p.arch() == Arch.OTHER ? Arch.X86_64 : linuxArch(p.arch()));
    }

    /**
     * "download FILE from URL instead", FILE the archive's release for that platform and CUDA major when
     * catalogued, else the newest there.
     */
    private static String instead(ArchiveAdvice advice, ArchiveName archive, Target to, int cudaMajor) {
        String same = (to.os() == OsFamily.WINDOWS ? archive.windowsEquivalent() : archive.linuxEquivalent(to.arch()))
                .replaceAll("_cuda[0-9.]+-", "_cuda" + cudaMajor + "-");
        ArchiveAdvice.Pick pick = advice.sameOrNewest(same, to.os(), to.arch(), cudaMajor);
        return pick.entry().isPresent() ? "download " + pick.text() + " instead" : pick.text();
    }

    /** The archive arch NVIDIA publishes for a CPU: arm64 servers get sbsa (Jetson's aarch64 builds are separate). */
    private static Arch linuxArch(Arch cpu) {
        return cpu == Arch.AARCH64 ? Arch.SBSA : cpu;
    }
}
