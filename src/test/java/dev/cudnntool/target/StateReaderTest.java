package dev.cudnntool.target;

import dev.cudnntool.install.InstallOutcome;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.install.StateScene;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 9 B4: corrupt state never gives exit 70 and always has a way out. Each corruption is a
 * one-line exit 8 naming the file, from rollback and from install; {@code --repair} sets it
 * aside and the target can be installed into and rolled back again.
 */
public class StateReaderTest {
    static final String ID = "20261130T030000Z-0003";
    /** A valid 2-step journal of an interrupted install (two folders created). */
    public static final String JOURNAL = "{\"id\":\"" + ID + "\",\"kind\":\"install\",\"state\":\"committing\",\"startedAt\":\"x\","
            + "\"ops\":[{\"type\":\"mkdir\",\"to\":\"include/a\"},{\"type\":\"mkdir\",\"to\":\"include/b\"}],\"recordId\":\"" + ID + "\"}";

    @TempDir
    Path downloads;

    /** Each corruption, named for what it does, with the file the refusal must name. */
    static Stream<Arguments> corruptions() {
        return Stream.of(
                Arguments.of("log: done abc", "journal.log"),
                Arguments.of("log: done 99999999999", "journal.log"),
                Arguments.of("log: done 5 of 2 steps", "journal.log"),
                Arguments.of("journal: null fields", "journal.json"),
                Arguments.of("journal: missing ops", "journal.json"),
                Arguments.of("journal: {}", "journal.json"),
                Arguments.of("journal: truncated", "journal.json"),
                Arguments.of("journal: null step", "journal.json"),
                Arguments.of("record: {}", "install.json"),
                Arguments.of("record: truncated", "install.json"),
                Arguments.of("record: null lists", "install.json"));
    }

    static void corrupt(StateScene s, String what) {
        try {
            Path journal = s.state.resolve("journal.json");
            Path log = s.state.resolve("journal.log");
            Path record = s.record(s.second);
            switch (what) {
                case "log: done abc" -> { Files.writeString(journal, JOURNAL); Files.writeString(log, "done abc\n"); }
                case "log: done 99999999999" -> { Files.writeString(journal, JOURNAL); Files.writeString(log, "done 99999999999\n"); }
                case "log: done 5 of 2 steps" -> { Files.writeString(journal, JOURNAL); Files.writeString(log, "done 0\ndone 5\n"); }
                case "journal: null fields" -> Files.writeString(journal, "{\"id\":null,\"kind\":null,\"ops\":null,\"recordId\":null}");
                case "journal: missing ops" -> Files.writeString(journal, JOURNAL.replaceAll(",\"ops\":\\[.*\\]", ""));
                case "journal: {}" -> Files.writeString(journal, "{}");
                case "journal: truncated" -> Files.writeString(journal, JOURNAL.substring(0, JOURNAL.length() / 2));
                case "journal: null step" -> Files.writeString(journal, JOURNAL.replace("{\"type\":\"mkdir\",\"to\":\"include/a\"}", "null"));
                case "record: {}" -> Files.writeString(record, "{}");
                case "record: truncated" -> {
                    String r = Files.readString(record);
                    Files.writeString(record, r.substring(0, r.length() / 3));
                }
                case "record: null lists" -> Files.writeString(record, Files.readString(record)
                        .replaceFirst("\"installed\" : \\[", "\"installed\" : null, \"x\" : ["));
                default -> throw new IllegalArgumentException(what);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corruptions")
    void everyCorruptionIsAOneLineExit8NamingTheFileFromRollbackAndInstall(String corruption, String file) throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            corrupt(s, corruption);
            DamagedState e = s.refuses(s::rollback);
            assertTrue(e.getMessage().contains(file), corruption + ": " + e.getMessage());
            assertTrue(e.fix().contains("cudnn rollback --repair"), e.fix());
            DamagedState i = s.refuses(() -> {
                try {
                    return s.installAgain(false);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
            assertTrue(i.getMessage().contains(file), corruption + ": " + i.getMessage());
            InstallOutcome dry = s.installAgain(true);
            assertEquals(ExitCode.NOTHING_TO_ROLL_BACK, dry.exit(), corruption + ": the dry run agrees: " + dry.summary());
            assertTrue(s.rollbacks().list(s.target).stream().anyMatch(x -> x.state().equals("damaged")), corruption);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corruptions")
    void repairSetsTheDamageAsideAndTheTargetIsInstallableAndRollsBackAgain(String corruption, String file) throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            corrupt(s, corruption);
            Map<String, String> damaged = TreeSnapshot.withoutState(s.tk);
            RollbackOutcome dry = s.rollbacks().repair(s.target, true);
            assertEquals(ExitCode.OK, dry.exit());
            assertTrue(dry.summary().startsWith("dry run: would repair"), dry.summary());
            RollbackOutcome r = s.rollbacks().repair(s.target, false);
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertTrue(r.summary().contains("could not account for"), corruption + ": " + r.summary());
            assertTrue(r.summary().contains("can be installed into again"), r.summary());
            assertEquals(damaged, TreeSnapshot.withoutState(s.tk), "repair changes only the tool's folder");
            Path q = s.state.resolve("quarantine");
            assertTrue(Files.isDirectory(q), "set aside, not deleted");
            try (var files = Files.walk(q)) {
                assertTrue(files.anyMatch(p -> p.getFileName().toString().equals(file)), corruption);
            }
            assertEquals(ExitCode.OK, s.rollbacks().repair(s.target, false).exit(), "a second repair finds nothing");
            InstallOutcome again = s.installAgain(false);
            assertEquals(ExitCode.OK, again.exit(), corruption + ": " + again.summary());
            RollbackOutcome back = s.rollback();
            assertEquals(ExitCode.OK, back.exit(), corruption + ": " + back.summary());
        }
    }

    @Test
    void aProgressLogLineCutShortByACrashIsNotAStep() throws Exception {
        try (StateScene s = new StateScene(downloads)) {
            Files.writeString(s.state.resolve("journal.json"), JOURNAL);
            Files.createDirectory(s.tk.resolve("include/a"));
            Files.writeString(s.state.resolve("journal.log"), "begin " + ID + "\ndone 0\ndo");
            Map<String, String> before = TreeSnapshot.withoutState(s.tk);
            RollbackOutcome r = s.rollback();
            assertEquals(ExitCode.OK, r.exit(), r.summary());
            assertTrue(r.summary().contains("undid the interrupted install"), r.summary());
            before.remove("include/a");
            assertEquals(before, TreeSnapshot.withoutState(s.tk));
        }
    }
}
