package dev.cudnntool.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cudnntool.OsFamily;
import dev.cudnntool.target.InstallRecord;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.StateReader;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The tool's own state, never trusted: an install record ({@code history/<id>/install.json}) and the
 * journal with its progress log, read as {@code cudnn rollback}, {@code --list}, {@code --repair} and
 * {@code cudnn install} read them. A damaged record is {@link dev.cudnntool.target.DamagedState} (exit 8).
 */
class StateFuzzTest {
    static final String ID = "20261130T030000Z-0003-1a2b3c4d";

    static Path target(FileSystem fs) throws IOException {
        Path root = fs.getPath("/opt/cudnn");
        Files.createDirectories(root.resolve("include"));
        Files.createDirectories(root.resolve("lib"));
        Files.writeString(root.resolve("include/cudnn.h"), "/* cudnn */\n");
        Files.writeString(root.resolve("lib/libcudnn.so.9"), "\u007fELF");
        Files.createDirectories(root.resolve(".cudnn-tool/history/" + ID + "/backup"));
        return root;
    }

    @FuzzTest
    void installRecord(byte[] data) throws IOException {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path root = target(fs);
            Files.write(root.resolve(".cudnn-tool/history/" + ID + "/install.json"), data);
            StateReader reader = new StateReader(InstallTarget.prefix(root, OsFamily.LINUX));
            Contract.holds(data.length, reader::scan);
            if (Contract.holds(data.length, reader::records) instanceof List<?> records) {
                for (Object o : records) {
                    accepted(root, (InstallRecord) o);
                }
            }
        }
    }

    /**
     * A record the reader accepts names only the target's files (never the tool's own folder) and keeps its
     * backups in its own history folder: a rollback acting on it stays inside the target.
     */
    static void accepted(Path root, InstallRecord r) {
        Path state = root.resolve(".cudnn-tool");
        for (InstallRecord.InstalledFile f : r.installed()) {
            Path p = root.resolve(f.path()).normalize();
            assertTrue(p.startsWith(root) && !p.equals(root) && !p.startsWith(state), () -> "accepted installed path " + f.path());
        }
        Path backups = state.resolve("history/" + ID + "/backup");
        for (InstallRecord.BackedUpFile b : r.backedUp()) {
            Path original = root.resolve(b.original()).normalize();
            Path backup = root.resolve(b.backup()).normalize();
            assertTrue(original.startsWith(root) && !original.startsWith(state) && backup.startsWith(backups),
                    () -> "accepted backup " + b.original() + " -> " + b.backup());
        }
    }

    @FuzzTest
    void journal(FuzzedDataProvider data) throws IOException {
        String log = data.consumeString(2048);
        byte[] journal = data.consumeRemainingAsBytes();
        try (FileSystem fs = TestHosts.unixFs()) {
            Path root = target(fs);
            Files.write(root.resolve(".cudnn-tool/journal.json"), journal);
            FuzzFiles.writeText(root.resolve(".cudnn-tool/journal.log"), log, StandardCharsets.ISO_8859_1);
            StateReader reader = new StateReader(InstallTarget.prefix(root, OsFamily.LINUX));
            Contract.holds(journal.length + log.length(), reader::journal);
        }
    }
}
