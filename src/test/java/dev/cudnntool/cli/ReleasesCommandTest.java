package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.NvidiaSmiOutputs;
import dev.cudnntool.testing.TestHosts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** cudnn releases: the catalogue for a platform, newest first, marked against the toolkit and driver found. */
class ReleasesCommandTest {
    static final Catalogue CATALOGUE = Catalogue.of(List.of(
            CatalogueEntry.of("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip", "1".repeat(64), 700_000_000L),
            CatalogueEntry.of("cudnn-windows-x86_64-9.1.0.70_cuda11-archive.zip", "2".repeat(64), null),
            CatalogueEntry.of("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", "3".repeat(64), null),
            CatalogueEntry.of("cudnn-windows-x86_64-9.12.0.46_cuda13-archive.zip", "4".repeat(64), null),
            CatalogueEntry.of("cudnn-linux-sbsa-9.5.1.17_cuda12-archive.tar.xz", "5".repeat(64), null),
            CatalogueEntry.of("cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz", "6".repeat(64), null),
            CatalogueEntry.of("cudnn-linux-sbsa-8.3.2.44_cuda11.5-archive.tar.xz", "7".repeat(64), null)));

    /** Linux x86_64 archives as NVIDIA's redist manifests list them, and a legacy one only behind the login. */
    static final Catalogue REDIST = Catalogue.of(List.of(
            CatalogueEntry.of("cudnn-linux-x86_64-9.13.0.50_cuda13-archive.tar.xz", "1".repeat(64), 641_302_680L).withRedist(true),
            CatalogueEntry.of("cudnn-linux-x86_64-9.13.0.50_cuda12-archive.tar.xz", "2".repeat(64), 873_944_756L).withRedist(true),
            CatalogueEntry.of("cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz", "3".repeat(64), 861_488_496L).withRedist(true),
            CatalogueEntry.of("cudnn-linux-sbsa-9.13.0.50_cuda12-archive.tar.xz", "4".repeat(64), null).withRedist(true),
            CatalogueEntry.of("cudnn-10.2-linux-x64-v7.6.5.32.tgz", "5".repeat(64), null)));
    static final String URL_9_13_CUDA12 = "https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-x86_64/"
            + "cudnn-linux-x86_64-9.13.0.50_cuda12-archive.tar.xz";

    static List<String> names(JsonNode archives) {
        List<String> out = new ArrayList<>();
        archives.forEach(a -> out.add(a.get("fileName").asText()));
        return out;
    }

    @Test
    void thisMachinesArchivesNewestFirstMarkedAgainstToolkitAndDriver() throws Exception {
        Host host = CliTest.windowsMachine(); // toolkit 12.2, driver 536.25
        Cli.Run r = Cli.on(host).withCatalogue(CATALOGUE).run("releases", "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode j = r.json();
        assertEquals("releases", j.get("command").asText());
        assertEquals("windows", j.get("filter").get("os").asText());
        assertEquals("12.2", j.get("toolkit").get("version").asText());
        assertEquals("536.25", j.get("driver").get("driverVersion").asText());
        JsonNode a = j.get("archives");
        assertEquals(List.of("cudnn-windows-x86_64-9.12.0.46_cuda13-archive.zip", "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip",
                "cudnn-windows-x86_64-9.1.0.70_cuda11-archive.zip", "cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip"), names(a));
        JsonNode cuda13 = a.get(0);
        assertFalse(cuda13.get("toolkitFits").asBoolean());
        assertFalse(cuda13.get("driverOk").asBoolean(), "536.25 is below 580");
        assertEquals("580", cuda13.get("driverMinimum").asText());
        JsonNode pick = a.get(1);
        assertTrue(pick.get("toolkitFits").asBoolean() && pick.get("driverOk").asBoolean());
        assertTrue(pick.get("recommended").asBoolean());
        assertFalse(a.get(0).get("recommended").asBoolean());
        assertFalse(a.get(2).get("toolkitFits").asBoolean());
        assertEquals(700_000_000L, a.get(3).get("size").asLong());
        assertEquals("1".repeat(64), a.get(3).get("sha256").asText());
        Cli.Run human = Cli.on(host).withCatalogue(CATALOGUE).run("releases");
        assertTrue(human.out().contains("* cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip"), human.out());
        assertTrue(human.out().contains("driver too old (needs 580)"), human.out());
    }

    @Test
    void anotherPlatformAndACudaVersionFilterWithoutMarks() throws Exception {
        Host host = CliTest.windowsMachine();
        Cli.Run r = Cli.on(host).withCatalogue(CATALOGUE).run("releases", "--os", "linux", "--arch", "aarch64sbsa", "--cuda", "12", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode a = r.json().get("archives");
        assertEquals(List.of("cudnn-linux-sbsa-9.5.1.17_cuda12-archive.tar.xz"), names(a));
        assertFalse(a.get(0).has("toolkitFits"), "another OS: this machine's toolkit says nothing");
        assertFalse(r.json().has("driver"));
        Cli.Run minor = Cli.on(host).withCatalogue(CATALOGUE).run("releases", "--os", "linux", "--arch", "sbsa", "--cuda", "11.4", "--json");
        assertEquals(List.of(), names(minor.json().get("archives")), "an 11.5 build is not offered for 11.4");
        Cli.Run eleven = Cli.on(host).withCatalogue(CATALOGUE).run("releases", "--os", "linux", "--arch", "sbsa", "--cuda", "11", "--json");
        assertEquals(List.of("cudnn-linux-sbsa-8.3.2.44_cuda11.5-archive.tar.xz"), names(eleven.json().get("archives")));
    }

    @Test
    void badFiltersAreUsageErrors() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Cli.Run help = Cli.on(host).withCatalogue(CATALOGUE).run("releases", "--help");
        assertEquals(0, help.exit());
        assertTrue(help.out().contains("Usage: cudnn releases") && help.out().contains("--json"), help.out());
        assertTrue(Cli.on(host).withCatalogue(CATALOGUE).run("--help").out().contains("releases"), "listed by the root command");
        for (String[] args : List.of(new String[] {"--cuda", "twelve"}, new String[] {"--os", "beos"}, new String[] {"--arch", "mips"})) {
            List<String> all = new ArrayList<>(List.of("releases"));
            all.addAll(List.of(args));
            Cli.Run r = Cli.on(host).withCatalogue(CATALOGUE).run(all.toArray(String[]::new));
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().startsWith("releases: error: ") && r.err().contains("; fix: "), r.err());
        }
    }

    @Test
    void theRealCatalogueAnswersWhichFileForCuda124OnWindows() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Cli.Run r = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--os", "windows", "--cuda", "12.4", "--json");
        JsonNode a = r.json().get("archives");
        assertEquals("cudnn-windows-x86_64-9.27.0.42_cuda12-archive.zip", a.get(0).get("fileName").asText());
        assertTrue(a.get(0).get("recommended").asBoolean());
        for (JsonNode e : a) {
            assertEquals("windows", e.get("os").asText());
            assertTrue(e.get("cudaVariant").asText().startsWith("12"), e.toString());
        }
    }

    @Test
    void anExplicitCudaDecidesTheToolkitFitInsteadOfTheToolkitFound() throws Exception {
        try (Machine m = Machine.linux().toolkit("13.0.20250801").driver(NvidiaSmiOutputs.R580).build()) {
            Cli.Run r = Cli.on(m.host()).withCatalogue(REDIST).run("releases", "--os", "linux", "--cuda", "12.4", "--json");
            assertEquals(0, r.exit(), r.err());
            JsonNode a = r.json().get("archives");
            assertEquals(List.of("cudnn-linux-x86_64-9.13.0.50_cuda12-archive.tar.xz", "cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz"),
                    names(a));
            for (JsonNode row : a) {
                assertFalse(row.has("toolkitFits") && !row.get("toolkitFits").asBoolean(), "the 13.0 toolkit found says nothing: " + row);
            }
            assertTrue(a.get(0).get("recommended").asBoolean(), a.toString());
            assertEquals(URL_9_13_CUDA12, a.get(0).get("url").asText());
            assertFalse(r.json().has("toolkit"), "the toolkit found is not what was asked");
            Cli.Run human = Cli.on(m.host()).withCatalogue(REDIST).run("releases", "--os", "linux", "--cuda", "12.4");
            assertFalse(human.out().contains("not for toolkit"), human.out());
            assertTrue(human.out().contains("* cudnn-linux-x86_64-9.13.0.50_cuda12-archive.tar.xz"), human.out());
            assertTrue(human.out().contains("newest that fits what you asked"), human.out());
            assertTrue(human.out().contains("\n      " + URL_9_13_CUDA12 + "\n"), "the URL on a line of its own: " + human.out());
        }
    }

    @Test
    void driverDecidesTheDriverFitInsteadOfNvidiaSmi() throws Exception {
        Host host = CliTest.windowsMachine(); // toolkit 12.2, driver 536.25
        Cli.Run r = Cli.on(host).withCatalogue(CATALOGUE).run("releases", "--driver", "580.88", "--json");
        assertEquals(0, r.exit(), r.err());
        assertEquals("580.88", r.json().get("driver").get("driverVersion").asText());
        assertEquals("580.88", r.json().get("filter").get("driver").asText());
        JsonNode cuda13 = r.json().get("archives").get(0);
        assertEquals("cudnn-windows-x86_64-9.12.0.46_cuda13-archive.zip", cuda13.get("fileName").asText());
        assertTrue(cuda13.get("driverOk").asBoolean(), "580.88 meets 580, whatever this machine's 536.25 says");

        Cli.Run linux = Cli.on(host).withCatalogue(REDIST).run("releases", "--os", "linux", "--driver", "535.104.05", "--json");
        JsonNode a = linux.json().get("archives");
        assertFalse(a.get(0).get("driverOk").asBoolean(), "CUDA 13 needs 580.65.06 on Linux");
        assertTrue(a.get(1).get("driverOk").asBoolean() && a.get(1).get("recommended").asBoolean(), a.toString());
        assertFalse(linux.json().get("thisMachine").asBoolean());

        Cli.Run bad = Cli.on(host).withCatalogue(CATALOGUE).run("releases", "--driver", "latest");
        assertEquals(2, bad.exit(), bad.err());
        assertTrue(bad.err().startsWith("releases: error: --driver latest is not a driver version; fix: "), bad.err());
    }

    @Test
    void aForeignArchIsNeverStarredAsFittingThisMachine() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.4.20240301").driver(NvidiaSmiOutputs.R580).build()) {
            Cli.Run sbsa = Cli.on(m.host()).withCatalogue(REDIST).run("releases", "--arch", "sbsa");
            assertEquals(0, sbsa.exit(), sbsa.err());
            assertTrue(sbsa.out().contains("* cudnn-linux-sbsa-9.13.0.50_cuda12-archive.tar.xz"), sbsa.out());
            assertFalse(sbsa.out().contains("this machine"), sbsa.out());
            assertFalse(sbsa.out().contains("driver 580"), "this machine's driver says nothing about an sbsa machine: " + sbsa.out());
            Cli.Run json = Cli.on(m.host()).withCatalogue(REDIST).run("releases", "--arch", "sbsa", "--json");
            assertFalse(json.json().get("thisMachine").asBoolean());
            assertFalse(json.json().has("driver") || json.json().has("toolkit"), json.out());
            Cli.Run own = Cli.on(m.host()).withCatalogue(REDIST).run("releases", "--arch", "x86_64");
            assertTrue(own.out().contains("newest that fits this machine"), "its own arch, named, is still this machine: " + own.out());
        }
    }

    @Test
    void gpuIsRecordedAndCheckedAgainstTheSupportMatrix() throws Exception {
        // #20 item 3 replaced "compute capability not checked (no support matrix data)" deliberately
        Host host = CliTest.windowsMachine();
        Cli.Run r = Cli.on(host).withCatalogue(CATALOGUE).run("releases", "--gpu", "sm_61", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode gpu = r.json().get("gpu");
        assertEquals("6.1", gpu.get("computeCapability").asText());
        assertTrue(gpu.get("checked").asBoolean());
        assertEquals("--gpu", gpu.get("source").asText());
        Cli.Run human = Cli.on(host).withCatalogue(CATALOGUE).run("releases", "--gpu", "RTX 2080");
        assertTrue(human.out().contains("GPU GeForce RTX 2080 (7.5) as asked"), human.out());
        assertEquals(2, Cli.on(host).withCatalogue(CATALOGUE).run("releases", "--gpu", "Voodoo 5").exit());
    }

    @Test
    void aGpuTheSupportMatrixLacksDoesNotFitAndTheTextSaysWhy() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Cli.Run r = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--os", "linux", "--arch", "x86_64",
                "--cuda", "12", "--gpu", "7.0", "--verbose", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode volta917 = null;
        JsonNode volta9102 = null;
        for (JsonNode row : r.json().get("archives")) {
            if (row.get("version").asText().startsWith("9.17.0.")) {
                volta917 = row;
            }
            if (row.get("version").asText().startsWith("9.10.2.")) {
                volta9102 = row;
            }
        }
        assertFalse(volta917.get("gpuOk").asBoolean(), "9.17.0's CUDA 12 build is 7.5+ only: " + volta917);
        assertFalse(volta917.get("recommended").asBoolean());
        assertTrue(volta917.get("why").asText().contains("7.5–12.0"), volta917.toString());
        assertTrue(volta9102.get("gpuOk").asBoolean(), volta9102.toString());
        Cli.Run text = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--os", "linux", "--arch", "x86_64",
                "--cuda", "12", "--gpu", "sm_70", "--verbose");
        assertTrue(text.out().contains("not for GPU 7.0"), text.out());
        assertTrue(text.out().contains("lists compute capabilities 7.5–12.0, not 7.0"), text.out());
    }

    @Test
    void aKeplerGpuGetsTheNewestReleaseKnownToSupportItNotOneBetweenThatMayHaveDroppedIt() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Cli.Run r = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--os", "linux", "--arch", "x86_64",
                "--cuda", "11.4", "--gpu", "3.7", "--driver", "470.82.01", "--verbose", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode recommended = null;
        for (JsonNode row : r.json().get("archives")) {
            String v = row.get("version").asText();
            if (row.get("recommended").asBoolean()) {
                recommended = row;
            }
            if (v.startsWith("8.9.0.") || v.startsWith("8.6.0.")) {
                assertTrue(row.get("gpuUncertain").asBoolean(), "between 8.5.0 (SM 3.5 and later) and 8.9.1 (5.0 and up): " + row);
                assertTrue(row.get("why").asText().contains("cuDNN 8.5.0 (CUDA 11) supports compute capability 3.7 and 8.9.1 does not"),
                        row.toString());
            }
            if (v.startsWith("9.17.0.") || v.startsWith("8.5.0.")) {
                assertFalse(row.has("gpuUncertain"), "held releases say so themselves: " + row);
            }
        }
        assertEquals("8.5.0.96", recommended.get("version").asText(), "the newest whose page lists Kepler 3.7");
        assertTrue(recommended.get("gpuOk").asBoolean());
        Cli.Run text = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--os", "linux", "--arch", "x86_64",
                "--cuda", "11.4", "--gpu", "3.7", "--driver", "470.82.01", "--verbose");
        assertTrue(text.out().lines().anyMatch(l -> l.contains("8.9.0.131") && l.contains("GPU 3.7 not known")), text.out());
        assertTrue(text.out().lines().anyMatch(l -> l.startsWith("  * ") && l.contains("8.5.0.96")), text.out());
    }

    @Test
    void driverMinimumIsTheSupportMatrixRowsForTheGpu() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Cli.Run blackwell = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--os", "windows", "--cuda", "12",
                "--gpu", "RTX 5090", "--driver", "560.76", "--verbose", "--json");
        for (JsonNode row : blackwell.json().get("archives")) {
            if (row.get("version").asText().startsWith("9.10.2.")) {
                assertEquals("570.65", row.get("driverMinimum").asText(), "Blackwell needs the 12.8 row: " + row);
                assertFalse(row.get("driverOk").asBoolean());
            }
            if (row.get("version").asText().startsWith("9.5.1.")) {
                assertFalse(row.get("gpuOk").asBoolean(), "no Blackwell in 9.5.1: " + row);
            }
        }
        Cli.Run ampere = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--os", "windows", "--cuda", "12.4",
                "--gpu", "8.6", "--driver", "560.76", "--verbose", "--json");
        for (JsonNode row : ampere.json().get("archives")) {
            if (row.get("version").asText().startsWith("9.10.2.")) {
                assertEquals("527.41", row.get("driverMinimum").asText(), row.toString());
                assertTrue(row.get("cudaOk").asBoolean(), row.toString());
            }
            if (row.get("version").asText().startsWith("8.9.5.")) {
                assertFalse(row.get("cudaOk").asBoolean(), "8.9.5 lists 12.0-12.2: " + row);
            }
        }
    }

    @Test
    void forPicksTheReleaseAFrameworkPins() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Cli.Run torch = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", "torch==2.5.1", "--os", "windows",
                "--json");
        assertEquals(0, torch.exit(), torch.err());
        JsonNode a = torch.json().get("archives");
        assertEquals("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", a.get(0).get("fileName").asText());
        assertTrue(a.get(0).get("recommended").asBoolean());
        assertEquals(1, a.size(), a.toString());
        assertEquals("9.1.0.70", torch.json().get("for").get("cudnn").asText());
        assertEquals("torch==2.5.1", torch.json().get("filter").get("for").asText());
        Cli.Run real = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", "torch==2.14.1", "--os", "linux",
                "--arch", "x86_64");
        assertTrue(real.out().contains("* cudnn-linux-x86_64-9.24.0.43_cuda13-archive.tar.xz"), real.out());
        Cli.Run tf = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", "tensorflow==2.16.1", "--os", "linux",
                "--arch", "x86_64", "--json");
        JsonNode first = tf.json().get("archives").get(0);
        assertTrue(first.get("version").asText().startsWith("8.9.7."), "the newest 8.9 for CUDA 12: " + first);
        assertEquals("12", first.get("cudaVariant").asText());

        Cli.Run unknown = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", "torch==1.0.0");
        assertEquals(2, unknown.exit());
        assertEquals(1, unknown.err().strip().lines().count(), unknown.err());
        assertTrue(unknown.err().contains("torch 2.14.1, 2.5.1") && unknown.err().contains("tensorflow"), unknown.err());
        Cli.Run badForm = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", "torch", "--json");
        assertEquals(2, badForm.exit());
        assertEquals(2, badForm.json().get("exitCode").asInt(), badForm.out());
        Cli.Run conflict = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", "torch==2.5.1", "--cuda", "13");
        assertEquals(2, conflict.exit());
        assertTrue(conflict.err().contains("pass --cuda 12"), conflict.err());
    }

    @Test
    void forPicksThePinnedReleaseOfEveryTorchFrom21AndOfTensorFlowAndOnnxRuntime() throws Exception {
        Host host = CliTest.windowsMachine();
        Map<String, String> expected = Map.of("torch==2.1.0", "cudnn-linux-x86_64-8.9.2.26_cuda12-archive.tar.xz",
                "torch==2.3.1", "cudnn-linux-x86_64-8.9.2.26_cuda12-archive.tar.xz",
                "torch==2.6.0", "cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz",
                "torch==2.7.1", "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz",
                "torch==2.9.0", "cudnn-linux-x86_64-9.10.2.21_cuda12-archive.tar.xz");
        for (var e : expected.entrySet()) {
            Cli.Run r = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", e.getKey(), "--os", "linux",
                    "--arch", "x86_64", "--json");
            assertEquals(0, r.exit(), e.getKey() + r.err());
            JsonNode a = r.json().get("archives");
            assertEquals(List.of(e.getValue()), names(a), e.getKey());
            assertTrue(a.get(0).get("recommended").asBoolean(), e.getKey());
            assertTrue(r.json().get("for").get("requires").asText().startsWith("nvidia-cudnn-cu12=="), r.out());
            assertTrue(r.json().get("for").get("source").asText().contains("METADATA"), r.out());
        }
        Cli.Run text = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", "torch==2.1.0", "--os", "linux",
                "--arch", "x86_64");
        assertTrue(text.out().contains("Requires-Dist: nvidia-cudnn-cu12==8.9.2.26"), "the source is printed: " + text.out());
        Cli.Run tf = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", "tensorflow==2.18.0", "--os", "linux",
                "--arch", "x86_64", "--json");
        JsonNode first = tf.json().get("archives").get(0);
        assertTrue(first.get("version").asText().startsWith("9.3."), "the newest 9.3 for CUDA 12: " + first);
        assertTrue(first.get("recommended").asBoolean());
        Cli.Run ort = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", "onnxruntime-gpu==1.17.1", "--os",
                "windows", "--json");
        assertEquals("cudnn-windows-x86_64-8.5.0.96_cuda11-archive.zip", ort.json().get("archives").get(0).get("fileName").asText(),
                ort.out());
        Cli.Run unknown = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--for", "torch==2.0.1");
        assertEquals(2, unknown.exit());
        assertEquals(1, unknown.err().strip().lines().count(), unknown.err());
        assertTrue(unknown.err().contains("torch==2.0.1 is not in the tool's table") && unknown.err().contains("2.9.1"),
                unknown.err());
    }

    @Test
    void thirdPartyFactsAreShownAsReportedWithTheirSourceInTextAndJson() throws Exception {
        Host host = CliTest.windowsMachine();
        Cli.Run j = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--os", "linux", "--arch", "x86_64", "--cuda",
                "12", "--gpu", "6.1", "--verbose", "--json");
        assertEquals(0, j.exit(), j.err());
        JsonNode r911 = null;
        JsonNode r911x = null;
        for (JsonNode a : j.json().get("archives")) {
            if (a.get("fileName").asText().equals("cudnn-linux-x86_64-9.1.1.17_cuda12-archive.tar.xz")) {
                r911 = a;
            }
            if (a.get("fileName").asText().equals("cudnn-linux-x86_64-9.11.0.98_cuda12-archive.tar.xz")) {
                r911x = a;
            }
        }
        JsonNode fact = r911.get("reported").get(0);
        assertEquals("reported", fact.get("strength").asText());
        assertEquals("third-party-transcription", fact.get("kind").asText());
        assertTrue(fact.get("source").asText().contains("mxochicale"), fact.toString());
        assertTrue(fact.get("quote").asText().contains("9.1.1"), fact.toString());
        assertEquals("third-party-claim", r911x.get("reported").get(0).get("kind").asText());
        assertFalse(r911x.get("recommended").asBoolean());
        Cli.Run t = Cli.on(host).withCatalogue(Catalogue.bundled()).run("releases", "--os", "linux", "--arch", "x86_64", "--cuda",
                "12", "--gpu", "6.1", "--verbose");
        assertTrue(t.out().contains("reported (not NVIDIA's word): cuDNN 9.1.1 for CUDA 12"), t.out());
        assertTrue(t.out().contains("reported (not NVIDIA's word): cuDNN 9.11.0 for CUDA 12"), t.out());
    }
}
