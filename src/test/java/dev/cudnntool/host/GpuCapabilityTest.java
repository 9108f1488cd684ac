package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #20 item 4: --gpu reads a compute capability or a common GPU name. */
class GpuCapabilityTest {
    @Test
    void computeCapabilitiesInEverySpelling() {
        Map<String, String> cases = Map.of("6.1", "6.1", "sm_61", "6.1", "SM61", "6.1", "compute_90a", "9.0", "sm_120", "12.0",
                "sm_100", "10.0", " 7.5 ", "7.5", "12.0", "12.0");
        cases.forEach((word, cc) -> {
            GpuCapability g = GpuCapability.parse(word);
            assertEquals(cc, g.computeCapability(), word);
            assertNull(g.name(), word);
        });
    }

    @Test
    void namesAsPeopleAndNvidiaSmiWriteThem() {
        Map<String, String> cases = Map.of("RTX 2080", "7.5", "NVIDIA GeForce RTX 2080 Ti", "7.5", "gtx1080", "6.1",
                "NVIDIA A100-SXM4-80GB", "8.0", "A10G", "8.6", "NVIDIA H100 80GB HBM3", "9.0", "L40S", "8.9", "l4", "8.9",
                "Tesla T4", "7.5", "GeForce RTX 5090", "12.0");
        cases.forEach((word, cc) -> assertEquals(cc, GpuCapability.parse(word).computeCapability(), word));
        assertEquals("GeForce RTX 2080 Ti", GpuCapability.parse("rtx 2080ti").name(), "the longer name wins");
    }

    @Test
    void anythingElseIsAUsageError() {
        for (String w : List.of("RTX A1000", "Voodoo 5", "", "nvidia", "0.5", "sm_05", "6.1.2", "sm_6")) {
            ToolException e = assertThrows(ToolException.class, () -> GpuCapability.parse(w), w);
            assertEquals(ExitCode.USAGE, e.exitCode(), w);
        }
    }
}
