package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.rollback.StateRepair;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * #29 item 1, the guard over every producer in the source: a string that names cudnn install in main
 * code is built as {@code Fix.reinstall}/{@code Fix.tool} (or is the probe's {@code REINSTALL} text), so
 * no fix that names the tool's command is plain text, which the owner's rule (by kind) would miss.
 * The few uses that are no finding's fix are listed with their reason.
 *
 * <p>#31 item 7: the words are today's ({@code cudnn install}, {@code cudnn rollback}); the old launcher
 * names count too, so a merge that brings back {@code cudnn-install} in a fix is caught as well. A
 * {@code cudnn rollback} in a finding's fix is built by kind as well ({@code Fix.tool}); one in an error's
 * advice ({@code ToolException}, an {@code IOException}'s message), the help text and the views of
 * {@code cli} (which make no findings) is no finding's fix.
 */
class FixTextGuardTest {
    /** file name -> why its mention of cudnn install is no finding's fix. */
    private static final Map<String, String> NOT_A_FIX = Map.of(
            "Fetcher.java", "a ToolException's advice for a download behind NVIDIA's login",
            "ReleaseFetch.java", "a ToolException's advice for a file with no public URL",
            "Render.java", "the verdict line of an empty target",
            "OwnersFixes.java", "the owner's command itself says 'not cudnn install'",
            "LibrarySearchCheck.java#fixLine", "fixLine's words; its callers wrap it in Fix.reinstall",
            "ExplainService.java", "explain's suggestion for a missing cuDNN, from the catalogue",
            "InstallTransaction.java", "the install's summary line (undo with) and a ToolException's advice",
            "StateReader.java", "the repair command DamagedState names as the way out",
            "StateRepair.java#pendingNote", "the repair's summary note");

    /**
     * Lines in an error's construction or an outcome's summary line, not a finding's (a finding's fix is
     * decided by kind, these are not).
     */
    private static final List<String> ERROR_CONSTRUCTORS = List.of("new ToolException(", "new IOException(", "BadArguments",
            "Outcome(", "return nothing(");

    @Test
    void everyFixNamingCudnnInstallIsBuiltByKind() throws IOException {
        List<String> bad = new ArrayList<>();
        int seen = 0;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).strip();
                    if (line.startsWith("*") || line.startsWith("/*") || line.startsWith("//") || !literalNames(line)) {
                        continue;
                    }
                    seen++;
                    String name = f.getFileName().toString();
                    String before = String.join("\n", lines.subList(Math.max(0, i - 3), i + 1));
                    boolean finding = before.contains("Finding.") || before.contains("new Finding(");
                    if (NOT_A_FIX.containsKey(name) && !(finding && names(line, "cudnn rollback"))
                            || name.equals("LibrarySearchCheck.java") && inFixLine(lines, i)
                            || name.equals("StateRepair.java") && before.contains("pendingNote")
                            || !finding && (f.toString().contains("cli") || ERROR_CONSTRUCTORS.stream().anyMatch(before::contains))) {
                        continue;
                    }
                    if (!(before.contains("Fix.reinstall(") || before.contains("Fix.tool(") || before.contains("REINSTALL ="))) {
                        bad.add(f + ":" + (i + 1) + ": " + line);
                    }
                }
            }
        }
        assertTrue(seen >= 15, "the scan reads the sources: " + seen);
        assertTrue(bad.isEmpty(), "fixes naming cudnn install as plain text:\n" + String.join("\n", bad));
    }

    private static boolean literalNames(String line) {
        return names(line, "cudnn install") || names(line, "cudnn rollback")
                || names(line, "cudnn-install") || names(line, "cudnn-rollback");
    }

    private static boolean names(String line, String words) {
        int q = line.indexOf('"');
        return q >= 0 && line.indexOf(words, q) > q;
    }

    private static boolean inFixLine(List<String> lines, int i) {
        for (int k = i; k >= Math.max(0, i - 8); k--) {
            if (lines.get(k).contains("static String fixLine(")) {
                return true;
            }
        }
        return false;
    }
}
