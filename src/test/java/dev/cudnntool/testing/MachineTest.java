package dev.cudnntool.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The machine builder lays out what its description says, and nothing else. */
class MachineTest {
    @Test
    void aLinuxToolkitIsLaidOutAsNvidiasInstallerLeavesIt() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            assertEquals(m.path("/usr/local/cuda-12.2"), m.toolkit());
            assertTrue(Files.readString(m.toolkit().resolve("version.json")).contains("\"12.2.20230823\""));
            assertEquals("targets/x86_64-linux/lib", Files.readSymbolicLink(m.toolkit().resolve("lib64")).toString());
            assertEquals("cuda-12.2", Files.readSymbolicLink(m.path("/usr/local/cuda")).toString());
            assertEquals("not cudnn", Files.readString(m.toolkit().resolve("lib64/libcudart.so.12")));
            assertEquals("/usr/local/cuda/lib64", m.host().env("LD_LIBRARY_PATH"));
            assertNull(m.host().env("PATH"), "no PATH unless described");
            assertNull(m.host().env("CUDA_PATH"));
            assertEquals(m.toolkit(), m.toolkitTarget().root());
        }
    }

    @Test
    void aWindowsToolkitSetsCudaPathAndLeadsPathAsTheInstallerDoes() throws Exception {
        try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
            String tk = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2";
            assertEquals(m.path(tk), m.toolkit());
            assertEquals(tk, m.host().env("CUDA_PATH"));
            assertEquals(tk + "\\bin;C:\\Windows\\System32", m.host().env("PATH"));
            assertEquals("C:\\Windows", m.host().env("SystemRoot"));
            assertTrue(Files.isDirectory(m.toolkit().resolve("lib\\x64")));
            assertTrue(Files.isDirectory(m.path("C:\\Windows\\System32")));
            assertEquals("not cudnn", Files.readString(m.toolkit().resolve("bin\\cudart64_12.dll")));
            assertEquals('M', Files.readAllBytes(m.toolkit().resolve("bin\\zlibwapi.dll"))[0]);
        }
    }

    @Test
    void theDriverIsAProgramWhereNvidiaPutsItThatAnswersWithItsOutput() throws Exception {
        try (Machine m = Machine.linux().driver(NvidiaSmiOutputs.R535).build()) {
            assertTrue(Files.isRegularFile(m.path("/usr/bin/nvidia-smi")));
            assertEquals(NvidiaSmiOutputs.R535, m.host().runner().run(List.of("/usr/bin/nvidia-smi"), Duration.ofSeconds(1)).out());
            assertEquals(1, m.runner().calls.size());
        }
    }

    @Test
    void cudnnInstalledByTheToolLeavesARecordAndNoArchive() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
            assertTrue(Files.isSymbolicLink(m.toolkit().resolve("lib64/libcudnn.so.8")));
            assertEquals(1, m.rollbacks().list(m.toolkitTarget()).size());
            try (Stream<?> left = Files.list(m.path("/tmp"))) {
                assertFalse(left.findAny().isPresent(), "the archive does not stay on the machine");
            }
        }
    }
}
