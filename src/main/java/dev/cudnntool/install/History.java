package dev.cudnntool.install;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The installs recorded in &lt;target&gt;/.cudnn-tool/history, oldest first. */
public final class History {
    private History() {
    }

    public static Path dir(Path stateDir) {
        return stateDir.resolve("history");
    }

    public static List<InstallRecord> list(Path stateDir) throws IOException {
        Path h = dir(stateDir);
        List<InstallRecord> out = new ArrayList<>();
        if (!Files.isDirectory(h)) {
            return out;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(h)) {
            for (Path d : ds) {
                Path f = d.resolve("install.json");
                if (Files.isRegularFile(f)) {
                    out.add(JournalRunner.JSON.readValue(Files.readAllBytes(f), InstallRecord.class));
                }
            }
        }
        out.sort(Comparator.comparingInt((InstallRecord r) -> sequence(r.id())).thenComparing(InstallRecord::installedAt));
        return out;
    }

    /** Ids end in a per-target sequence number ("20261130T030000Z-0003"), so order never depends on clocks. */
    public static int sequence(String id) {
        int dash = id.lastIndexOf('-');
        try {
            return Integer.parseInt(id.substring(dash + 1));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return 0;
        }
    }

    public static int nextSequence(Path stateDir) throws IOException {
        int max = 0;
        for (InstallRecord r : list(stateDir)) {
            max = Math.max(max, sequence(r.id()));
        }
        return max + 1;
    }
}
