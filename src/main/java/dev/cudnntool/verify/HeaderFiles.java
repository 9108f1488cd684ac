package dev.cudnntool.verify;

import dev.cudnntool.BoundedFiles;
import dev.cudnntool.archive.HeaderVersion;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.InstalledCudnn;
import dev.cudnntool.host.RealPaths;
import dev.cudnntool.Finding;
import dev.cudnntool.Fix;
import dev.cudnntool.FindingId;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.diagnosis.HeaderLookup;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /**
     * #33 item 3: {@code cudnn.header-alternative}. NVIDIA's Debian dev packages make {@code include/cudnn_version.h} (and
     * {@code cudnn.h}) links through {@code /etc/alternatives} to {@code include/<multiarch>/cudnn_version_vN.h}; when the
     * alternative chosen leads to another version than the runtime {@code c} (another major, or the same major's other
     * release), a program compiled here builds against headers that do not match the library it loads. An error, unless
     * the header's major has its own runtime in the same folder (both installed; choosing it may be deliberate): a warning.
     * The fix is {@code update-alternatives --config} for the alternative named, never a reinstall.
     */
    static List<Finding> alternatives(Host host, Path includeDir, InstalledCudnn c) {
        if (includeDir == null || host.windows() || c == null) {
            return List.of();
        }
        CudnnVersion runtime = runtimeVersion(c);
        for (String h : List.of(CudnnComponents.versionHeader(c.major()), "cudnn.h")) {
            Path p = includeDir.resolve(h);
            if (!Files.isSymbolicLink(p) || !Files.exists(p)) {
                continue; // a plain file is no alternative; a dangling one is said by findings()
            }
            List<Path> chain = chain(p);
            Optional<Path> alternative = chain.stream().filter(HeaderFiles::inAlternatives).findFirst();
            if (alternative.isEmpty()) {
                continue;
            }
            Path real = real(p);
            Optional<CudnnVersion> version = h.equals("cudnn.h") ? Optional.empty() : readVersion(real);
            Integer major = version.map(CudnnVersion::major).orElseGet(() -> majorOfName(real.getFileName().toString()));
            if (major == null) {
                continue;
            }
            boolean otherMajor = major != c.major();
            boolean otherRelease = !otherMajor && version.isPresent() && runtime != null && !version.get().sameRelease(runtime);
            if (!otherMajor && !otherRelease) {
                continue;
            }
            String name = alternative.get().getFileName().toString();
            String leads = (version.isPresent() ? "cuDNN " + version.get() : "cuDNN " + major);
            String shown = String.join(" -> ", chain.stream().map(Path::toString).toList());
            boolean ownRuntime = otherMajor && c.otherMajors().contains(major);
            String message = p + " leads through the alternative " + name + " to the headers of " + leads + " (" + shown + "), but"
                    + " the runtime in " + c.runtimeDir() + " is cuDNN " + (runtime == null ? c.major() : runtime) + ": "
                    + (ownRuntime ? "programs compiled here build against cuDNN " + major + ", not the cuDNN " + c.major()
                    + " verify checked (fine if that is your choice)"
                    : "a program compiled here builds against headers that do not match the library it loads");
            Fix fix = Fix.text("sudo update-alternatives --config " + name + " and pick "
                    + HeaderLookup.candidates(host, includeDir, h, c.major()).stream().filter(x -> x.getFileName().toString()
                    .endsWith("_v" + c.major() + ".h") && Files.isRegularFile(x)).findFirst().map(Path::toString)
                    .orElse("the installed cuDNN " + c.major() + "'s header")
                    + " (sudo update-alternatives --display " + name + " lists the choices)");
            return List.of(ownRuntime ? Finding.warn(FindingId.CUDNN_HEADER_ALTERNATIVE, message, fix)
                    : Finding.error(FindingId.CUDNN_HEADER_ALTERNATIVE, message, fix));
        }
        return List.of();
    }

    /** A link of the chain that lives in a folder named {@code alternatives} (/etc/alternatives). */
    static boolean inAlternatives(Path c) {
        return c.getParent() != null && c.getParent().getFileName() != null
                && c.getParent().getFileName().toString().equals("alternatives");
    }

    /** The release the main library's file carries, else its header's. */
    private static CudnnVersion runtimeVersion(InstalledCudnn c) {
        String v = c.fileVersions().get(c.mainLibrary().getFileName().toString());
        if (v != null) {
            try {
                return CudnnVersion.parse(v);
            } catch (RuntimeException e) {
                // not a version: the header's below
            }
        }
        return c.headerVersion();
    }

    private static Optional<CudnnVersion> readVersion(Path header) {
        try {
            if (BoundedFiles.isRegularFile(header) && Files.isReadable(header)) {
                return HeaderVersion.parse(BoundedFiles.readString(header, BoundedFiles.TEXT, StandardCharsets.ISO_8859_1));
            }
        } catch (IOException | RuntimeException e) {
            // unreadable: said by findings() as cudnn.unreadable
        }
        return Optional.empty();
    }

    /** The major in a Debian header name: {@code cudnn_v8.h}, {@code cudnn_version_v9.h}. */
    private static Integer majorOfName(String name) {
        Matcher m = DEBIAN_NAME.matcher(name);
        return m.matches() ? Integer.valueOf(m.group(1)) : null;
    }

    private static final Pattern DEBIAN_NAME = Pattern.compile("cudnn[a-z_]*_v(\\d{1,3})\\.h");

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
