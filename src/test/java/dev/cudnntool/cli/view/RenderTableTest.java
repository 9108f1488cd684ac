package dev.cudnntool.cli.view;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.rollback.RollbackEntry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code rollback --list}: every column starts at the same place on every line, whatever the values. */
class RenderTableTest {

    static List<String> render(List<RollbackEntry> entries) {
        StringWriter w = new StringWriter();
        PrintWriter out = new PrintWriter(w);
        Render.installs(out, entries);
        out.flush();
        return w.toString().lines().toList();
    }

    /** Where each of the five columns starts on a line, found by the heading positions. */
    static void assertAligned(List<String> lines, List<RollbackEntry> entries) {
        String head = lines.get(0);
        int[] at = {0, head.indexOf("DATE"), head.indexOf("VERSION"), head.indexOf("STATE"), head.indexOf("ARCHIVE")};
        for (int i = 0; i < entries.size(); i++) {
            var e = entries.get(i);
            String line = lines.get(i + 1);
            String[] cells = {e.id(), e.date(), e.version() == null ? "-" : e.version(),
                e.state() + (e.newest() ? "*" : ""), e.archive() == null ? "-" : e.archive()};
            for (int c = 0; c < cells.length; c++) {
                assertEquals(cells[c], line.substring(at[c], at[c] + cells[c].length()), "column " + c + " of: " + line);
                if (c > 0) {
                    assertEquals(' ', line.charAt(at[c] - 1), "a space before column " + c + " of: " + line);
                }
            }
        }
    }

    @Test
    void aWindowsTimestampOfThirtyCharactersKeepsTheColumnsInLine() {
        var entries = List.of(
                new RollbackEntry("20261130T093015Z-1a2b", "2026-11-30T09:30:15.123456789Z", "8.9.5.30",
                        "cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip", "active", false, 12, 3),
                new RollbackEntry("20261130T101500Z-ffff", "2026-11-30T10:15:00Z", "9.5.1.17",
                        "cudnn-windows-x86_64-9.5.1.17_cuda12-archive.zip", "active", true, 20, 12));
        List<String> lines = render(entries);
        assertEquals(30, entries.get(0).date().length());
        assertAligned(lines, entries);
        assertTrue(lines.get(lines.size() - 1).startsWith("* the newest"), lines.toString());
    }

    @Test
    void longIdsVersionsAndMissingValuesLineUpToo() {
        var entries = List.of(
                new RollbackEntry("an-id-that-is-much-longer-than-twenty-six-characters", "2026-11-30T09:30:15Z", null,
                        null, "unfinished", false, 0, 0),
                new RollbackEntry("short", "", "10.20.30.4000-long-version", "x.zip", "active", true, 1, 1));
        assertAligned(render(entries), entries);
    }

    @Test
    void rollbackSaysWhatItDidToTheSearchPath() {
        StringWriter w = new StringWriter();
        PrintWriter out = new PrintWriter(w);
        Render.searchPath(out, List.of(Finding.info(FindingId.ROLLBACK_SEARCH_PATH,
                "HKCU\\Environment\\Path was changed since the install: only the entry it added (C:\\cudnn\\bin) was removed"),
                Finding.info(FindingId.INSTALL_ADD_TO_PATH, "not this")));
        out.flush();
        assertEquals("search path: HKCU\\Environment\\Path was changed since the install: only the entry it added"
                + " (C:\\cudnn\\bin) was removed" + System.lineSeparator(), w.toString());
    }
}
