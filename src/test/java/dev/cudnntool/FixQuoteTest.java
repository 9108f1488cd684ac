package dev.cudnntool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.testing.Seeds;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** #32 item 5: a path in a fix is quoted for the shell it is meant for; pasting it never runs anything else. */
class FixQuoteTest {
    static final String[] PARTS = {"$(touch PWNED)", "`touch PWNED`", ";touch PWNED", "\ntouch PWNED\n", "'", "\"", " ", "&&", "|",
        "$HOME", "${IFS}", "\u2018", "\u2019", "*", "?", "~", "#", "!", "%PATH%", "^", "é", "lib", "/", "\\", "-x", "(", ")", ">", "<"};

    static String hostile(Random r) {
        StringBuilder b = new StringBuilder("/opt/");
        for (int i = 0, n = 1 + r.nextInt(5); i < n; i++) {
            b.append(PARTS[r.nextInt(PARTS.length)]);
        }
        return b.append("/lib").toString();
    }

    /** A PowerShell single-quoted string read back: every single-quote character doubled inside. */
    static String readPowerShell(String q) {
        assertTrue(q.startsWith("'") && q.endsWith("'") && q.length() >= 2, q);
        String in = q.substring(1, q.length() - 1);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < in.length(); i++) {
            char c = in.charAt(i);
            if (c == '\'' || c == '\u2018' || c == '\u2019' || c == '\u201a' || c == '\u201b') {
                assertTrue(i + 1 < in.length() && in.charAt(i + 1) == c, "a lone quote ends the string early: " + q);
                i++;
            }
            b.append(c);
        }
        return b.toString();
    }

    @TestFactory
    Stream<DynamicTest> aHostilePathIsOneArgumentInEveryShell(@TempDir Path tmp) {
        long seed = Seeds.seed(32_5);
        boolean sh = new File("/bin/sh").canExecute();
        return IntStream.range(0, Seeds.tries(40, 400)).mapToObj(i -> {
            Random r = new Random(Seeds.caseSeed(seed, i));
            String path = hostile(r);
            return DynamicTest.dynamicTest(i + " " + Text.printable(path), Seeds.replayable("FixQuoteTest", seed, i, () -> {
                String posix = Fix.quote(Fix.Shell.POSIX, path);
                assertEquals(path, readPowerShell(Fix.quote(Fix.Shell.POWERSHELL, path)));
                String cmd = Fix.quote(Fix.Shell.CMD, path);
                if (path.chars().anyMatch(c -> c == '%' || c == '"' || c == '!' || c == '^' || c == '\n')) {
                    assertNull(cmd, "cmd cannot carry it: the fix says to rename");
                } else {
                    assertEquals("\"" + path + "\"", cmd);
                }
                if (sh) { // the POSIX form, pasted into a real sh, is the one argument and runs nothing
                    Process p = new ProcessBuilder("/bin/sh", "-c", "printf '%s' " + posix).directory(tmp.toFile()).start();
                    assertTrue(p.waitFor(10, TimeUnit.SECONDS));
                    assertEquals(path, new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                    assertFalse(Files.exists(tmp.resolve("PWNED")), "pasting ran a command: " + posix);
                }
            }));
        });
    }

    @Test
    void aPlainPathKeepsTodaysText() {
        for (String p : new String[] {"/usr/local/cuda-12.6/targets/x86_64-linux/lib", "/opt/cudnn9/lib", "libcudnn.so.9",
            "/home/u/miniconda3/envs/torch-2.5"}) {
            assertEquals(p, Fix.quote(Fix.Shell.POSIX, p));
        }
        assertEquals("C:\\Program\\cudnn", Fix.quote(Fix.Shell.POWERSHELL, "C:\\Program\\cudnn"));
        assertEquals("'C:\\Program Files\\NVIDIA'", Fix.quote(Fix.Shell.POWERSHELL, "C:\\Program Files\\NVIDIA"));
        assertEquals("'/opt/a b'", Fix.quote(Fix.Shell.POSIX, "/opt/a b"));
        assertEquals("'/opt/it'\\''s'", Fix.quote(Fix.Shell.POSIX, "/opt/it's"));
    }
}
