package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.install.InstallTimes;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** #30 item 7: rollback --list marks the one install the target holds now; text shows times to the second. */
class RollbackListCurrentTest {
    private static final Pattern TO_THE_SECOND = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

    private static List<Boolean> current(Cli.Run list) {
        List<Boolean> out = new ArrayList<>();
        for (JsonNode e : list.json().get("installs")) {
            assertTrue(e.has("current"), e.toString());
            out.add(e.get("current").asBoolean());
        }
        return out;
    }

    @Test
    void theNewestIntactInstallIsCurrentAChangedOneIsNotAndARollbackMakesTheOneBeforeCurrent() throws Exception {
        Host host = CliTest.windowsMachine();
        Path older = ArchiveFixture.windows("8.9.5.30", "12").writeTo(CliTest.downloads(host));
        Path newer = ArchiveFixture.windows("9.1.0.70", "12").writeTo(CliTest.downloads(host));
        assertEquals(0, Cli.run(host, "install", "--archive", older.toString(), "--no-probe").exit());
        assertEquals(0, Cli.run(host, "install", "--archive", newer.toString(), "--no-probe").exit());

        Cli.Run list = Cli.run(host, "rollback", "--list", "--json");
        assertEquals(List.of(false, true), current(list), list.out());
        String fullDate = list.json().get("installs").get(1).get("date").asText();
        Cli.Run text = Cli.run(host, "rollback", "--list");
        assertTrue(text.out().contains("active* (current)"), text.out());
        assertTrue(text.out().contains(InstallTimes.toSecond(fullDate)), text.out());
        assertTrue(TO_THE_SECOND.matcher(text.out()).find(), text.out());
        assertFalse(Pattern.compile("\\d\\d:\\d\\d:\\d\\d\\.\\d").matcher(text.out()).find(), "no fractions of a second: " + text.out());

        // a file of the newest install changed by hand: the target holds neither install now
        Path header = host.path(CliTest.TK, "include", "cudnn_version.h");
        byte[] before = Files.readAllBytes(header);
        Files.writeString(header, "changed by hand");
        Cli.Run changed = Cli.run(host, "rollback", "--list", "--json");
        assertEquals(List.of(false, false), current(changed), changed.out());
        assertTrue(Cli.run(host, "rollback", "--list").out().contains("(current): none"));
        Files.write(header, before);

        assertEquals(0, Cli.run(host, "rollback").exit());
        Cli.Run after = Cli.run(host, "rollback", "--list", "--json");
        assertEquals(List.of(true), current(after), after.out());
        assertEquals("8.9.5.30", after.json().get("installs").get(0).get("version").asText());
    }

    @Test
    void recordedTimesReadToTheSecondInUtcAndOddTextStaysAsItIs() {
        assertEquals("2026-11-30T09:30:15Z", InstallTimes.toSecond("2026-11-30T09:30:15.123456789Z"));
        assertEquals("2026-11-30T09:30:15Z", InstallTimes.toSecond("2026-11-30T09:30:15.999Z"));
        assertEquals("2026-11-30T09:30:15Z", InstallTimes.toSecond("2026-11-30T09:30:15Z"));
        assertEquals("yesterday", InstallTimes.toSecond("yesterday"));
        assertEquals(null, InstallTimes.toSecond(null));
    }
}
