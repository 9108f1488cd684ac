package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.TestHosts;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** B2/B3 through the command line: the {@code copies} JSON shape, {@code --all}, the human listing. */
class VerifyCopiesCliTest {
    @Test
    void copiesInJsonAndPerCopyFindingsWithAll() throws Exception {
        Host host = CopyFinderTest.machine(TestHosts.unixFs());
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        JsonNode copies = doc.get("copies");
        assertEquals(5, copies.size(), copies.toString());
        Set<String> origins = new TreeSet<>();
        for (JsonNode c : copies) {
            Set<String> fields = new TreeSet<>();
            c.fieldNames().forEachRemaining(fields::add);
            assertTrue(fields.containsAll(Set.of("path", "origin", "winsByName")) && !fields.contains("findings"), fields.toString());
            origins.add(c.get("origin").asText());
        }
        assertEquals(Set.of("target", "pip", "conda", "system", "path"), origins);

        JsonNode all = Cli.run(host, "verify", "--no-probe", "--all", "--json").json();
        assertEquals(1, all.get("exitCode").asInt(), "the conda copy is incomplete");
        for (JsonNode c : all.get("copies")) {
            assertTrue(c.get("findings").size() > 0, c.toString());
        }
        String human = Cli.run(host, "verify", "--no-probe").out();
        assertTrue(human.contains("copy      /opt/cudnn/lib/libcudnn.so.9 (path, cuDNN 9.2.1, what programs get by name)"), human);
        assertFalse(human.contains("null"), human);
    }
}
