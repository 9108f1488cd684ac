package dev.cudnntool.host.searchpath;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.Host;
import dev.cudnntool.host.searchpath.SearchPathStore.Raw;
import dev.cudnntool.host.searchpath.SearchPathStore.Scope;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** #18 A1: only a plain path becomes an ld.so.conf.d line, and that line means exactly that folder. */
class PlainPathTest {

    @Test
    void everyClassOfCharacterLdconfigReadsDifferentlyIsRefused() {
        String[][] bad = {
            {"/opt/x#y/cuda/lib", "'#'"},
            {"/opt/x=y/cuda/lib", "'='"},
            {"/opt/x\ny/lib", "U+000A"},
            {"/opt/x\ry/lib", "U+000D"},
            {"/opt/x\ty/lib", "U+0009"},
            {"/opt/x\u0000y/lib", "U+0000"},
            {"/opt/x\u007fy/lib", "U+007F"},
            {"/opt/x\u0085y/lib", "U+0085"},
            {"/opt/x\u2028y/lib", "U+2028"},
            {" /opt/cudnn/lib", "blank"},
            {"/opt/cudnn/lib ", "blank"},
            {"/opt/cudnn/lib\u00a0", "blank"},
            {"/opt/\ufffd/lib", "UTF-8"},
            {"/opt/\ud800/lib", "surrogate"},
            {"/opt/x\udc00/lib", "surrogate"},
            {"", "empty"},
        };
        for (String[] b : bad) {
            String why = SearchPathEntries.unsafeEntry(b[0], false);
            assertNotNull(why, b[0]);
            assertTrue(why.contains(b[1]), b[0] + ": " + why);
            assertThrows(IllegalArgumentException.class, () -> SearchPathEntries.confFile(b[0]), b[0]);
        }
        for (String ok : List.of("/opt/cudnn/lib", "/opt/a b/lib", "/opt/c:d,e/lib", "/opt/\u00fcber/\ud83d\ude00/lib",
                "/usr/local/cuda-12.4/targets/x86_64-linux/lib")) {
            assertNull(SearchPathEntries.unsafeEntry(ok, false), ok);
            assertEquals(ok + "\n", new String(SearchPathEntries.confFile(ok).data(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void windowsEntriesRefuseWhatPathReadsDifferently() {
        for (String bad : List.of("C:\\a;b\\bin", "C:\\\"a\\bin", "C:\\%TEMP%\\bin", "C:\\a\nb", " C:\\cudnn\\bin")) {
            assertNotNull(SearchPathEntries.unsafeEntry(bad, true), bad);
        }
        assertNull(SearchPathEntries.unsafeEntry("C:\\Program Files\\cudnn#1=2\\bin", true), "'#' and '=' are plain on Windows");
    }

    /** What ldconfig makes of one line of an ld.so.conf.d file (glibc parse_conf and add_dir_1). */
    static String asLdconfigReadsIt(String line) {
        int hash = line.indexOf('#');
        String s = hash < 0 ? line : line.substring(0, hash);
        int eq = s.indexOf('=');
        s = eq < 0 ? s : s.substring(0, eq);
        int a = 0;
        int b = s.length();
        while (a < b && " \t\n\u000b\f\r".indexOf(s.charAt(a)) >= 0) {
            a++;
        }
        while (b > a && " \t\n\u000b\f\r".indexOf(s.charAt(b - 1)) >= 0) {
            b--;
        }
        return s.substring(a, b);
    }

    static boolean validUtf16(String s) {
        try {
            StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(s));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static final String[] PIECES = {"#", "=", "\n", "\r", "\t", "\u000b", "\f", "\u0000", "\u001b", "\u007f", "\u0085",
        " ", "\u00a0", "\u2028", "\ufffd", "\ud800", "\udfff", "\ud83d\ude00", ":", ",", ";", "\\", "$", "*", "?", "'", "\"",
        "include ", "\u00fc", "cuda", "lib", "-", ".", "/", "//", "12.4"};

    /** Seeded: paths with special bytes into the conf writer; only accepted paths give a file, and its one line is the path. */
    @TestFactory
    Stream<DynamicTest> onlyAcceptedPathsBecomeAConfFileWhoseSingleLineIsThePath() {
        long seed = 0x18A1L;
        return IntStream.range(0, 400).mapToObj(i -> {
            Random r = new Random(seed + i);
            StringBuilder b = new StringBuilder("/opt/");
            int n = 1 + r.nextInt(6);
            for (int k = 0; k < n; k++) {
                b.append(r.nextInt(3) == 0 ? PIECES[r.nextInt(PIECES.length)] : "d" + r.nextInt(10));
            }
            if (r.nextInt(5) == 0) {
                b.insert(0, PIECES[r.nextInt(PIECES.length)]);
            }
            if (r.nextInt(5) == 0) {
                b.append(PIECES[r.nextInt(PIECES.length)]);
            }
            String path = b.toString();
            return DynamicTest.dynamicTest("seed " + (seed + i), () -> check(path));
        });
    }

    private static void check(String path) throws Exception {
        String why = SearchPathEntries.unsafeEntry(path, false);
        boolean plain = validUtf16(path) && path.indexOf('\ufffd') < 0
                && path.chars().noneMatch(c -> Character.isISOControl(c) || c == 0x2028 || c == 0x2029)
                && asLdconfigReadsIt(path).equals(path) && path.strip().equals(path)
                && !Character.isSpaceChar(path.charAt(0)) && !Character.isSpaceChar(path.charAt(path.length() - 1));
        assertEquals(plain, why == null, "accepted iff ldconfig reads exactly this folder: " + escape(path) + " (" + why + ")");
        try (FileSystem fs = TestHosts.unixFs()) {
            Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
            LdSoConfPathStore store = new LdSoConfPathStore(host);
            Raw conf;
            try {
                conf = SearchPathEntries.confFile(path);
            } catch (IllegalArgumentException e) {
                assertTrue(why != null, escape(path));
                return;
            }
            store.write(Scope.USER, "20261130T030000Z-0001-0a1b2c3d", conf);
            byte[] written = Files.readAllBytes(fs.getPath("/etc/ld.so.conf.d/cudnn-tool-20261130T030000Z-0001-0a1b2c3d.conf"));
            String text = new String(written, StandardCharsets.UTF_8);
            List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
            assertEquals(2, lines.size(), "one line and its newline: " + escape(text));
            assertEquals("", lines.get(1));
            assertEquals(path, lines.get(0));
            assertEquals(path, asLdconfigReadsIt(lines.get(0)), "ldconfig reads the asked-for folder");
        }
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }
}
