package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.TreeSnapshot;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code changed} in the install and rollback JSON: what a configuration tool (Ansible) reports. */
class ChangedJsonTest {
    static JsonNode json(Host host, String... args) throws Exception {
        Cli.Run r = Cli.run(host, args);
        return r.json();
    }

    @Test
    void installAndRollbackSayWhetherTheyChangedTheToolkit() throws Exception {
        Host host = CliTest.windowsMachine();
        Path a = ArchiveFixture.windows("9.5.1.17", "12").writeTo(CliTest.downloads(host));
        String tk = CliTest.TK;
        JsonNode dry = json(host, "install", "--archive", a.toString(), "--no-probe", "--dry-run", "--json");
        assertTrue(dry.get("changed").asBoolean(), dry.toString());
        JsonNode first = json(host, "install", "--archive", a.toString(), "--no-probe", "--json");
        assertEquals(0, first.get("exitCode").asInt(), first.toString());
        assertTrue(first.get("changed").asBoolean());
        assertTrue(first.has("installId"));
        Map<String, String> installed = TreeSnapshot.of(host.path(tk));

        JsonNode second = json(host, "install", "--archive", a.toString(), "--no-probe", "--json");
        assertEquals(0, second.get("exitCode").asInt(), second.toString());
        assertFalse(second.get("changed").asBoolean());
        assertFalse(second.has("installId"), "no history record");
        assertEquals("cuDNN 9.5.1 is already installed in " + tk + " (nothing to do)", second.get("summary").asText());
        assertEquals(installed, TreeSnapshot.of(host.path(tk)));
        Cli.Run human = Cli.run(host, "install", "--archive", a.toString(), "--no-probe");
        assertTrue(human.out().contains("(nothing to do)"), human.out());
        assertFalse(json(host, "install", "--archive", a.toString(), "--no-probe", "--dry-run", "--json").get("changed").asBoolean());

        assertFalse(json(host, "rollback", "--dry-run", "--json").get("changed").asBoolean());
        JsonNode rb = json(host, "rollback", "--json");
        assertEquals(0, rb.get("exitCode").asInt(), rb.toString());
        assertTrue(rb.get("changed").asBoolean());
        JsonNode nothing = json(host, "rollback", "--json");
        assertEquals(8, nothing.get("exitCode").asInt());
        assertFalse(nothing.get("changed").asBoolean());
    }
}
