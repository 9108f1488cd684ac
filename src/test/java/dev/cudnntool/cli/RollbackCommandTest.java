package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.ArchiveFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** cudnn rollback with damaged state, as a user and a script see it: exit 8 in one line, then --repair. */
class RollbackCommandTest {
    @Test
    void aTruncatedRecordIsOneLineExit8AndRepairLeavesTheTargetInstallable() throws Exception {
        Host host = CliTest.windowsMachine();
        Path archive = ArchiveFixture.windows("8.9.5.30", "12").writeTo(CliTest.downloads(host));
        Cli.Run inst = Cli.run(host, "install", "--archive", archive.toString(), "--no-probe");
        assertEquals(0, inst.exit(), inst.out() + inst.err());
        Path history = host.path(CliTest.TK, ".cudnn-tool", "history");
        Path record;
        try (var l = Files.list(history)) {
            record = l.findFirst().orElseThrow().resolve("install.json");
        }
        String text = Files.readString(record);
        Files.writeString(record, text.substring(0, text.length() / 2));

        Cli.Run refused = Cli.run(host, "rollback");
        assertEquals(8, refused.exit(), refused.err());
        assertEquals(1, refused.err().strip().lines().count(), refused.err());
        assertTrue(refused.err().contains(record.toString()) && refused.err().contains("cudnn rollback --repair"), refused.err());
        assertFalse(refused.err().contains("[Source") || refused.err().contains("null"), refused.err());
        Cli.Run json = Cli.run(host, "rollback", "--json");
        assertEquals(8, json.json().get("exitCode").asInt());
        Cli.Run list = Cli.run(host, "rollback", "--list", "--json");
        assertEquals("damaged", list.json().get("installs").get(0).get("state").asText(), list.out());

        Cli.Run repaired = Cli.run(host, "rollback", "--repair", "--json");
        assertEquals(0, repaired.exit(), repaired.out() + repaired.err());
        assertTrue(repaired.json().get("summary").asText().contains("could not account for"), repaired.out());
        assertTrue(repaired.json().get("findings").toString().contains("rollback.unaccounted"), repaired.out());
        assertEquals(2, Cli.run(host, "rollback", "--repair", "--force").exit());
        Cli.Run again = Cli.run(host, "install", "--archive", archive.toString(), "--no-probe");
        assertEquals(0, again.exit(), again.err());
    }
}
