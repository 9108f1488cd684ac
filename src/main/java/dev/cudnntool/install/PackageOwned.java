package dev.cudnntool.install;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.owner.Owner;
import dev.cudnntool.host.owner.Owners;
import dev.cudnntool.target.InstallTarget;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code install.package-owned} (#19 item 19): cuDNN files already in the target's library, runtime
 * and header folders that a package manager answers for. Replacing them leaves dpkg, rpm, pip or conda
 * believing in files that are no longer theirs, and its next upgrade overwrites the install: an error
 * that {@code --force} turns into a warning. At most {@value #MAX_FILES} files are looked at.
 */
final class PackageOwned {
    static final int MAX_FILES = 200;

    private PackageOwned() {
    }

    static List<Finding> check(Host host, InstallTarget target, ArchiveName archive) {
        List<Path> dirs = target.layout().destinationDirs(archive);
        Owners owners = new Owners(host);
        Map<Owner, List<String>> owned = new LinkedHashMap<>();
        int seen = 0;
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "{libcudnn*,cudnn*,CUDNN*}")) {
                for (Path f : ds) {
                    if (seen++ >= MAX_FILES) {
                        break;
                    }
                    if (!Files.isRegularFile(f) && !Files.isSymbolicLink(f)) {
                        continue;
                    }
                    Owner o = owners.of(f);
                    if (o.packageManager()) {
                        owned.computeIfAbsent(new Owner(o.kind(), o.name(), o.version(), o.env()), k -> new ArrayList<>())
                                .add(f.toString());
                    }
                }
            } catch (IOException | RuntimeException unreadable) {
                // an unreadable folder is reported by the target checks
            }
        }
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<Owner, List<String>> e : owned.entrySet()) {
            Owner o = e.getKey();
            List<String> files = e.getValue();
            out.add(Finding.error(FindingId.INSTALL_PACKAGE_OWNED, files.size() + " cuDNN file(s) the install would replace belong to "
                    + o.describe() + ": " + String.join(", ", files.subList(0, Math.min(3, files.size())))
                    + (files.size() > 3 ? ", …" : ""),
                    "remove the package first (" + o.removeCommand() + "), install into a folder of its own with --prefix DIR,"
                            + " or pass --force to replace its files anyway (" + o.kind().label()
                            + " will then disagree with what is on disk)"));
        }
        return out;
    }
}
