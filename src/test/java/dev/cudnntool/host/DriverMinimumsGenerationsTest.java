package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** #33 item 3: the newest driver branch per GPU generation, as NVIDIA states it (docs/gpu-generations.md). */
class DriverMinimumsGenerationsTest {
    @Test
    void eachGenerationStopsAtTheBranchNvidiaNames() {
        assertEquals(Optional.of(340), DriverMinimums.newestDriverBranch("1.1")); // GeForce 8 and 9: 340.108
        assertEquals(Optional.of(340), DriverMinimums.newestDriverBranch("1.3"));
        assertEquals(Optional.of(390), DriverMinimums.newestDriverBranch("2.0")); // Fermi: the 390 legacy branch
        assertEquals(Optional.of(390), DriverMinimums.newestDriverBranch("2.1"));
        assertEquals(Optional.of(470), DriverMinimums.newestDriverBranch("3.0")); // Kepler: 470
        assertEquals(Optional.of(470), DriverMinimums.newestDriverBranch("3.5"));
        assertEquals(Optional.of(580), DriverMinimums.newestDriverBranch("5.0")); // Maxwell, Pascal, Volta: 580
        assertEquals(Optional.of(580), DriverMinimums.newestDriverBranch("7.2"));
        assertEquals(Optional.empty(), DriverMinimums.newestDriverBranch("7.5")); // Turing: none yet
        assertEquals(Optional.empty(), DriverMinimums.newestDriverBranch("12.0"));
    }
}
