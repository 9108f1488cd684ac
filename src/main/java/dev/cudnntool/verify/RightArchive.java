package dev.cudnntool.verify;
import dev.cudnntool.Arch;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.host.ArchiveAdvice;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.Host;
import java.util.List;
import java.util.Set;

/** The NVIDIA archive of a cuDNN release built for this machine (named in cudnn.wrong-arch). */
final class RightArchive {
    private RightArchive() {
    }

    /** The archive label NVIDIA uses for this machine's CPU: 64-bit ARM servers take sbsa (Jetson boards: aarch64). */
    static String archLabel(Host host) {
        if (host.windows()) {
            return host.arch() == Arch.AARCH64 || host.arch() == Arch.SBSA ? "arm64" : "x86_64";
        }
        return host.arch() == Arch.AARCH64 ? "sbsa" : host.arch().label();
    }

    /**
     * @param release   "9.5.1" (or longer), or null when unknown
     * @param cudaMajor the CUDA major of the toolkit, or null
     * @return NVIDIA's file name from the catalogue: that release's build, else the newest catalogued build for this
     *         machine and CUDA major; a pattern only when the catalogue has neither
     */
    static String name(Host host, String release, Integer cudaMajor) {
        String os = host.windows() ? "windows" : "linux";
        String arch = archLabel(host);
        if (release != null) {
            String[] p = release.split("\\.");
            String prefix = p.length >= 3 ? p[0] + "." + p[1] + "." + p[2] : release;
            try {
                List<CatalogueEntry> fits = Catalogue.bundled().select(os, Set.of(arch), cudaMajor, null).stream()
                        .filter(e -> e.version().equals(prefix) || e.version().startsWith(prefix + ".")).toList();
                if (!fits.isEmpty()) {
                    return fits.get(0).fileName();
                }
            } catch (RuntimeException ignored) {
                // no catalogue: the pattern below
            }
        }
        if (cudaMajor != null) {
            // that release has no build for this machine and CUDA major (9.5.1 has no CUDA 13 build): never an invented
            // name, the newest catalogued build that exists instead (facts: CUDA 13 builds start at 9.12)
            try {
                var pick = ArchiveAdvice.bundled(DriverInfo.NONE)
                        .newest(host.os(), arch.equals("sbsa") ? Arch.SBSA : arch.equals("arm64") ? Arch.AARCH64 : host.arch(), cudaMajor);
                if (pick.entry().isPresent()) {
                    return pick.entry().get().fileName();
                }
            } catch (RuntimeException ignored) {
                // no catalogue: the pattern below
            }
        }
        return "cudnn-" + os + "-" + arch + "-" + (release == null ? "<version>" : release) + "_cuda"
                + (cudaMajor == null ? "<CUDA major>" : cudaMajor) + "-archive." + (host.windows() ? "zip" : "tar.xz");
    }
}
