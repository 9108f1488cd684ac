package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.Machine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** #19 item 19: install warns before replacing files a package manager owns (install.package-owned; --force). */
class PackageOwnedTest {
    @TempDir
    Path downloads;

    private static Machine aptCudnnInTheToolkit() {
        return Machine.linux().toolkit("12.2.20230823")
                .file("/usr/local/cuda-12.2/targets/x86_64-linux/lib/libcudnn.so.8.9.5", "\177ELF old")
                .file("/usr/local/cuda-12.2/targets/x86_64-linux/include/cudnn_version.h", "#define CUDNN_MAJOR 8\n")
                .file("/var/lib/dpkg/info/libcudnn8:amd64.list", "/usr/local/cuda-12.2/targets/x86_64-linux/lib/libcudnn.so.8.9.5\n")
                .file("/var/lib/dpkg/status", "Package: libcudnn8\nVersion: 8.9.5.30-1+cuda12.2\n\n")
                .build();
    }

    private static List<Finding> owned(InstallOutcome o) {
        return o.findings().stream().filter(f -> f.is(FindingId.INSTALL_PACKAGE_OWNED)).toList();
    }

    @Test
    void filesADpkgPackageOwnsStopTheInstallUntilForced() throws Exception {
        try (Machine m = aptCudnnInTheToolkit()) {
            Path old = m.path("/usr/local/cuda-12.2/targets/x86_64-linux/lib/libcudnn.so.8.9.5");
            InstallOutcome o = m.install(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads));
            assertTrue(o.exit() != ExitCode.OK, o.summary());
            Finding f = owned(o).get(0);
            assertEquals(Severity.ERROR, f.severity());
            assertTrue(f.message().contains("the dpkg package libcudnn8 8.9.5.30-1+cuda12.2") && f.message().contains(old.toString()),
                    f.message());
            assertTrue(f.fix().contains("sudo apt-get remove libcudnn8") && f.fix().contains("--force"), f.fix());
            assertEquals("\177ELF old", Files.readString(old), "nothing changed");

            InstallOutcome forced = m.installer().run(new InstallRequest(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads),
                    null, null, null, true, false), ReadProgress.NONE);
            assertEquals(ExitCode.OK, forced.exit(), forced.summary());
            assertEquals(Severity.WARN, owned(forced).get(0).severity());
        }
    }

    @Test
    void filesNoPackageManagerListsAreReplacedWithoutAWord() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823")
                .file("/usr/local/cuda-12.2/targets/x86_64-linux/lib/libcudnn.so.8.9.5", "\177ELF old")
                .file("/var/lib/dpkg/info/libcudnn8:amd64.list", "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.9.5\n").build()) {
            InstallOutcome o = m.install(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads));
            assertEquals(ExitCode.OK, o.exit(), o.summary());
            assertEquals(List.of(), owned(o));
        }
    }

    @Test
    void installsHelpListsEveryErrorForceTurnsIntoAWarning() {
        try (Machine m = Machine.linux().build()) {
            String help = Cli.run(m.host(), "install", "--help").out().replaceAll("\\s+", " ");
            for (FindingId id : Preflight.FORCIBLE) {
                assertTrue(help.contains(id.id()), id.id() + " is missing from --force's help");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
