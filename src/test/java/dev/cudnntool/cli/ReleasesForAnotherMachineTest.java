package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.Machine;
import org.junit.jupiter.api.Test;

/** #30 item 6: the README's example for another machine, run on a machine whose own toolkit is CUDA 13. */
class ReleasesForAnotherMachineTest {
    @Test
    void theReadmesExampleRecommendsForTheMachineDescribedNotThisOne() throws Exception {
        try (Machine m = Machine.linux().toolkit("13.0").gpu("NVIDIA H100", "580.65.06", "9.0").build()) {
            Cli.Run r = Cli.on(m.host()).withCatalogue(Catalogue.bundled()).run("releases", "--driver", "535", "--gpu", "RTX 2080",
                    "--cuda", "12", "--json");
            assertEquals(0, r.exit(), r.err());
            JsonNode pick = null;
            for (JsonNode row : r.json().get("archives")) {
                if (row.get("recommended").asBoolean()) {
                    pick = row;
                }
            }
            assertTrue(pick != null, r.out());
            assertEquals("12", pick.get("cudaVariant").asText(), "--cuda 12, though this machine's toolkit is 13.0");
            assertTrue(pick.get("driverOk").asBoolean(), "535 is above the CUDA 12 minimum");
            assertTrue(!pick.has("toolkitFits"), "this machine's toolkit decides nothing: " + pick);
            String recommended = pick.get("fileName").asText();
            // the same answer on a machine with another toolkit and GPU, and on one with none
            try (Machine other = Machine.linux().toolkit("12.2").gpu("Tesla V100", "575.51.03", "7.0").build();
                 Machine bare = Machine.linux().build()) {
                for (Machine x : new Machine[] {other, bare}) {
                    Cli.Run same = Cli.on(x.host()).withCatalogue(Catalogue.bundled()).run("releases", "--driver", "535", "--gpu",
                            "RTX 2080", "--cuda", "12", "--json");
                    String got = null;
                    for (JsonNode row : same.json().get("archives")) {
                        if (row.get("recommended").asBoolean()) {
                            got = row.get("fileName").asText();
                        }
                    }
                    assertEquals(recommended, got, same.out());
                }
            }
            Cli.Run text = Cli.on(m.host()).withCatalogue(Catalogue.bundled()).run("releases", "--driver", "535", "--gpu", "RTX 2080",
                    "--cuda", "12");
            assertTrue(text.out().contains("* " + recommended) || text.out().contains("*  " + recommended)
                    || text.out().lines().anyMatch(l -> l.contains(recommended) && l.contains("newest that fits what you asked")), text.out());
        }
    }
}
