package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** #19 B20: cudnn verify --report, Markdown for a bug report with nothing of the environment but the search variables. */
class VerifyReportMarkdownTest {
    @TempDir
    Path downloads;

    @Test
    void theReportNamesMachineDriverToolkitCopiesAndFindingsAndOnlyTheSearchVariables() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.2.20230823").driver(NvidiaSmiOutputs.R535)
                .env("LD_LIBRARY_PATH", "/usr/local/cuda-12.2/lib64")
                .env("AWS_SECRET_ACCESS_KEY", "do-not-print-me").env("HOME", "/home/me").build()) {
            m.install(ArchiveFixture.linux("8.9.7.29", "12").writeTo(downloads));
            Cli.Run r = Cli.run(m.host(), "verify", "--no-probe", "--report");
            String md = r.out();
            assertEquals(1, r.exit(), md); // the fixture's libraries are not ELF files: damaged, said in the findings
            assertTrue(md.startsWith("### cuDNN report (") && md.lines().findFirst().orElseThrow().endsWith(", `cudnn verify --report`)"), md);
            assertTrue(md.contains("- **Result:** 7 error(s) (exit 1)"), md);
            assertTrue(md.contains("- error `cudnn.damaged-file`: ") && md.contains(" — fix: replace it"), md);
            assertTrue(md.contains("- **Driver:** `535."), md);
            assertTrue(md.contains("- **Toolkits:**\n  - `/usr/local/cuda` CUDA `12.2` (verified)"), md);
            assertTrue(md.contains("| `/usr/local/cuda-12.2/targets/x86_64-linux/lib/libcudnn.so.8` | `8.9.7"), md);
            assertTrue(md.contains("| target | cudnn-tool | yes |"), md);
            assertTrue(md.contains("- info `driver.ok`: "), md);
            assertTrue(md.contains("- LD_LIBRARY_PATH: `/usr/local/cuda-12.2/lib64`") && md.contains("- CUDA_HOME: (unset)"), md);
            assertFalse(md.contains("do-not-print-me") || md.contains("AWS_SECRET") || md.contains("/home/me"), "no environment dump");
            assertEquals(md, Cli.run(m.host(), "verify", "--no-probe", "--report", "--json").json().get("report").asText());
        }
    }

    @Test
    void theReportCarriesEachGpusComputeCapability() throws Exception {
        // #33 item 6: what a maintainer asks first for a CUDA 13 build on an old GPU
        try (Machine m = Machine.linux().driver(NvidiaSmiOutputs.R580).gpu("Tesla P100-PCIE-16GB", "580.65.06", "6.0").build()) {
            String md = Cli.run(m.host(), "verify", "--no-probe", "--report").out();
            assertTrue(md.contains("  - GPU `Tesla P100-PCIE-16GB`, compute capability `6.0`"), md);
        }
    }

    @Test
    void aHostileValueCannotBreakTheMarkdown() throws Exception {
        try (Machine m = Machine.linux().env("LD_LIBRARY_PATH", "/x`\n# Injected | heading\u001b[31m").build()) {
            String md = Cli.run(m.host(), "verify", "--no-probe", "--report").out();
            String line = md.lines().filter(l -> l.startsWith("- LD_LIBRARY_PATH: ")).findFirst().orElseThrow();
            assertTrue(line.startsWith("- LD_LIBRARY_PATH: `/x'") && line.endsWith("`"), line);
            assertFalse(md.lines().anyMatch(l -> l.startsWith("# Injected")), md);
            assertFalse(md.contains("\u001b"), "no terminal escape");
        }
    }
}
