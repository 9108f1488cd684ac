package dev.cudnntool.archive;

import dev.cudnntool.Text;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.archive.format.EntryType;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.archive.name.LibraryName;
import dev.cudnntool.archive.name.NamingScheme;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The findings that need the whole archive: top folder, files that are not cuDNN's, version
 * evidence against the name, completeness and the checksum.
 */
final class ArchiveFindings {
    private static final int FOREIGN_NAMED = 10;

    private ArchiveFindings() {
    }

    static ArchiveReport report(EntryWalk walk, String sha256, long fileSize, ChecksumExpectation expected) {
        ArchiveName name = walk.name;
        List<Finding> findings = new ArrayList<>(name.warnings());
        String expectedTop = name.expectedTopFolder();
        if (!walk.top.equals(expectedTop)) {
            findings.add(Finding.warn(FindingId.ARCHIVE_TOP_FOLDER,
                    "the archive's top folder is '" + Text.printable(walk.top) + "', NVIDIA's "
                            + name.canonicalName() + " has '" + expectedTop + "'",
                    "make sure this is the archive NVIDIA published and was not repacked"));
        }
        CudnnVersion headerVersion = walk.headerVersion;
        String headerFile = walk.headerFile;
        if (headerVersion == null) {
            headerVersion = walk.fallbackHeaderVersion;
            headerFile = walk.fallbackHeaderFile;
        }
        List<Evidence.LibraryEvidence> libs = new ArrayList<>();
        Set<String> present = new HashSet<>();
        List<String> foreign = new ArrayList<>();
        for (ArchiveItem item : walk.items) {
            if (item.type() == EntryType.DIRECTORY) {
                continue;
            }
            if (item.role() == EntryRole.OTHER) {
                foreign.add(item.relPath());
                continue;
            }
            present.add(item.role() + ":" + item.fileName().toLowerCase(Locale.ROOT));
            if (item.role() == EntryRole.RUNTIME_LIBRARY) {
                LibraryName.parse(item.fileName()).ifPresent(l ->
                        libs.add(new Evidence.LibraryEvidence(item.relPath(), l.base(), l.major(), l.version())));
            }
        }
        foreignFindings(name, foreign, findings);
        Evidence evidence = new Evidence(headerVersion, headerFile, libs);
        versionFindings(name, evidence, findings);
        completenessFindings(name, headerVersion, present, findings);
        findings.addAll(walk.extraFindings);
        checksumFindings(name, sha256, fileSize, expected, findings);
        return new ArchiveReport(ArchiveInfo.of(name, sha256, fileSize), walk.top, walk.items, evidence, findings, name);
    }

    /**
     * Only cuDNN's own files are ever installed (facts §4a): anything else in the archive (another
     * library, a toolkit header such as cuda.h, a second cudnn_version.h below include/) refuses it.
     */
    private static void foreignFindings(ArchiveName name, List<String> foreign, List<Finding> findings) {
        if (foreign.isEmpty()) {
            return;
        }
        List<String> shown = new ArrayList<>();
        for (String rel : foreign.subList(0, Math.min(FOREIGN_NAMED, foreign.size()))) {
            String file = rel.substring(rel.lastIndexOf('/') + 1);
            boolean versionHeader = file.equalsIgnoreCase("cudnn_version.h") || file.equalsIgnoreCase("cudnn.h");
            shown.add("'" + Text.printable(rel) + "'"
                    + (versionHeader ? " (a second version header: only include/" + file + " counts)" : ""));
        }
        findings.add(Finding.error(FindingId.ARCHIVE_FOREIGN_FILE,
                "archive " + name.fileName() + " holds " + foreign.size() + " file(s) that are not cuDNN's or not where"
                        + " NVIDIA puts them: " + String.join(", ", shown)
                        + (foreign.size() > FOREIGN_NAMED ? " and " + (foreign.size() - FOREIGN_NAMED) + " more" : "")
                        + "; cuDNN archives hold only include/cudnn*.h, libcudnn*, cudnn*.dll, cudnn*.lib and the licence;"
                        + " nothing was installed",
                "use the archive exactly as downloaded from NVIDIA's cuDNN archive page; do not add files to it"));
    }

    private static void versionFindings(ArchiveName name, Evidence evidence, List<Finding> findings) {
        CudnnVersion named = name.version();
        Set<String> wrong = new LinkedHashSet<>();
        if (evidence.headerVersion() != null && !evidence.headerVersion().sameRelease(named)) {
            wrong.add(evidence.headerFile() + " says " + evidence.headerVersion());
        }
        for (Evidence.LibraryEvidence l : evidence.libraries()) {
            if (l.version() != null && !l.version().sameRelease(named)) {
                wrong.add(l.file() + " is " + l.version());
            } else if (l.major() != null && l.major() != named.major()) {
                wrong.add(l.file() + " is cuDNN " + l.major());
            }
        }
        if (!wrong.isEmpty()) {
            findings.add(Finding.error(FindingId.ARCHIVE_VERSION_MISMATCH,
                    "the name says cuDNN " + named + " but " + String.join(", ", wrong),
                    "the file was renamed or repacked: download " + name.canonicalName() + " again from NVIDIA"));
        }
    }

    private static void completenessFindings(ArchiveName name, CudnnVersion headerVersion, Set<String> present,
                                             List<Finding> findings) {
        int major = name.major();
        Set<String> missing = new TreeSet<>();
        for (String base : CudnnComponents.libraries(major)) {
            String file = name.os() == OsFamily.WINDOWS ? CudnnComponents.windowsDll(base, major)
                    : CudnnComponents.linuxSoname(base, major);
            if (!present.contains(EntryRole.RUNTIME_LIBRARY + ":" + file.toLowerCase(Locale.ROOT))) {
                missing.add(file);
            }
            if (name.os() == OsFamily.WINDOWS && name.scheme() != NamingScheme.WHEEL // a wheel is for running, not linking
                    && !present.contains(EntryRole.IMPORT_LIBRARY + ":" + base + ".lib")) {
                missing.add(base + ".lib");
            }
        }
        for (String header : CudnnComponents.headers(major)) {
            if (!present.contains(EntryRole.HEADER + ":" + header)) {
                missing.add(header);
            }
        }
        if (headerVersion == null && !missing.contains(CudnnComponents.versionHeader(major))) {
            missing.add(CudnnComponents.versionHeader(major) + " (no CUDNN_MAJOR/MINOR/PATCHLEVEL)");
        }
        if (!missing.isEmpty()) {
            findings.add(Finding.error(FindingId.ARCHIVE_INCOMPLETE,
                    "archive " + name.fileName() + " lacks " + missing.size() + " file(s) of cuDNN " + major + ": "
                            + String.join(", ", missing),
                    "download the complete archive " + name.canonicalName() + " again " + Catalogue.downloadFrom(name.canonicalName())));
        }
    }

    private static void checksumFindings(ArchiveName name, String sha256, long fileSize, ChecksumExpectation expected,
                                         List<Finding> findings) {
        if (expected == null) {
            findings.add(Finding.info(FindingId.ARCHIVE_SHA256, "sha256 " + sha256
                    + " (not compared: pass --sha256 or --manifest redistrib_<version>.json to check it)"));
            return;
        }
        if (expected.origin() != ChecksumExpectation.Origin.USER) {
            findings.addAll(expected.catalogueFindings(name, sha256, fileSize));
            return;
        }
        if (!expected.sha256().equals(sha256) || expected.size() != null && expected.size() != fileSize) {
            findings.add(Finding.error(FindingId.ARCHIVE_CHECKSUM_MISMATCH,
                    "sha256 of " + name.fileName() + " is " + sha256 + " (" + fileSize + " bytes) but "
                            + expected.source() + " expects " + expected.sha256()
                            + (expected.size() == null ? "" : " (" + expected.size() + " bytes)"),
                    "the download is damaged or not NVIDIA's: download " + name.canonicalName() + " again "
                            + Catalogue.downloadFrom(name.canonicalName())));
        } else {
            findings.add(Finding.info(FindingId.ARCHIVE_CHECKSUM_OK, "sha256 " + sha256 + " matches " + expected.source()));
        }
    }
}
