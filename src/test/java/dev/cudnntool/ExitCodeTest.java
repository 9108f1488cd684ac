package dev.cudnntool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README's "Exit codes" table and {@link ExitCode} say the same, both ways. */
class ExitCodeTest {
    private static final Pattern ROW = Pattern.compile("^\\| (\\d+) \\| (.+) \\|$");

    /** code → meaning, from the table under "## Exit codes" in the README. */
    static Map<Integer, String> readmeTable() throws Exception {
        List<String> lines = Files.readAllLines(Paths.get(System.getProperty("basedir", System.getProperty("user.dir")), "README.md"));
        int start = lines.indexOf("## Exit codes");
        assertTrue(start >= 0, "the README has a section \"## Exit codes\"");
        Map<Integer, String> table = new LinkedHashMap<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                assertFalse(table.containsKey(Integer.valueOf(m.group(1))), "code " + m.group(1) + " twice in the README");
                table.put(Integer.valueOf(m.group(1)), m.group(2));
            }
        }
        return table;
    }

    @Test
    void theReadmeTableListsEveryExitCodeInOrderAndNothingElse() throws Exception {
        List<Integer> codes = new ArrayList<>();
        for (ExitCode c : ExitCode.values()) {
            codes.add(c.code());
        }
        assertEquals(codes, new ArrayList<>(readmeTable().keySet()));
    }

    @Test
    void eachReadmeMeaningBeginsWithTheCodesSummary() throws Exception {
        Map<Integer, String> table = readmeTable();
        for (ExitCode c : ExitCode.values()) {
            String meaning = table.get(c.code());
            assertTrue(meaning != null && meaning.startsWith(c.summary())
                    && (meaning.length() == c.summary().length() || " :,(".indexOf(meaning.charAt(c.summary().length())) >= 0),
                    c + ": the README says \"" + meaning + "\", which should begin with \"" + c.summary() + "\"");
        }
    }

    @Test
    void codesAreDistinct() {
        assertEquals(ExitCode.values().length, Arrays.stream(ExitCode.values()).mapToInt(ExitCode::code).distinct().count());
    }
}
