package dev.cudnntool.install;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Hex;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveItem;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.CudnnFiles;
import dev.cudnntool.archive.EntryRole;
import dev.cudnntool.archive.EntrySafety;
import dev.cudnntool.archive.format.EntryType;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.target.InstallTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Decides where each archive file goes and what happens to what is already there (the placement
 * rules of the install issue). Pure with respect to the target: it only reads.
 */
public final class Placement {
    private Placement() {
    }

    /** The destination of one archive file, or empty when it is not installed (licence, folders). */
    public static Optional<Path> destination(InstallTarget t, ArchiveName n, ArchiveItem item) {
        if (item.type() == EntryType.DIRECTORY || item.role() == EntryRole.OTHER) {
            return Optional.empty(); // folders are never installed; foreign files refuse the archive
        }
        Optional<Path> dest = t.layout().destination(n, item.role(), item.relPath());
        if (dest.isPresent() && t.kind() == InstallTarget.Kind.PREFIX && item.role() == EntryRole.LICENSE
                && PrefixLicence.someoneElses(dest.get())) {
            return Optional.empty(); // kept in the install record; the folder's own licence stays
        }
        return dest;
    }

    /**
     * Whether a file in a target may be touched by the tool at all (installed over, moved aside,
     * removed): only cuDNN's own files are (see {@link CudnnFiles#isCudnnFile}); a toolkit file such
     * as {@code cuda.h} or {@code libcudart.so.12} never is. The single predicate for plan code.
     */
    public static boolean isCudnnFile(Path file) {
        Path name = file.getFileName();
        return name != null && CudnnFiles.isCudnnFile(name.toString());
    }

    public static InstallPlan plan(InstallTarget t, ArchiveReport report) {
        ArchiveName n = report.name();
        List<PlanStep> steps = new ArrayList<>();
        Map<String, PlanStep> byDest = new TreeMap<>();
        Set<Path> dirs = new LinkedHashSet<>();
        for (ArchiveItem item : report.entries()) {
            Optional<Path> dest = destination(t, n, item);
            if (dest.isEmpty()) {
                continue;
            }
            String key = dest.get().toString().toLowerCase(Locale.ROOT);
            if (byDest.containsKey(key)) {
                throw new ToolException(ExitCode.ARCHIVE_REJECTED, "archive " + n.fileName() + " has two files for "
                        + dest.get() + " (" + byDest.get(key).source() + " and " + item.relPath() + ")",
                        "use the archive exactly as NVIDIA published it");
            }
            checkDestination(t, n, item, dest.get());
            if (Files.isDirectory(dest.get(), LinkOption.NOFOLLOW_LINKS)) {
                throw new ToolException(ExitCode.TARGET_NOT_WRITABLE, "cannot install " + item.relPath() + ": "
                        + dest.get() + " is a folder where that cuDNN file belongs; nothing was changed",
                        "move the folder " + dest.get() + " somewhere else (it is not cuDNN's), then install again");
            }
            PlanStep.Action action = actionFor(dest.get(), item);
            PlanStep step = new PlanStep(item.relPath(), dest.get().toString(), action, item, dest.get());
            byDest.put(key, step);
            steps.add(step);
            if (item.role() != EntryRole.LICENSE) {
                dirs.add(dest.get().getParent());
            }
        }
        checkLinksLand(n, steps, byDest);
        List<Finding> findings = new ArrayList<>();
        Set<String> otherMajors = new TreeSet<>();
        for (Path dir : dirs) {
            for (Path existing : list(dir)) {
                String key = existing.toString().toLowerCase(Locale.ROOT);
                if (byDest.containsKey(key)) {
                    continue;
                }
                String name = existing.getFileName().toString();
                if (!isCudnnFile(existing)) {
                    continue; // the toolkit's own files are never moved, replaced or removed
                }
                Optional<Integer> owned = ownedMajor(name);
                if (owned.isEmpty()) {
                    continue;
                }
                int major = owned.get();
                if (major >= 0 && major != n.major()) {
                    otherMajors.add(name);
                    continue;
                }
                steps.add(new PlanStep(null, existing.toString(), PlanStep.Action.REMOVE, null, existing));
            }
        }
        if (!otherMajors.isEmpty()) {
            findings.add(Finding.info(FindingId.INSTALL_OTHER_MAJOR_KEPT, "cuDNN files of another major stay where they are, for"
                    + " programs built against them: " + String.join(", ", otherMajors)));
        }
        return new InstallPlan(t, steps, findings);
    }

    /**
     * Whether a file in a destination folder belongs to cuDNN, and to which major: -1 for files
     * without one (headers, libcudnn.so, cudnn.lib), which always belong to the release installed.
     */
    static Optional<Integer> ownedMajor(String fileName) {
        if (CudnnFiles.isHeader(fileName) && fileName.toLowerCase(Locale.ROOT).startsWith("cudnn_frontend")) {
            return Optional.empty(); // NVIDIA's header-only cudnn-frontend, often put beside cuDNN: not cuDNN's, never stale
        }
        return CudnnFiles.ownedMajor(fileName);
    }

    /**
     * A destination is one of cuDNN's file names (the licence only in a --prefix folder) and a
     * path the target's file system can hold; anything else means the archive is not NVIDIA's.
     */
    private static void checkDestination(InstallTarget t, ArchiveName n, ArchiveItem item, Path dest) {
        boolean licenceInPrefix = item.role() == EntryRole.LICENSE && t.kind() == InstallTarget.Kind.PREFIX;
        if (!licenceInPrefix && !isCudnnFile(dest)) {
            throw refused(n, item, "it would be installed as " + dest + ", which is not one of cuDNN's files");
        }
        int bytes = EntrySafety.utf8Length(dest.toString());
        if (bytes >= EntrySafety.MAX_PATH_BYTES) {
            throw refused(n, item, "installed it would be a path of " + bytes + " bytes, more than the file system holds");
        }
    }

    /**
     * Links are judged where they land: resolved against its installed location (after lib/**
     * was flattened into lib64), a link must name a file of this same install in the same folder,
     * directly or through more such links. The archive reader checked this in the archive's
     * folders; this checks it again in the target's, which is what the loader will follow.
     */
    private static void checkLinksLand(ArchiveName n, List<PlanStep> steps, Map<String, PlanStep> byDest) {
        for (PlanStep s : steps) {
            if (s.item() == null || s.item().type() != EntryType.SYMLINK) {
                continue;
            }
            Set<String> seen = new HashSet<>();
            PlanStep at = s;
            while (at.item().type() == EntryType.SYMLINK) {
                Path folder = at.target().getParent();
                Path lands = folder.resolve(at.item().linkTarget()).normalize();
                String key = lands.toString().toLowerCase(Locale.ROOT);
                PlanStep next = byDest.get(key);
                if (!folder.equals(lands.getParent()) || next == null) {
                    throw refused(n, s.item(), "installed as " + s.target() + " it would point at " + lands
                            + ", which is not a file of this install in the same folder");
                }
                if (!seen.add(key)) {
                    throw refused(n, s.item(), "its chain of links loops once installed");
                }
                at = next;
            }
        }
    }

    private static ToolException refused(ArchiveName n, ArchiveItem item, String why) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED, "archive " + n.fileName() + ": entry '"
                + Text.printable(item.relPath()) + "' is refused: " + why + "; nothing was installed",
                "use the archive exactly as downloaded from NVIDIA's cuDNN archive page");
    }

    private static PlanStep.Action actionFor(Path dest, ArchiveItem item) {
        if (!Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
            return PlanStep.Action.ADD;
        }
        try {
            if (item.type() == EntryType.SYMLINK) {
                return Files.isSymbolicLink(dest) && Files.readSymbolicLink(dest).toString().equals(item.linkTarget())
                        ? PlanStep.Action.SAME : PlanStep.Action.REPLACE;
            }
            if (Files.isRegularFile(dest, LinkOption.NOFOLLOW_LINKS) && Files.size(dest) == item.size()
                    && sha256(dest).equals(item.sha256())) {
                return PlanStep.Action.SAME;
            }
        } catch (IOException e) {
            return PlanStep.Action.REPLACE;
        }
        return PlanStep.Action.REPLACE;
    }

    private static List<Path> list(Path dir) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.add(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.sort(null);
        return out;
    }

    public static String sha256(Path file) throws IOException {
        return Hex.sha256(file);
    }
}
