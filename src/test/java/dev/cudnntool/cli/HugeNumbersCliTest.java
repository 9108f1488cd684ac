package dev.cudnntool.cli;

import dev.cudnntool.testing.Cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 18 C 14: numbers of more than nine digits, from the user or from nvidia-smi, are never exit 70. */
class HugeNumbersCliTest {
    static Host machine(String driver) throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Path tk = TestHosts.toolkit(fs.getPath(CliTest.TK), "12.2.20230823");
        Files.write(tk.resolve("bin").resolve("zlibwapi.dll"), PeImages.dll(PeImages.X64, "1.2.3.0"));
        Files.createDirectories(fs.getPath("C:\\Windows\\System32"));
        Files.writeString(fs.getPath("C:\\Windows\\System32\\nvidia-smi.exe"), "MZ");
        FakeRunner smi = new FakeRunner().on("nvidia-smi.exe", NvidiaSmiOutputs.WINDOWS.replace("536.25", driver)
                        .replace("CUDA Version: 12.2", "CUDA Version: 123456789012.2"))
                .on("--query-gpu=name,driver_version --format=csv,noheader", "NVIDIA GeForce RTX 4090, " + driver + "\n");
        return TestHosts.windows(fs, Map.of("CUDA_PATH", CliTest.TK, "PATH", CliTest.TK + "\\bin;C:\\Windows\\System32",
                "SystemRoot", "C:\\Windows"), smi);
    }

    @Test
    void aCudaFilterOfMoreThanNineDigitsIsAUsageError() throws Exception {
        Host host = machine("536.25");
        for (String cuda : new String[] {"12345678901", "12.12345678901", "99999999999999999999"}) {
            Cli.Run r = Cli.on(host).withCatalogue(ReleasesCommandTest.CATALOGUE).run("releases", "--cuda", cuda);
            assertEquals(2, r.exit(), cuda + ": " + r.err());
            assertTrue(r.err().contains("--cuda"), r.err());
        }
    }

    @Test
    void aDriverVersionOfMoreThanNineDigitsIsComparedNotCrashedOn() throws Exception {
        Host host = machine("99999999999.25");
        Cli.Run r = Cli.on(host).withCatalogue(ReleasesCommandTest.CATALOGUE).run("releases", "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }
}
