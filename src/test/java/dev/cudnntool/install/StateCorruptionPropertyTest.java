package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.rollback.RollbackService;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.StateReaderTest;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.Seeds;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 9 D: random corruptions of the state folder (records, journal, its log, the temporary
 * journal, paths leading outside, ids with separators, links, leftovers), then rollback,
 * rollback --force/--id, rollback --repair followed by rollback, or install (real or dry run).
 * Invariants: the exit code is documented and never 70; nothing outside the target changes (a
 * sentinel folder beside it); the target is byte-identical whenever the exit is not 0. A fixed
 * seed ({@code -Dcudnn.seed}, {@code -Dcudnn.tries}: {@link dev.cudnntool.testing.Seeds}); {@code -Dcudnn.longProperties=true}
 * runs 3,000 tries with a random seed. Each case names its seed, so a failure replays exactly.
 *
 * <p>Plain seeded generation on JUnit Jupiter, like {@link HostileArchivePropertyTest}, rather than
 * jqwik: see the README's Dependencies section for why.
 */
class StateCorruptionPropertyTest {
    static final Set<Integer> DOCUMENTED = Set.of(0, 1, 2, 3, 4, 5, 6, 7, 8);
    static final String[] HOSTILE = {"/usr/local/sentinel/file", "../sentinel/file", "../../..", "include/../../sentinel",
        ".cudnn-tool/history/20261130T030000Z-0001/backup/0/libcudnn.so.8", "include/evil/file", "", "a\nb", "C:\\x",
        "/usr/local/cuda-12.2/include/cudnn.h", ".", "..", "include//cudnn.h", ".cudnn-tool/lock", "include/cudnn.h",
        "../../../../../../etc/passwd", ".cudnn-tool/../../sentinel"};
    static final String[] LOG_LINES = {"done abc", "done 99999999999", "done 5", "undone -1", "done 0", "undone 0", "begin x",
        "done", "\u0000\u0001", "done 1 2"};

    private static FileSystem template;
    private static Path archives;
    private static Path newer;

    @BeforeAll
    static void scene() throws Exception {
        archives = Files.createTempDirectory("cudnn-props");
        template = TestHosts.unixFs();
        Machine m = Machine.linux(template).toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                .folder("/usr/local/sentinel/sub").file("/usr/local/sentinel/file", "keep me").build();
        for (String v : new String[] {"8.9.5.30", "8.9.7.29"}) {
            Path a = ArchiveFixture.linux(v, "12").writeTo(Files.createTempDirectory(archives, "a"));
            InstallOutcome o = m.install(a);
            if (o.exit() != ExitCode.OK) {
                throw new IllegalStateException(o.summary());
            }
        }
        newer = ArchiveFixture.linux("9.5.1.17", "12").writeTo(Files.createTempDirectory(archives, "n"));
    }

    @AfterAll
    static void done() throws IOException {
        template.close();
        try (Stream<Path> s = Files.walk(archives)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @TestFactory
    Stream<DynamicTest> corruptStateNeverLeadsOutsideTheTargetNorToExit70() {
        long seed = Seeds.seed(20261130L);
        int tries = Seeds.tries(200, 3000);
        int maxCorruptions = Seeds.longRun() ? 5 : 3;
        return IntStream.range(0, tries).mapToObj(i -> {
            Random r = new Random(Seeds.caseSeed(seed, i));
            List<Integer> corruptions = new ArrayList<>();
            int n = 1 + r.nextInt(maxCorruptions);
            for (int k = 0; k < n; k++) {
                corruptions.add(r.nextInt(1_000_000));
            }
            int action = r.nextInt(6);
            return DynamicTest.dynamicTest("seed " + seed + " try " + i + ": corruptions " + corruptions + ", action " + action,
                    Seeds.replayable("StateCorruptionPropertyTest", seed, i, () -> check(corruptions, action)));
        });
    }

    private void check(List<Integer> corruptions, int action) throws Exception {
        try (FileSystem fs = TestHosts.unixFs()) {
            copy(template.getPath("/"), fs.getPath("/"));
            Machine m = Machine.of(TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/usr/local/cuda/lib64"), new FakeRunner()));
            Host host = m.host();
            Path tk = fs.getPath("/usr/local/cuda-12.2");
            for (int c : corruptions) {
                corrupt(fs, tk, c);
            }
            InstallTarget t = InstallTarget.toolkit(ToolkitLocator.read(host, tk, "t"), host.os());
            RollbackService rs = m.rollbacks();
            String what = "corruptions " + corruptions + ", action " + action;
            switch (action) {
                case 0 -> step(fs, tk, what, () -> rs.rollback(t, null, false, false).exit());
                case 1 -> step(fs, tk, what, () -> rs.rollback(t, null, true, false).exit());
                case 2 -> step(fs, tk, what, () -> rs.rollback(t, "20261130T030000Z-0001", true, false).exit());
                case 3 -> {
                    step(fs, tk, what + " (repair)", () -> rs.repair(t, false).exit());
                    step(fs, tk, what + " (rollback after repair)", () -> rs.rollback(t, null, false, false).exit());
                }
                case 4 -> step(fs, tk, what, () -> m.installer().run(
                        new InstallRequest(newer, null, null, null, false, false), ReadProgress.NONE).exit());
                default -> step(fs, tk, what, () -> m.installer().run(
                        new InstallRequest(newer, null, null, null, false, true), ReadProgress.NONE).exit());
            }
        }
    }

    interface Action {
        ExitCode run();
    }

    private static void step(FileSystem fs, Path tk, String what, Action a) {
        Map<String, String> outside = outside(fs, tk);
        Map<String, String> target = targetWithoutLock(tk);
        int code;
        String message;
        try {
            ExitCode e = a.run();
            code = e.code();
            message = e.name();
        } catch (ToolException e) {
            code = e.exitCode().code();
            message = e.getMessage() + " / " + e.fix();
            assertFalse(message.contains("\n") || message.contains("null") || message.contains("[Source"),
                    what + ": not one clean line: " + message);
        } catch (RuntimeException e) {
            throw new AssertionError(what + ": exit 70 (" + e + ")", e);
        }
        assertTrue(DOCUMENTED.contains(code), what + ": undocumented exit " + code + ": " + message);
        assertEquals(outside, outside(fs, tk), what + ": something outside the target changed (exit " + code + ": " + message + ")");
        if (code != 0 && code != 7) {
            assertEquals(target, targetWithoutLock(tk), what + ": exit " + code + " but the target changed: " + message);
        }
    }

    private static Map<String, String> outside(FileSystem fs, Path tk) {
        Map<String, String> all = TreeSnapshot.of(fs.getPath("/"));
        String prefix = fs.getPath("/").relativize(tk).toString();
        all.keySet().removeIf(k -> k.equals(prefix) || k.startsWith(prefix + "/"));
        return all;
    }

    private static Map<String, String> targetWithoutLock(Path tk) {
        Map<String, String> m = new TreeMap<>(TreeSnapshot.of(tk));
        m.remove(".cudnn-tool/lock");
        return m;
    }

    /** One corruption, chosen and shaped by the bits of {@code g}. */
    static void corrupt(FileSystem fs, Path tk, int g) throws IOException {
        Path state = tk.resolve(".cudnn-tool");
        List<Path> records = new ArrayList<>();
        try (Stream<Path> s = Files.list(state.resolve("history"))) {
            s.map(d -> d.resolve("install.json")).filter(Files::exists).sorted().forEach(records::add);
        } catch (IOException e) {
            // no history left
        }
        int kind = g % 11;
        int a = g / 11;
        Path record = records.isEmpty() ? null : records.get(a % records.size());
        String hostile = HOSTILE[(a / 7) % HOSTILE.length];
        switch (kind) {
            case 0, 1 -> {
                if (record == null) {
                    return;
                }
                ObjectNode r;
                try {
                    r = (ObjectNode) StateScene.JSON.readTree(Files.readAllBytes(record));
                } catch (IOException | ClassCastException e) {
                    return; // damaged already by an earlier corruption
                }
                String[] fields = {"installed.path", "backedUp.backup", "backedUp.original", "createdDirs", "id", "license",
                    "installed.sha256", "version"};
                String field = fields[(a / 3) % fields.length];
                if (hostile.equals("include/evil/file") && !Files.exists(tk.resolve("include/evil"), LinkOption.NOFOLLOW_LINKS)) {
                    Files.createSymbolicLink(tk.resolve("include/evil"), fs.getPath("/usr/local/sentinel"));
                }
                set(r, field, a % 5 == 0 ? null : hostile);
                Files.write(record, StateScene.JSON.writeValueAsBytes(r));
            }
            case 2 -> {
                if (record == null) {
                    return;
                }
                byte[] b = Files.readAllBytes(record);
                String[] shapes = {"{}", "null", "[]", "", "{\"id\":"};
                Files.write(record, a % 2 == 0 ? Arrays.copyOf(b, a % Math.max(1, b.length))
                        : shapes[a % shapes.length].getBytes(StandardCharsets.UTF_8));
            }
            case 3, 4 -> {
                String id = "20261130T030000Z-0003";
                String[] types = {"move", "mkdir", "rmdir", "copy", null};
                StringBuilder ops = new StringBuilder();
                int n = 1 + a % 3;
                for (int i = 0; i < n; i++) {
                    String from = i % 2 == 0 ? hostile : ".cudnn-tool/staging-" + id + "/x" + i;
                    String to = i % 2 == 0 ? ".cudnn-tool/history/" + id + "/backup/" + i + "/y" : HOSTILE[(a + i) % HOSTILE.length];
                    String type = types[(a / 5 + i) % types.length];
                    ops.append(i == 0 ? "" : ",").append("{\"type\":").append(type == null ? "null" : "\"" + type + "\"")
                            .append(",\"from\":").append(StateScene.JSON.writeValueAsString(from))
                            .append(",\"to\":").append(StateScene.JSON.writeValueAsString(to)).append("}");
                }
                String kindName = a % 4 == 0 ? "rollback" : "install";
                String jid = kindName.equals("rollback") ? id + "-rollback" : a % 9 == 0 ? "../" + id : id;
                String j = "{\"id\":\"" + jid + "\",\"kind\":\"" + kindName + "\",\"state\":\"committing\",\"ops\":[" + ops
                        + "],\"recordId\":\"" + id + "\"}";
                Files.writeString(state.resolve("journal.json"), a % 6 == 0 ? j.substring(0, j.length() / 2) : j);
            }
            case 5 -> {
                if (!Files.exists(state.resolve("journal.json"))) {
                    Files.writeString(state.resolve("journal.json"), StateReaderTest.JOURNAL);
                }
                Files.writeString(state.resolve("journal.log"), LOG_LINES[a % LOG_LINES.length] + "\n");
            }
            case 6 -> Files.writeString(state.resolve("journal.json.tmp"), "{\"id\":\"2026" + "x".repeat(a % 50));
            case 7 -> {
                Path staging = state.resolve("staging-20261130T020000Z-" + (a % 10000) + "/lib");
                Files.createDirectories(staging);
                Files.writeString(staging.resolve("libcudnn.so.8"), "left by a killed run");
            }
            case 8 -> {
                if (record == null) {
                    return;
                }
                Path backup = record.resolveSibling("backup");
                if (Files.isDirectory(backup, LinkOption.NOFOLLOW_LINKS)) {
                    Path moved = record.resolveSibling("backup-moved");
                    Files.move(backup, moved);
                    Files.createSymbolicLink(backup, a % 2 == 0 ? fs.getPath("/usr/local/sentinel") : moved);
                }
            }
            case 9 -> {
                if (record == null) {
                    return;
                }
                Path odd = state.resolve("history").resolve(a % 2 == 0 ? "x y" : "..." + (a % 100));
                Files.createDirectories(odd);
                Files.copy(record, odd.resolve("install.json"), StandardCopyOption.REPLACE_EXISTING);
            }
            default -> {
                if (record == null) {
                    return;
                }
                try (Stream<Path> s = Files.walk(record.resolveSibling("backup"))) {
                    List<Path> files = s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList();
                    if (!files.isEmpty()) {
                        Files.writeString(files.get(a % files.size()), "bit rot");
                    }
                } catch (IOException e) {
                    // no backups
                }
            }
        }
    }

    private static void set(ObjectNode r, String field, String value) {
        String[] p = field.split("\\.");
        if (p.length == 1) {
            if (field.equals("createdDirs")) {
                r.withArray("createdDirs").add(value);
            } else {
                r.put(field, value);
            }
            return;
        }
        JsonNode list = r.get(p[0]);
        if (list instanceof ArrayNode arr && !arr.isEmpty() && arr.get(0) instanceof ObjectNode o) {
            o.put(p[1], value);
        }
    }

    /** A deep copy of one jimfs tree into another: folders, files, links. */
    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path rel = from.relativize(p);
                Path dest = to.resolve(rel.toString());
                if (rel.toString().isEmpty()) {
                    continue;
                }
                if (Files.isSymbolicLink(p)) {
                    Files.createSymbolicLink(dest, to.getFileSystem().getPath(Files.readSymbolicLink(p).toString()));
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
                if (!Files.isSymbolicLink(p)) {
                    Files.setPosixFilePermissions(dest, Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
