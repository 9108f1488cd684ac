package dev.cudnntool.rollback;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.Host;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.NioFileOps;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 18 D15: {@code rollback --repair} sets aside a damaged record whatever the length of its
 * folder's name. The set-aside name was the old one with a prefix ("history-"), longer than the
 * file system's 255-byte limit from 248 bytes on, so repair failed every time and the target stayed
 * stuck. On the real file system, where the limit is real.
 */
class RepairLongNamesTest {
    @TempDir
    Path dir;

    /** A name of exactly {@code bytes} UTF-8 bytes, with two-byte letters in it (cut on a letter, not a byte). */
    static String name(int bytes) {
        StringBuilder b = new StringBuilder("20260101T000000Z-0001-");
        while (b.toString().getBytes(StandardCharsets.UTF_8).length + 2 <= bytes) {
            b.append(b.length() % 3 == 0 ? "é" : "x");
        }
        while (b.toString().getBytes(StandardCharsets.UTF_8).length < bytes) {
            b.append('y');
        }
        return b.toString();
    }

    private RollbackService service() {
        Host host = TestHosts.linux(FileSystems.getDefault(), Map.of(), new FakeRunner());
        return new RollbackService(host, new NioFileOps());
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {247, 248, 250, 255})
    void aDamagedRecordWithALongFolderNameIsSetAside(int bytes) throws Exception {
        String n = name(bytes);
        assertEquals(bytes, n.getBytes(StandardCharsets.UTF_8).length);
        Path prefix = Files.createDirectories(dir.resolve("prefix"));
        Path record = Files.createDirectories(prefix.resolve(".cudnn-tool/history").resolve(n));
        Files.writeString(record.resolve("install.json"), "{}");
        Files.createDirectories(record.resolve("backup/include")).resolve("cudnn.h");
        Files.writeString(record.resolve("backup/include/cudnn.h"), "the old header");
        InstallTarget t = InstallTarget.prefix(prefix, OsFamily.LINUX);
        RollbackService s = service();
        assertTrue(s.list(t).stream().anyMatch(e -> e.state().equals("damaged")));

        RollbackOutcome r = s.repair(t, false);
        assertEquals(ExitCode.OK, r.exit(), r.summary());
        assertTrue(r.summary().contains("can be installed into again"), r.summary());
        assertFalse(Files.exists(record, LinkOption.NOFOLLOW_LINKS), "set aside");
        List<Path> kept;
        try (Stream<Path> w = Files.walk(prefix.resolve(".cudnn-tool/quarantine"))) {
            kept = w.filter(p -> p.endsWith("backup/include/cudnn.h")).toList();
        }
        assertEquals(1, kept.size(), "the backup is kept, not deleted");
        assertEquals("the old header", Files.readString(kept.get(0)));
        for (Path p = kept.get(0); !p.equals(prefix); p = p.getParent()) {
            assertTrue(p.getFileName().toString().getBytes(StandardCharsets.UTF_8).length <= 255, p.toString());
        }
        assertTrue(s.list(t).isEmpty(), "nothing damaged is left: " + s.list(t));
        RollbackOutcome again = s.repair(t, false);
        assertEquals(ExitCode.OK, again.exit(), again.summary());
        assertTrue(again.summary().contains("nothing to repair"), again.summary());
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {250, 255})
    void twoLongNamesThatDifferOnlyAtTheEndGetTwoPlaces(int bytes) throws Exception {
        String a = name(bytes - 1) + "a";
        String b = name(bytes - 1) + "b";
        Path prefix = Files.createDirectories(dir.resolve("two"));
        for (String n : List.of(a, b)) {
            Files.writeString(Files.createDirectories(prefix.resolve(".cudnn-tool/history").resolve(n)).resolve("install.json"),
                    "{\"broken\"");
        }
        InstallTarget t = InstallTarget.prefix(prefix, OsFamily.LINUX);
        RollbackOutcome r = service().repair(t, false);
        assertEquals(ExitCode.OK, r.exit(), r.summary());
        List<Path> setAside;
        try (Stream<Path> w = Files.walk(prefix.resolve(".cudnn-tool/quarantine"), 2)) {
            setAside = w.filter(p -> p.getFileName().toString().startsWith("history-")).toList();
        }
        assertEquals(2, setAside.size(), setAside.toString());
        assertNotEquals(setAside.get(0).getFileName(), setAside.get(1).getFileName());
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {250, 255})
    void aLinkWithALongNameAmongTheToolsFoldersIsRenamed(int bytes) throws Exception {
        Path prefix = Files.createDirectories(dir.resolve("links"));
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path link = Files.createDirectories(prefix.resolve(".cudnn-tool/kept/20260101T000000Z-0001")).resolve(name(bytes));
        Files.createSymbolicLink(link, outside);
        InstallTarget t = InstallTarget.prefix(prefix, OsFamily.LINUX);
        RollbackOutcome r = service().repair(t, false);
        assertEquals(ExitCode.OK, r.exit(), r.summary());
        assertFalse(Files.exists(link, LinkOption.NOFOLLOW_LINKS), "renamed");
        try (Stream<Path> l = Files.list(link.getParent())) {
            Path renamed = l.filter(Files::isSymbolicLink).findFirst().orElseThrow();
            assertTrue(renamed.getFileName().toString().contains(".link-"), renamed.toString());
        }
        RollbackOutcome again = service().repair(t, false);
        assertEquals(ExitCode.OK, again.exit(), "a renamed link is not renamed again: " + again.summary());
        assertTrue(again.summary().contains("nothing to repair"), again.summary());
    }

    /** Seeded: any name of 1 to 255 bytes (one- to four-byte characters) gets a set-aside name within the bound, distinct per name. */
    @org.junit.jupiter.api.TestFactory
    Stream<DynamicTest> setAsideNamesAreBoundedAndDistinct() {
        Random rnd = new Random(18_15);
        String[] pieces = {"a", "Z", "-", ".", "é", "€", "😀"};
        return IntStream.range(0, 200).mapToObj(i -> {
            StringBuilder b = new StringBuilder();
            int limit = 1 + rnd.nextInt(255);
            while (true) {
                String p = pieces[rnd.nextInt(pieces.length)];
                if ((b + p).getBytes(StandardCharsets.UTF_8).length > limit) {
                    break;
                }
                b.append(p);
            }
            String base = b.length() == 0 ? "a" : b.toString();
            return DynamicTest.dynamicTest(base.getBytes(StandardCharsets.UTF_8).length + " bytes", () -> {
                for (String prefix : List.of("history-", "")) {
                    for (String suffix : List.of("", ".link-20260101T000000Z")) {
                        String out = StateRepair.bounded(prefix + base, suffix);
                        assertTrue(out.getBytes(StandardCharsets.UTF_8).length <= StateRepair.MAX_NAME_BYTES, out);
                        assertTrue(out.endsWith(suffix) && out.startsWith(prefix), out);
                        assertFalse(out.contains("\uFFFD"), "never cut inside a character: " + out);
                        String other = StateRepair.bounded(prefix + base + "x", suffix);
                        assertNotEquals(out, other, "two names, two places");
                    }
                }
            });
        });
    }
}
