package dev.cudnntool.verify;

import dev.cudnntool.host.RealPaths;
import dev.cudnntool.Finding;
import dev.cudnntool.Fix;
import dev.cudnntool.FindingId;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.diagnosis.HeaderLookup;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * cuDNN's headers where they really are: the include folder of an archive or toolkit, and NVIDIA's
 * Debian layout, where the packages put {@code cudnn_version_v9.h} into
 * {@code /usr/include/<multiarch>} and {@code /usr/include/cudnn_version.h} is a link through
 * {@code /etc/alternatives}. A header that is there but unreadable, or a link (through the
 * alternatives or not) to a file that is gone, is said as such, not as "lacks".
 */
final class HeaderFiles {
    private HeaderFiles() {
    }

    static List<Path> candidates(Host host, Path includeDir, String header, int major) {
        return HeaderLookup.candidates(host, includeDir, header, major);
    }

    static Optional<Path> find(Host host, Path includeDir, String header, int major) {
        return HeaderLookup.find(host, includeDir, header, major);
    }

    static boolean dangling(Path p) {
        return HeaderLookup.dangling(p);
    }

    /**
     * {@code cudnn.unreadable} (warn) for a version header the user cannot read, and
     * {@code cudnn.dangling-link} for a header that is a dangling link, the /etc/alternatives step named.
     */
    static List<Finding> findings(Host host, Path includeDir, int major) {
        List<Finding> out = new ArrayList<>();
        if (includeDir == null || host.windows() && major == 0) {
            return out;
        }
        Optional<Path> version = find(host, includeDir, CudnnComponents.versionHeader(major), major);
        Path real = version.map(HeaderFiles::real).orElse(null);
        if (version.isPresent() && !(Files.isReadable(version.get()) && Files.isReadable(real))) {
            String user = host.env(host.windows() ? "USERNAME" : "USER");
            out.add(Finding.warn(FindingId.CUDNN_UNREADABLE, version.get() + (real.equals(version.get()) ? "" : " (" + real + ")")
                            + " cannot be read by the user " + (user == null ? "running this" : user) + " (permission denied):"
                            + " programs cannot be compiled against cuDNN here, and its version cannot be checked against the library",
                    host.windows() ? "give Users read permission on " + real : "sudo chmod a+r " + real));
        }
        for (String h : CudnnComponents.headers(major)) {
            Path p = includeDir.resolve(h);
            if (!dangling(p)) {
                continue; // a dangling standard name breaks #include <...> even when Debian's _vN file is there
            }
            List<Path> chain = chain(p);
            Optional<Path> alternative = chain.stream().filter(c -> c.getParent() != null
                    && c.getParent().getFileName() != null && c.getParent().getFileName().toString().equals("alternatives")).findFirst();
            String shown = String.join(" -> ", chain.stream().map(Path::toString).toList());
            out.add(Finding.error(FindingId.CUDNN_DANGLING_LINK, p + " is a link to a file that does not exist (" + shown + ")"
                            + alternative.map(a -> ": the alternative " + a.getFileName() + " still points at a cuDNN that was removed")
                            .orElse(""),
                    alternative.map(a -> Fix.text("sudo update-alternatives --display " + a.getFileName() + " lists the choices; pick the"
                            + " installed cuDNN's with sudo update-alternatives --config " + a.getFileName() + " (or --auto), or"
                            + " reinstall its -dev package (sudo apt-get install --reinstall libcudnn" + major + "-dev-cuda-<CUDA major>)"))
                            .orElse(Fix.reinstall("point it at the header that is there (ln -sf), or reinstall the complete archive"
                                    + " with cudnn install"))));
            break; // one dangling header says it; the others are links of the same alternative group
        }
        return out;
    }

    private static Path real(Path p) {
        return Files.exists(p) ? RealPaths.real(p) : p; // a dangling link names itself
    }

    /** The link chain from {@code p}, at most LinkChecks.MAX_HOPS links. */
    static List<Path> chain(Path p) {
        List<Path> out = new ArrayList<>();
        Path at = p;
        for (int i = 0; i <= LinkChecks.MAX_HOPS && at != null; i++) {
            out.add(at);
            if (!Files.isSymbolicLink(at) || i == LinkChecks.MAX_HOPS) {
                break;
            }
            try {
                Path t = Files.readSymbolicLink(at);
                Path next = (at.getParent() == null ? t : at.getParent().resolve(t)).normalize();
                if (out.contains(next)) {
                    out.add(next);
                    break;
                }
                at = next;
            } catch (IOException | RuntimeException e) {
                break;
            }
        }
        return out;
    }
}
