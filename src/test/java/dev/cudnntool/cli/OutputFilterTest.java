package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Text;
import dev.cudnntool.cli.view.Json;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.Seeds;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * #32 item 6: one output filter. Hostile names (ESC/CSI and OSC sequences, BEL, CR, C1 controls, bidi
 * overrides and isolates) in folders, files, variables and pasted text never reach standard output or
 * standard error raw, in text, {@code --report} or {@code --json}.
 */
class OutputFilterTest {
    static final String[] HOSTILE = {"\u001b[31mred\u001b[0m", "\u001b]0;owned\u0007", "\u001b]8;;http://x\u001b\\", "\u009b2J",
        "\u0085", "\u0090", "\u009d", "\u202e", "\u202a", "\u202d", "\u2066", "\u2067", "\u2069", "\r", "\u0007", "\u007f", "\u0008"};

    static String hostile(Random r) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            b.append((char) ('a' + r.nextInt(26))).append(HOSTILE[r.nextInt(HOSTILE.length)]);
        }
        return b.append("z").toString();
    }

    /** No character of the unsafe classes in {@code s}, but newlines, tabs and a line separator's CR LF. */
    static void clean(String s, String what) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c == '\n' || c == '\t' || c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n';
            assertTrue(ok || !Text.unsafeForTerminal(c), what + ": raw U+" + String.format("%04X", (int) c) + " at " + i + " in " + s);
        }
    }

    @TestFactory
    Stream<DynamicTest> theFilterEscapesEveryUnsafeCharacterAndKeepsTheRest() {
        long seed = Seeds.seed(32_6);
        return IntStream.range(0, Seeds.tries(50, 1000)).mapToObj(i -> {
            Random r = new Random(Seeds.caseSeed(seed, i));
            return DynamicTest.dynamicTest("" + i, Seeds.replayable("OutputFilterTest", seed, i, () -> {
                StringBuilder b = new StringBuilder();
                int n = r.nextInt(40);
                for (int k = 0; k < n; k++) {
                    int pick = r.nextInt(4);
                    char c0 = (char) r.nextInt(0xA0);
                    c0 = c0 == '\n' || c0 == '\r' || c0 == '\\' ? '_' : c0; // line ends: below; a backslash could fake an escape
                    b.append(pick == 0 ? c0 : pick == 1 ? (char) (0x2060 + r.nextInt(16))
                            : pick == 2 ? (char) (0x2020 + r.nextInt(16)) + "" : "é|x");
                }
                String text = b.toString();
                StringWriter sw = new StringWriter();
                PrintWriter w = SafeOutput.wrap(new PrintWriter(sw));
                w.print(text);
                w.println();
                w.flush();
                String got = sw.toString();
                clean(got, "seed " + seed + " try " + i);
                // what is safe passes unchanged, in order
                String kept = text.chars().filter(c -> c == '\n' || c == '\t' || !Text.unsafeForTerminal(c))
                        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
                assertEquals(kept, got.replaceAll("\\\\u[0-9a-f]{4}", "").replace(System.lineSeparator(), "").replace("\r", ""),
                        "the safe characters kept");
                assertTrue(SafeOutput.wrap(w) == w, "installed once");
                StringWriter crlf = new StringWriter();
                PrintWriter w2 = SafeOutput.wrap(new PrintWriter(crlf));
                w2.print("a\r\nb\rc\n");
                w2.flush();
                assertEquals("a\r\nb\\u000dc\n", crlf.toString(), "a line end passes, a lone carriage return does not");
            }));
        });
    }

    @TestFactory
    Stream<DynamicTest> hostileNamesOnTheMachineNeverReachTheTerminalRaw() {
        long seed = Seeds.seed(32_61);
        return IntStream.range(0, Seeds.tries(8, 80)).mapToObj(i -> {
            Random r = new Random(Seeds.caseSeed(seed, i));
            String dir = "/opt/" + hostile(r) + "/lib";
            String cuda = "/usr/local/" + hostile(r);
            String venv = "/home/u/" + hostile(r);
            String pasted = "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object"
                    + " file: No such file or directory " + hostile(r);
            return DynamicTest.dynamicTest("" + i, Seeds.replayable("OutputFilterTest", seed, i, () -> {
                try (Machine m = Machine.linux().file(dir + "/libcudnn.so.9", "x").file(dir + "/libcudnn.so.8.9.7", "x")
                        .file(cuda + "/version.json", "{\"cuda\":{\"version\":\"12.6.0\"}}")
                        .env("LD_LIBRARY_PATH", dir).env("CUDA_PATH", cuda).env("VIRTUAL_ENV", venv)
                        .env("CUDNN_TOOL_CACHE", "/tmp/" + hostile(r)).build()) {
                    for (List<String> args : List.of(List.of("verify", "--no-probe"), List.of("verify", "--no-probe", "--all", "-v"),
                            List.of("verify", "--no-probe", "--report"), List.of("verify", "--no-probe", "--json"),
                            List.of("verify", "--no-probe", "--prefix", dir), List.of("rollback", "--list", "--prefix", dir),
                            List.of("rollback", "--list", "--prefix", dir, "--json"), List.of("inspect", dir + "/x.tar.xz"),
                            List.of("explain", pasted), List.of("explain", "--json", pasted), List.of("verify", "--cuda-path", cuda))) {
                        Cli.Run run = Cli.run(m.host(), args.toArray(String[]::new));
                        clean(run.out(), args + " stdout");
                        clean(run.err(), args + " stderr");
                        if (args.contains("explain") && run.exit() != 2 || args.contains("inspect")) {
                            assertTrue((run.out() + run.err()).contains("\\u"), args + ": the hostile text is shown escaped: " + run.out() + run.err());
                        }
                        if (args.contains("--json")) {
                            assertTrue(run.isJson(), run.out() + run.err());
                            run.json(); // still one JSON document
                        }
                    }
                }
            }));
        });
    }

    @Test
    void jsonWritesC1AndBidiControlsAsEscapes() {
        var doc = Json.document("t", 0);
        doc.put("name", "a\u0085b\u202ec\u2066d\u001be\u00e9");
        StringWriter sw = new StringWriter();
        Json.print(new PrintWriter(sw), doc);
        String s = sw.toString();
        assertTrue(s.contains("a\\u0085b\\u202Ec\\u2066d\\u001Be\u00e9"), s);
        assertFalse(s.chars().anyMatch(c -> c != '\n' && c != '\r' && Text.unsafeForTerminal(c)), s);
    }
}
