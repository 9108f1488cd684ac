package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.Machine;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code cudnn verify --report} against hostile values (environment, copy paths and so finding messages): whatever a
 * value holds, the document keeps its shape: no new line, heading or table row, no extra table cell, no broken code
 * span, no raw HTML (a {@code <!--} would hide the rest of the report on GitHub), no terminal escape.
 */
class ReportMarkdownHostilePropertyTest {
    private static final String NASTY = "|`<>!-#*_[]()\\\n\r\u001b\u0085\u2028 \t~x";

    static void wellFormed(String md, String what) {
        List<String> lines = md.lines().toList();
        assertTrue(lines.get(0).startsWith("### cuDNN report ("), what);
        for (String l : lines.subList(1, lines.size())) {
            assertFalse(l.startsWith("#"), what + ": a heading was injected: " + l);
            assertTrue(l.isEmpty() || l.startsWith("- ") || l.startsWith("  - ") || l.startsWith("| ") || l.startsWith("|---")
                    || l.equals("**Findings**") || l.equals("**Search variables**"), what + ": a line of unknown shape: " + l);
            assertEquals(0, l.chars().filter(c -> c == '`').count() % 2, what + ": a code span was broken: " + l);
            if (l.startsWith("|")) {
                assertEquals(6, unescapedPipes(l), what + ": a table row with the wrong number of cells: " + l);
            }
            assertFalse(l.replaceAll("`[^`]*`", "").replaceAll("\\\\.", "").contains("<"), what + ": raw HTML could restructure the report: " + l);
        }
        assertFalse(md.contains("\u001b") || md.contains("\r") || md.contains("\u0085"), what + ": a control character");
    }

    /** As GFM splits a table row: a backslash escapes the next character, even in a code span; every other pipe ends a cell. */
    private static long unescapedPipes(String l) {
        long n = 0;
        for (int i = 0; i < l.length(); i++) {
            if (l.charAt(i) == '\\') {
                i++;
            } else if (l.charAt(i) == '|') {
                n++;
            }
        }
        return n;
    }

    private static String hostile(Random rnd, int len) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < len; i++) {
            b.append(rnd.nextInt(3) == 0 ? (char) ('a' + rnd.nextInt(26)) : NASTY.charAt(rnd.nextInt(NASTY.length())));
        }
        return b.toString();
    }

    @Test
    void aCopyWhosePathHoldsAPipeOrHtmlKeepsItsTableRow() throws Exception {
        String dir = "/opt/a|b<!--c`d\\|e\\\\/lib";
        try (Machine m = Machine.linux().file(dir + "/libcudnn.so.9", "not an ELF").env("LD_LIBRARY_PATH", dir).build()) {
            String md = Cli.run(m.host(), "verify", "--no-probe", "--report").out();
            assertTrue(md.contains("a\\|b"), md);
            wellFormed(md, dir);
        }
    }

    @TestFactory
    Stream<DynamicTest> hostileFoldersAndVariables() {
        return Stream.of(3L, 11L, 42L, 1999L, 77777L).map(seed -> dynamicTest("seed " + seed, () -> {
            Random rnd = new Random(seed);
            String name = hostile(rnd, 4 + rnd.nextInt(12)).replace("/", "").replace("\u0000", "");
            String dir = "/opt/" + name.replace("\n", "n").replace("\r", "r") + "/lib";
            try (Machine m = Machine.linux().file(dir + "/libcudnn.so.9", "x").file(dir + "/libcudnn.so.8.9.7", "x")
                    .env("LD_LIBRARY_PATH", dir + ":" + hostile(rnd, 20)).env("CUDA_HOME", hostile(rnd, 30))
                    .env("CONDA_PREFIX", hostile(rnd, 30)).env("VIRTUAL_ENV", hostile(rnd, 30)).build()) {
                Cli.Run r = Cli.run(m.host(), "verify", "--no-probe", "--report");
                assertTrue(r.exit() == 0 || r.exit() == 1, r.err());
                wellFormed(r.out(), "seed " + seed);
            }
        }));
    }
}
