package dev.cudnntool.target;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.install.StateScene;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9 A1: install records and journals are input, not truth. Every path read from the state
 * must lie inside the target after following links, and be of the kind the record says.
 */
class StatePathsTest {
    @TempDir
    Path downloads;

    @Test
    void pathsAreStoredRelativeToTheTargetSoAbsolutePathsCannotBeExpressed() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            String text = Files.readString(s.record(s.second));
            assertFalse(Pattern.compile("\"(path|original|backup|license)\" : \"/").matcher(text).find(),
                    "no absolute path in the record: " + text);
            assertTrue(text.contains("\"include/cudnn.h\""), text);
            assertTrue(text.contains("\".cudnn-tool/history/" + s.second.record().id() + "/backup/"), text);
        }
        try (FileSystem fs = TestHosts.windowsFs()) {
            StatePaths sp = new StatePaths(fs.getPath("C:\\CUDA\\v12.2"));
            assertEquals("bin/cudnn64_9.dll", sp.store(fs.getPath("C:\\CUDA\\v12.2\\bin\\cudnn64_9.dll")));
            assertEquals(fs.getPath("C:\\CUDA\\v12.2\\bin\\cudnn64_9.dll"), sp.resolve("bin/cudnn64_9.dll"));
            assertEquals(".", sp.store(fs.getPath("C:\\CUDA\\v12.2")));
            assertEquals("..", sp.store(fs.getPath("C:\\CUDA")));
            assertThrows(IllegalStateException.class, () -> sp.resolve("bin\\..\\..\\x"));
            Path f = fs.getPath("C:\\CUDA\\v12.2\\.cudnn-tool\\journal.json");
            assertThrows(DamagedState.class, () -> sp.confined("C:/Windows/System32/x.dll", f, "path", StatePaths.Area.TARGET, null, "r"));
            assertThrows(DamagedState.class, () -> sp.confined("D:bin/x.dll", f, "path", StatePaths.Area.TARGET, null, "r"));
            assertEquals(fs.getPath("C:\\CUDA\\v12.2\\bin\\x.dll"),
                    sp.confined("C:\\CUDA\\v12.2\\bin\\x.dll", f, "path", StatePaths.Area.TARGET, null, "r"));
        }
    }

    private void refusedAfter(Consumer<StateScene> tamper, String... mentions) throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            tamper.accept(s);
            DamagedState e = s.refuses(s::rollback);
            assertTrue(e.getMessage().contains(s.record(s.second).toString()) || e.getMessage().contains("journal.json"),
                    "names the record: " + e.getMessage());
            for (String m : mentions) {
                assertTrue(e.getMessage().contains(m), m + " in: " + e.getMessage());
            }
            assertTrue(e.fix().contains("cudnn rollback --repair"), e.fix());
            assertEquals(ExitCode.NOTHING_TO_ROLL_BACK, e.exitCode());
            // the same record also stops an install (before it reads the archive), and --id on any record
            s.refuses(() -> {
                try {
                    return s.installAgain(false);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
        }
    }

    private static void edit(StateScene s, Consumer<ObjectNode> change) {
        try {
            ObjectNode r = s.read(s.record(s.second));
            change.accept(r);
            s.write(s.record(s.second), r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void anInstalledPathOutsideTheTargetIsRefused() throws Exception {
        refusedAfter(s -> edit(s, r -> ((ObjectNode) r.withArray("installed").get(0)).put("path", "/usr/local/sentinel/file")),
                "/usr/local/sentinel/file", "outside the target");
        refusedAfter(s -> edit(s, r -> ((ObjectNode) r.withArray("installed").get(0)).put("path", "../sentinel/file")),
                "'..'");
    }

    @Test
    void aPathThroughALinkThatLeadsOutsideIsRefused() throws Exception {
        refusedAfter(s -> {
            try {
                Files.createSymbolicLink(s.tk.resolve("include/evil"), s.sentinel);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            edit(s, r -> ((ObjectNode) r.withArray("installed").get(0)).put("path", "include/evil/file"));
        }, "really /usr/local/sentinel/file");
    }

    @Test
    void aBackupOutsideItsOwnRecordsBackupFolderIsRefused() throws Exception {
        refusedAfter(s -> edit(s, r -> ((ObjectNode) r.withArray("backedUp").get(0)).put("backup",
                ".cudnn-tool/history/" + s.first.record().id() + "/backup/0/libcudnn.so.8")), "backup");
        refusedAfter(s -> edit(s, r -> ((ObjectNode) r.withArray("backedUp").get(0)).put("backup", "include/cudnn.h")),
                "backup");
        refusedAfter(s -> edit(s, r -> ((ObjectNode) r.withArray("backedUp").get(0)).put("original", "/usr/local/sentinel/file")),
                "outside the target");
    }

    @Test
    void aCreatedFolderOutsideTheTargetIsRefused() throws Exception {
        refusedAfter(s -> edit(s, r -> r.withArray("createdDirs").add("/usr/local/sentinel/sub")), "created folder");
        refusedAfter(s -> edit(s, r -> r.withArray("createdDirs").add("../sentinel")), "created folder");
    }

    @Test
    void aCreatedFolderClimbingAboveTheFileSystemsRootIsDamagedAndRepairable() throws Exception {
        // #35: '../..' past the root of the file system escaped the reader as IllegalArgumentException (exit 70).
        for (String climb : new String[] {"../../../../../../../../../../../../../../../../../../../../../../../..",
                "..".concat("/..".repeat(300))}) {
            refusedAfter(s -> edit(s, r -> r.withArray("createdDirs").add(climb)), "created folder", "above the file system's root");
            try (StateScene s = new StateScene(downloads)) {
                edit(s, r -> r.withArray("createdDirs").add(climb));
                assertTrue(s.rollbacks().list(s.target).stream().anyMatch(e -> e.toString().contains("damaged")
                        || e.toString().toLowerCase(Locale.ROOT).contains("damage")), "listed as damaged");
                s.rollbacks().repair(s.target, false);
                assertFalse(Files.exists(s.record(s.second)), "the record was set aside");
                assertTrue(Files.isDirectory(s.state.resolve("quarantine")), "into the quarantine");
            }
        }
    }

    @Test
    void aCreatedFolderThatHoldsNoneOfTheInstalledFilesIsRefused() throws Exception {
        // An empty folder of the toolkit's, named as "created" by a forged record: rollback would remove it.
        refusedAfter(s -> {
            try {
                Files.createDirectories(s.tk.resolve("extras/empty"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            edit(s, r -> r.withArray("createdDirs").add("extras/empty"));
        }, "holds none of the files");
    }

    @Test
    void anIdWithSeparatorsIsRefused() throws Exception {
        refusedAfter(s -> edit(s, r -> r.put("id", "../../../sentinel")), "'id'");
        refusedAfter(s -> edit(s, r -> r.put("id", s.first.record().id())), "'id'");
    }

    @Test
    void aJournalThatMovesFilesOutsideTheTargetIsRefusedByRollbackAndInstall() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            String id = "20261130T030000Z-0003";
            Files.writeString(s.state.resolve("journal.json"), "{\"id\":\"" + id + "\",\"kind\":\"install\",\"state\":\"committing\","
                    + "\"ops\":[{\"type\":\"move\",\"from\":\"/usr/local/sentinel/file\",\"to\":\".cudnn-tool/history/" + id
                    + "/backup/0/file\"}],\"recordId\":\"" + id + "\"}");
            DamagedState e = s.refuses(s::rollback);
            assertTrue(e.getMessage().contains("journal.json") && e.getMessage().contains("/usr/local/sentinel/file"), e.getMessage());
            s.refuses(() -> {
                try {
                    return s.installAgain(false);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
            // a journal step moving between two target files (no folder of the run's own) is refused too
            Files.writeString(s.state.resolve("journal.json"), "{\"id\":\"" + id + "\",\"kind\":\"install\",\"state\":\"committing\","
                    + "\"ops\":[{\"type\":\"move\",\"from\":\"include/cudnn.h\",\"to\":\"include/cudnn2.h\"}],\"recordId\":\"" + id + "\"}");
            s.refuses(s::rollback);
            Files.writeString(s.state.resolve("journal.json"), "{\"id\":\"" + id + "\",\"kind\":\"install\",\"state\":\"committing\","
                    + "\"ops\":[{\"type\":\"rmdir\",\"to\":\"../sentinel/sub\"}],\"recordId\":\"" + id + "\"}");
            s.refuses(s::rollback);
        }
    }

    @Test
    void recordsOfTheFirstFormatWithAbsolutePathsAreAcceptedOnlyWhenTheyValidate() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            Map<String, String> withFirst = TreeSnapshot.withoutState(s.tk);
            // Rewrite the newest record as the old code wrote it: absolute paths (through the real folder).
            Path real = s.tk.toRealPath();
            edit(s, r -> {
                for (String list : new String[] {"installed", "backedUp"}) {
                    for (var n : r.withArray(list)) {
                        ObjectNode o = (ObjectNode) n;
                        for (String f : new String[] {"path", "original", "backup"}) {
                            if (o.has(f)) {
                                o.put(f, real.resolve(o.get(f).asText()).toString());
                            }
                        }
                    }
                }
                ArrayNode dirs = r.withArray("createdDirs");
                for (int i = 0; i < dirs.size(); i++) {
                    dirs.set(i, TextNode.valueOf(real.resolve(dirs.get(i).asText()).toString()));
                }
            });
            assertTrue(Files.readString(s.record(s.second)).contains("\"/usr/local/cuda-12.2/include/cudnn.h\""));
            RollbackOutcome r = s.rollback();
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertNotEquals(withFirst, TreeSnapshot.withoutState(s.tk));
            assertTrue(Files.exists(s.tk.resolve("targets/x86_64-linux/lib/libcudnn.so.8.9.5")), "8.9.5 is back");
        }
    }

    @Test
    void aToolFolderThatIsALinkIsRefusedBeforeTheLockAndRepairRenamesIt() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            Path elsewhere = s.sentinel.resolve("state");
            Files.move(s.state, elsewhere);
            Files.delete(elsewhere.resolve("lock"));
            Files.createSymbolicLink(s.state, elsewhere);
            DamagedState e = s.refuses(s::rollback);
            assertTrue(e.getMessage().contains(".cudnn-tool is a link"), e.getMessage());
            s.refuses(() -> {
                try {
                    return s.installAgain(false);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
            assertFalse(Files.exists(elsewhere.resolve("lock")), "no lock file created through the link");
            RollbackOutcome r = s.rollbacks().repair(s.target, false);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertFalse(Files.isSymbolicLink(s.state));
            assertEquals(ExitCode.OK, s.installAgain(false).exit());
        }
    }
}
