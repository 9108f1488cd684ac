package dev.cudnntool.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 20 item 8: installing an older release over a newer one says so (install.downgrade, warn). */
class DowngradeTest {
    @TempDir
    Path downloads;

    private static List<Finding> downgrades(InstallOutcome o) {
        return o.findings().stream().filter(f -> f.is(FindingId.INSTALL_DOWNGRADE)).toList();
    }

    @Test
    void anOlderArchiveOverANewerCudnnWarnsAndStillInstalls() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").installed(ArchiveFixture.linux("8.9.7.29", "12")).build()) {
            InstallOutcome dry = m.dryRun(ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads));
            assertEquals(1, downgrades(dry).size(), dry.findings().toString());
            InstallOutcome o = m.install(ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads));
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            Finding f = downgrades(o).get(0);
            assertEquals(Severity.WARN, f.severity());
            assertTrue(f.message().contains("cuDNN 8.9.5.30, older than the cuDNN 8.9.7"), f.message());
        }
    }

    @Test
    void anUpgradeOrTheSameReleaseOrAnEmptyToolkitSaysNothing() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            assertEquals(List.of(), downgrades(m.dryRun(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads))));
            assertEquals(List.of(), downgrades(m.dryRun(ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads))));
        }
        try (Machine m = Machine.linux().toolkit("12.2.20230823").build()) {
            assertEquals(List.of(), downgrades(m.install(ArchiveFixture.linux("8.9.5.30", "12").writeTo(downloads))));
        }
    }
}
