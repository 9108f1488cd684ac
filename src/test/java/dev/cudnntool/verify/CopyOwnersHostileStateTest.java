package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.target.StateFolder;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.Machine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * #19 item 19's owner "tool" is read from the tool's own install records above a copy: a damaged or hostile state
 * folder (garbage, deep or huge JSON, records listing paths outside, folders and links where files belong, loops) never
 * crashes verify; each copy still has an owner, and a record that cannot be read proves no ownership.
 */
class CopyOwnersHostileStateTest {
    private static final Set<String> KINDS = Set.of("tool", "none", "dpkg", "rpm", "pip", "conda");

    @TempDir
    Path downloads;

    private static List<Path> records(Path state) throws Exception {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(state.resolve("history"))) {
            s.map(d -> d.resolve("install.json")).filter(Files::exists).sorted().forEach(out::add);
        }
        return out;
    }

    private static String nasty(Random rnd) {
        return switch (rnd.nextInt(10)) {
            case 0 -> "[".repeat(100_000);
            case 1 -> "{\"installed\":[{\"path\":\"../../../../../../etc/passwd\"},{\"path\":null},{\"path\":7},{}]}";
            case 2 -> "{\"installed\":" + "[{\"path\":\"lib64/x\"},".repeat(50_000) + "{}]}";
            case 3 -> "{\"installed\":[{\"path\":\"" + "a/".repeat(200_000) + "\"}]}";
            case 4 -> "\u0000\u001b[31m\uFEFF{";
            case 5 -> "{\"installed\":[{\"path\":\"C:\\\\Windows\\\\x\",\"sha256\":\"\u001b\"}],\"id\":\"../../x\"}";
            case 6 -> "{\"installed\":{\"path\":\"lib64/libcudnn.so.8\"}}";
            case 7 -> "99999999999999999999999999999999";
            case 8 -> "{\"installed\":[{\"path\":\"lib64/\\u0000libcudnn.so.8\"}],\"installed\":[]}";
            default -> "";
        };
    }

    @TestFactory
    Stream<DynamicTest> damagedStateFoldersNeverCrashVerify() throws Exception {
        return Stream.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L).map(seed -> dynamicTest("seed " + seed, () -> {
            Random rnd = new Random(seed);
            try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
                Path archive = ArchiveFixture.linux("8.9.7.29", "12").writeTo(Files.createTempDirectory(downloads, "a"));
                m.install(archive);
                Path state = m.toolkit().resolve(StateFolder.NAME);
                assertTrue(Files.isDirectory(state), "the install left its state folder");
                List<Path> recs = records(state);
                assertFalse(recs.isEmpty());
                Path rec = recs.get(0);
                switch (rnd.nextInt(6)) {
                    case 0, 1, 2 -> Files.write(rec, nasty(rnd).getBytes(StandardCharsets.UTF_8));
                    case 3 -> {
                        Files.delete(rec);
                        Files.createDirectories(rec.resolve("sub"));
                    }
                    case 4 -> {
                        Files.delete(rec);
                        Files.createSymbolicLink(rec, rec.getFileName());
                    }
                    default -> {
                        Path history = state.resolve("history");
                        Path moved = state.resolve("moved");
                        Files.move(history, moved);
                        Files.createSymbolicLink(history, history.getFileName());
                    }
                }
                Cli.Run r = Cli.run(m.host(), "verify", "--no-probe", "--json");
                assertTrue(r.exit() >= 0 && r.exit() <= 8, "seed " + seed + ": exit " + r.exit() + " " + r.err());
                assertFalse(r.err().contains("Exception") || r.out().contains("Exception"), r.err());
                JsonNode doc = r.json();
                for (JsonNode c : doc.get("copies")) {
                    assertTrue(KINDS.contains(c.path("owner").path("kind").asText()), c.toString());
                }
                String text = Cli.run(m.host(), "verify", "--no-probe").out();
                assertFalse(text.contains("\u001b"), text);
                String md = Cli.run(m.host(), "verify", "--no-probe", "--report").out();
                assertFalse(md.contains("\u001b"), md);
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> aStateFolderThatIsAFileOrALinkProvesNoOwnership() {
        return Stream.of("file", "link-to-root", "loop").map(kind -> dynamicTest(kind, () -> {
            try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
                m.install(ArchiveFixture.linux("8.9.7.29", "12").writeTo(Files.createTempDirectory(downloads, "a")));
                List<String> before = new ArrayList<>();
                Cli.run(m.host(), "verify", "--no-probe", "--json").json().get("copies")
                        .forEach(c -> before.add(c.path("owner").path("kind").asText()));
                assertTrue(before.contains("tool"), "intact, the records say the tool installed it: " + before);
                Path state = m.toolkit().resolve(StateFolder.NAME);
                Path moved = state.resolveSibling("moved-state");
                Files.move(state, moved);
                switch (kind) {
                    case "file" -> Files.writeString(state, "not a folder");
                    case "link-to-root" -> Files.createSymbolicLink(state, m.fs().getPath("/"));
                    default -> Files.createSymbolicLink(state, state.getFileName());
                }
                Cli.Run r = Cli.run(m.host(), "verify", "--no-probe", "--json");
                assertTrue(r.exit() >= 0 && r.exit() <= 8, kind + ": exit " + r.exit() + " " + r.err());
                for (JsonNode c : r.json().get("copies")) {
                    assertEquals("none", c.path("owner").path("kind").asText(), kind + ": " + c);
                }
            }
        }));
    }
}
