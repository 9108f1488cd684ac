package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Text;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.Seeds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 18 "done when": seeded generators of hostile argument strings (control characters, line
 * breaks, lone surrogates, '@' words, huge and signed numbers, option look-alikes, very long
 * words) given to every option of every command that takes a value, with and without --json.
 * Every run ends with a documented exit code other than 70, at most one line on standard error
 * holding no raw control character and no stack trace, and with --json exactly one JSON document
 * on standard output whose exitCode is the process's. Replay a run with -Dcudnn.seed=N (dev.cudnntool.testing.Seeds).
 */
class HostileArgumentsPropertyTest {
    private static final long SEED = Seeds.seed(18L);
    private static final int TRIES = Seeds.tries(80, 2000);

    /** Each command with the options that take a value; "" is the command's positional argument. */
    private static final List<String[]> SLOTS = List.of(
            new String[] {"install", "--archive"}, new String[] {"install", "--sha256"}, new String[] {"install", "--manifest"},
            new String[] {"install", "--cuda-path"}, new String[] {"install", "--prefix"},
            new String[] {"verify", "--expect"}, new String[] {"verify", "--cuda-path"}, new String[] {"verify", "--prefix"},
            new String[] {"rollback", "--id"}, new String[] {"rollback", "--prefix"},
            new String[] {"inspect", ""}, new String[] {"inspect", "--sha256"},
            new String[] {"releases", "--cuda"}, new String[] {"releases", "--os"}, new String[] {"releases", "--arch"});

    private static final String[] PIECES = {"\n", "\r\n", "\t", "\u0000", "\u001b[31m", "\u007f", "\u0085", "\u2028", "\ud800",
        "\udc00", "@", "@/etc/shadow", "--", "--json", "-", "=", "#", ";", "%PATH%", "$HOME", "..", "/", "\\", "C:\\", "'", "\"",
        "99999999999999999999", "-1", "0x10", "12.", ".4", "9.5.1", "12.4", "cuda12", "\u00e9", "\u4e2d", "\ud83d\ude00",
        " ", "x"};

    static String hostileWord(Random r) {
        StringBuilder b = new StringBuilder();
        int parts = 1 + r.nextInt(5);
        for (int i = 0; i < parts; i++) {
            b.append(PIECES[r.nextInt(PIECES.length)]);
        }
        if (r.nextInt(10) == 0) {
            b.append("a".repeat(5000 + r.nextInt(5000))); // very long
        }
        return b.toString();
    }

    @TestFactory
    Stream<DynamicTest> everyHostileArgumentEndsDocumentedInOneLine() {
        Set<Integer> documented = Arrays.stream(ExitCode.values()).map(ExitCode::code).collect(Collectors.toSet());
        List<DynamicTest> cases = new ArrayList<>();
        for (int i = 0; i < TRIES; i++) {
            final int at = i;
            long seed = Seeds.caseSeed(SEED, i);
            Random r = new Random(seed);
            String[] slot = SLOTS.get(r.nextInt(SLOTS.size()));
            String word = hostileWord(r);
            boolean json = r.nextBoolean();
            List<String> args = new ArrayList<>(List.of(slot[0]));
            if (!slot[1].isEmpty()) {
                args.add(slot[1]);
            }
            args.add(word);
            if (json) {
                args.add("--json");
            }
            String shown = args.stream().map(Text::printable).collect(Collectors.joining(" "));
            cases.add(DynamicTest.dynamicTest("seed " + seed + ": " + (shown.length() > 80 ? shown.substring(0, 80) + "…" : shown),
                    Seeds.replayable("HostileArgumentsPropertyTest", SEED, at, () -> {
                Cli.Run run = assertTimeoutPreemptively(Duration.ofSeconds(30),
                        () -> Cli.run(ArgumentHardeningTest.linux(), args.toArray(String[]::new)));
                assertTrue(documented.contains(run.exit()), "undocumented exit " + run.exit());
                assertNotEquals(ExitCode.INTERNAL.code(), run.exit(), run.err());
                String err = run.err().strip();
                assertTrue(err.lines().count() <= 1, "one line on stderr: " + err);
                assertFalse(err.contains("\tat "), "no stack trace: " + err);
                assertTrue(err.chars().noneMatch(c -> c < 0x20 && c != '\t' || c == 0x7f), "no raw control character: " + err);
                if (json) {
                    JsonNode doc = run.json();
                    assertEquals(run.exit(), doc.get("exitCode").asInt(), run.out());
                    if (run.exit() != 0 && run.exit() != 1) { // a failure says why: an error, or a summary with findings
                        JsonNode error = doc.get("error");
                        JsonNode summary = doc.get("summary");
                        assertTrue(error != null && !error.get("message").asText().isEmpty()
                                || summary != null && !summary.asText().isEmpty(), "says why: " + run.out());
                    }
                }
            })));
        }
        return cases.stream();
    }
}
