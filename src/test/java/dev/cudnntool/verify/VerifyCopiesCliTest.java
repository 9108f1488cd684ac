package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.cli.Main;
import dev.cudnntool.cli.ToolContext;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.TestHosts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** B2/B3 through the command line: the {@code copies} JSON shape, {@code --all}, the human listing. */
class VerifyCopiesCliTest {
    static String run(Host host, String... args) {
        StringWriter out = new StringWriter();
        Main.run(new ToolContext(host, new PrintWriter(out), new PrintWriter(new StringWriter()), false), args);
        return out.toString();
    }

    @Test
    void copiesInJsonAndPerCopyFindingsWithAll() throws Exception {
        Host host = CopyFinderTest.machine(TestHosts.unixFs());
        JsonNode doc = new ObjectMapper().readTree(run(host, "verify", "--no-probe", "--json"));
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

        JsonNode all = new ObjectMapper().readTree(run(host, "verify", "--no-probe", "--all", "--json"));
        assertEquals(1, all.get("exitCode").asInt(), "the conda copy is incomplete");
        for (JsonNode c : all.get("copies")) {
            assertTrue(c.get("findings").size() > 0, c.toString());
        }
        String human = run(host, "verify", "--no-probe");
        assertTrue(human.contains("copy      /opt/cudnn/lib/libcudnn.so.9 (path, cuDNN 9.2.1, what programs get by name)"), human);
        assertFalse(human.contains("null"), human);
    }
}
