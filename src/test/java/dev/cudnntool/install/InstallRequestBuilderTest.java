package dev.cudnntool.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.host.searchpath.SearchPathStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Requests are built by name; outcomes change one part at a time (issue 29 item 3). */
class InstallRequestBuilderTest {
    @Test
    void aRequestBuiltByNameIsTheOneThePositionsWouldMake() {
        Path a = Path.of("cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz");
        InstallRequest built = InstallRequest.builder().archive(a).prefix(Path.of("/opt/cudnn")).force(true).dryRun(true)
                .addToPath(SearchPathStore.Scope.USER).build();
        assertEquals(new InstallRequest(a, null, null, Path.of("/opt/cudnn"), true, true, SearchPathStore.Scope.USER, null), built);
        assertEquals(built, built.toBuilder().build());
        InstallRequest real = built.toBuilder().dryRun(false).build();
        assertFalse(real.dryRun());
        assertEquals(built.prefix(), real.prefix());
        InstallRequest none = InstallRequest.builder().build();
        assertNull(none.archive());
        assertFalse(none.force());
    }

    @Test
    void withFindingsChangesOnlyTheFindings() {
        InstallOutcome o = new InstallOutcome(ExitCode.OK, "installed", null, null, null, null, List.of());
        Finding f = Finding.warn(FindingId.INSTALL_FAILED, "m", "fix");
        InstallOutcome more = o.withFindings(List.of(f));
        assertEquals(List.of(f), more.findings());
        assertEquals(o.summary(), more.summary());
        assertEquals(o.exit(), more.exit());
        assertTrue(o.findings().isEmpty());
        assertFalse(o.changed(false)); // no record: a real run changed nothing
        assertFalse(new InstallOutcome(ExitCode.HOST_NOT_READY, "not installed", null, null, null, null, List.of()).changed(true));
        assertTrue(new InstallOutcome(ExitCode.ROLLBACK_FAILED, "undo failed", null, null, null, null, List.of()).changed(false));
    }
}
