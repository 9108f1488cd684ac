package dev.cudnntool.host.owner;

import dev.cudnntool.BoundedFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The dpkg packages of a Linux NVIDIA driver ({@code libnvidia-compute-*}, {@code nvidia-driver-*}, {@code nvidia-utils-*})
 * whose {@code /var/lib/dpkg/info/<package>[:<arch>].list} names one of the given files. Read-only and bounded as
 * {@link DpkgRecords} is: at most {@value #MAX_LISTS} lists of {@link BoundedFiles#TEXT} each; an unreadable list names nothing.
 */
public final class DriverPackages {
    static final int MAX_LISTS = 64;
    private static final String GLOB = "{libnvidia-compute-*,nvidia-driver-*,nvidia-utils-*}.list";

    private DriverPackages() {
    }

    /** The driver packages (names as dpkg spells them, without the architecture) listing any of {@code files}. */
    public static List<String> owning(Path dpkgRoot, List<String> files) {
        Set<String> out = new LinkedHashSet<>();
        List<Path> lists = new ArrayList<>(PackageNames.records(dpkgRoot.resolve("info"), GLOB, MAX_LISTS)); // bounded, as dpkg's cuDNN lists
        lists.sort(null);
        for (Path list : lists) {
            String file = list.getFileName().toString();
            String pkg = PackageNames.name(file.substring(0, file.length() - ".list".length()).replaceFirst(":[a-z0-9]+$", ""));
            if (pkg == null) {
                continue;
            }
            boolean[] named = {false};
            try {
                if (!BoundedFiles.isRegularFile(list)) {
                    continue;
                }
                BoundedFiles.forEachLine(list, BoundedFiles.TEXT, line -> {
                    named[0] |= files.contains(line.strip());
                    return !named[0]; // one named file is enough
                });
            } catch (IOException | RuntimeException e) {
                continue; // unreadable or not text: names nothing
            }
            if (named[0]) {
                out.add(pkg);
            }
        }
        return List.copyOf(out);
    }
}
