package dev.cudnntool.verify;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.InstalledCudnn;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.PeFile;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The files of one cuDNN install: complete, one release, links, readable, exports, Windows images. */
final class InstallFiles {
    private InstallFiles() {
    }

    /** Completeness, mixed releases, Windows image checks. */
    static List<Finding> findings(Host host, InstalledCudnn c) {
        List<Finding> findings = new ArrayList<>();
        files(host, c, findings);
        return findings;
    }

    static void files(Host host, InstalledCudnn c, List<Finding> findings) {
        Map<String, Path> dangling = FileChecks.danglingLinks(c);
        List<String> missing = c.missing().stream().filter(m -> !dangling.containsKey(m)).toList();
        if (!missing.isEmpty()) {
            findings.add(Finding.error(FindingId.CUDNN_INCOMPLETE, "cuDNN " + c.major() + " in " + c.runtimeDir() + " lacks "
                            + String.join(", ", missing),
                    Fix.reinstall("reinstall the complete archive with cudnn install (a manual copy often misses "
                            + (host.windows() ? "lib\\x64 or sub-libraries)" : "sub-libraries or their links)"))));
        }
        findings.addAll(FileChecks.dangling(host, c, dangling));
        findings.addAll(FileChecks.noSonameLinks(host, c));
        findings.addAll(LinkChecks.devLinks(host, c));
        findings.addAll(FileChecks.unreadable(host, c));
        findings.addAll(TwoMajors.findings(host, c));
        if (c.headerFile() != null) {
            findings.addAll(FileChecks.exportsAgainstHeaders(host, c, host.path(c.headerFile()).getParent()));
        }
        Set<String> releases = new HashSet<>();
        for (String v : c.fileVersions().values()) {
            releases.add(release(v));
        }
        if (releases.size() > 1) {
            findings.add(Finding.error(FindingId.CUDNN_MIXED_VERSIONS, "library files from different cuDNN releases side by side in "
                            + c.runtimeDir() + ": " + c.fileVersions(),
                    Fix.reinstall("reinstall one complete archive with cudnn install; it moves every old cuDNN " + c.major() + " file out")));
        }
        if (!c.otherMajors().isEmpty()) {
            findings.add(Finding.info(FindingId.CUDNN_OTHER_MAJOR, "cuDNN " + c.otherMajors() + " also present in " + c.runtimeDir()
                    + " (for programs built against it); checked cuDNN " + c.major()));
        }
        if (host.windows()) {
            peChecks(host, c, findings);
        }
    }

    private static void peChecks(Host host, InstalledCudnn c, List<Finding> findings) {
        List<Path> images = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(c.runtimeDir(), "*.{dll,DLL}")) {
            for (Path p : ds) {
                String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                if (n.startsWith("cudnn") || n.equals("zlibwapi.dll")) {
                    images.add(p);
                }
            }
        } catch (IOException ignored) {
            return;
        }
        images.sort(null);
        for (Path p : images) {
            try {
                PeFile.Info info = PeFile.read(p);
                if (!info.x64() && !(info.machine() == PeFile.MACHINE_ARM64 && FileChecks.libraries(c).contains(p))) {
                    findings.add(Finding.error(FindingId.CUDNN_DLL_ARCH, p + " is a " + info.machineName()
                            + " image; cuDNN needs x64 DLLs throughout", "replace it with the x64 build"));
                }
            } catch (IOException e) {
                findings.add(Finding.error(FindingId.CUDNN_DLL_ARCH, p + " is not a valid Windows DLL: " + e.getMessage(),
                        Fix.reinstall("reinstall it with cudnn install")));
            }
        }
        String fv = c.fileVersions().get(c.mainLibrary().getFileName().toString());
        if (fv != null && c.headerVersion() != null) {
            if (CudnnVersion.parse(fv).sameRelease(c.headerVersion())) {
                findings.add(Finding.info(FindingId.CUDNN_FILE_VERSION, c.mainLibrary().getFileName() + " FileVersion " + fv
                        + " agrees with the header (" + c.headerVersion() + ")"));
            } else {
                findings.add(Finding.error(FindingId.CUDNN_FILE_VERSION, c.mainLibrary().getFileName() + " has FileVersion " + fv
                                + " but the header says " + c.headerVersion(),
                        Fix.reinstall("headers and DLLs come from different releases: reinstall one archive with cudnn install")));
            }
        }
    }

    private static String release(String version) {
        String[] p = version.split("\\.");
        return p.length >= 3 ? p[0] + "." + p[1] + "." + p[2] : version;
    }
}
