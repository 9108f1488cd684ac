package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** B2/B3 through the command line: the {@code copies} JSON shape, {@code --all}, the human listing. */
class VerifyCopiesCliTest {
    @Test
    void copiesInJsonAndPerCopyFindingsWithAll() throws Exception {
        Host host = CopyFinderTest.machine(TestHosts.unixFs());
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        JsonNode copies = doc.get("copies");
        assertEquals(5, copies.size(), copies.toString());
        Set<String> origins = new TreeSet<>();
        for (JsonNode c : copies) {
            Set<String> fields = new TreeSet<>();
            c.fieldNames().forEachRemaining(fields::add);
            assertTrue(fields.containsAll(Set.of("path", "origin", "winsByName")) && !fields.contains("findings"), fields.toString());
            origins.add(c.get("origin").asText());
        }
        assertEquals(Set.of("target", "pip", "conda", "system", "path"), origins);

        JsonNode all = Cli.run(host, "verify", "--no-probe", "--all", "--json").json();
        assertEquals(1, all.get("exitCode").asInt(), "the conda copy is incomplete");
        for (JsonNode c : all.get("copies")) {
            assertTrue(c.get("findings").size() > 0, c.toString());
        }
        String human = Cli.run(host, "verify", "--no-probe").out();
        assertTrue(human.contains("copy      /opt/cudnn/lib/libcudnn.so.9 (path, cuDNN 9.2.1, what programs get by name)"), human);
        assertFalse(human.contains("null"), human);
    }

    /** #19 A6: the only cuDNN is a conda copy: the text says what the JSON lists, never "none found … nothing is installed". */
    @Test
    void theOnlyCopyInCondaIsSaidAlikeInTextAndJson() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath(CopyFinderTest.TK), "12.6.0");
        CopyFinderTest.lib(fs.getPath("/home/me/miniconda3/lib"), "libcudnn.so.9.1.0", "libcudnn.so.9");
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", CopyFinderTest.TK, "HOME", "/home/me", "PATH", "/usr/bin"),
                new FakeRunner());
        sameInTextAndJson(host, "/home/me/miniconda3/lib/libcudnn.so.9", "conda");
    }

    /** #19 A6: no toolkit chosen, the only cuDNN in another toolkit (not the one CUDA_PATH names). */
    @Test
    void theOnlyCopyInAnotherToolkitIsSaidAlikeInTextAndJson() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath(CopyFinderTest.TK), "12.6.0");
        TestHosts.linuxToolkit(fs.getPath("/usr/local/cuda-12.2"), "12.2.0");
        CopyFinderTest.lib(fs.getPath("/usr/local/cuda-12.2/targets/x86_64-linux/lib"), "libcudnn.so.8.9.7", "libcudnn.so.8");
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", CopyFinderTest.TK, "PATH", "/usr/bin"),
                new FakeRunner());
        sameInTextAndJson(host, "/usr/local/cuda-12.2/lib64/libcudnn.so.8", "toolkit");
    }

    private static void sameInTextAndJson(Host host, String path, String origin) throws Exception {
        JsonNode doc = Cli.run(host, "verify", "--json").json();
        assertEquals(1, doc.get("copies").size(), doc.get("copies").toString());
        assertEquals(path, doc.get("copies").get(0).get("path").asText());
        JsonNode said = null;
        for (JsonNode f : doc.get("findings")) {
            if (f.get("id").asText().equals("cudnn.copies")) {
                said = f;
            }
        }
        assertTrue(said != null && said.get("message").asText().contains(path) && said.get("message").asText().contains(origin),
                doc.get("findings").toString());
        String text = Cli.run(host, "verify").out();
        assertTrue(text.contains("copy      " + path + " (" + origin), text);
        assertTrue(text.contains("info  cudnn.copies: " + said.get("message").asText()), text);
        assertTrue(text.contains("cuDNN     none in the target; 1 copy elsewhere (listed below)"), text);
        assertFalse(text.contains("cuDNN     none found"), text);
        assertFalse(text.contains("nothing is broken"), text);
        assertTrue(text.contains("1 cuDNN copy elsewhere (listed above), not checked here: run verify --all"), text);
    }

    /** #19 A12: --prefix on Linux names Linux folders only, never Windows' bin/x64 (text and JSON); Windows keeps bin\\x64. */
    @Test
    void aLinuxPrefixNamesItsOwnFoldersNotWindowsBinX64() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Files.createDirectories(fs.getPath("/opt/cudnn"));
        Host host = TestHosts.linux(fs, Map.of("PATH", "/usr/bin"), new FakeRunner());
        Cli.Run text = Cli.run(host, "verify", "--prefix", "/opt/cudnn", "--expect", "9.5.1");
        assertFalse(text.out().contains("x64"), text.out());
        assertTrue(text.out().contains("no cuDNN runtime library in /opt/cudnn/lib or /opt/cudnn/lib64"), text.out());
        JsonNode doc = Cli.run(host, "verify", "--prefix", "/opt/cudnn", "--expect", "9.5.1", "--json").json();
        assertFalse(doc.get("findings").toString().contains("x64"), doc.get("findings").toString());
        assertEquals(1, doc.get("exitCode").asInt());

        FileSystem win = TestHosts.windowsFs();
        Files.createDirectories(win.getPath("C:\\cudnn"));
        Host windows = TestHosts.windows(win, Map.of("PATH", "C:\\Windows"), new FakeRunner());
        String w = Cli.run(windows, "verify", "--prefix", "C:\\cudnn").out();
        assertTrue(w.contains("no cuDNN runtime library in C:\\cudnn\\bin\\x64 or C:\\cudnn\\bin"), w);
        assertFalse(w.contains("lib64"), w);
    }

    /** #19 A14: with --all, a copy's errors are counted in the summary: the count and the exit code agree (was "0 problem(s) found (exit 1)"). */
    @Test
    void withAllTheSummaryCountsEachCopysErrors() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        CopyFinderTest.machine(fs);
        // the target first on the loader path: healthy itself, every other copy incomplete
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", CopyFinderTest.TK, "HOME", "/home/me",
                "LD_LIBRARY_PATH", CopyFinderTest.LIB), new FakeRunner());
        Cli.Run plain = Cli.run(host, "verify", "--no-probe");
        assertEquals(0, plain.exit(), plain.out());
        assertTrue(plain.out().contains("verify: no problems found"), plain.out());
        Cli.Run run = Cli.run(host, "verify", "--no-probe", "--all");
        assertEquals(1, run.exit(), run.out());
        long errors = 0;
        boolean inTarget = false;
        for (String l : run.out().lines().toList()) {
            if (l.startsWith("copy ")) {
                inTarget = l.contains("(target");
            } else if (l.trim().startsWith("ERROR ") && !inTarget) {
                errors++; // the target's own errors are listed twice (above and under its copy): counted once
            }
        }
        assertEquals(3, errors, run.out());
        assertTrue(run.out().contains("verify: 3 problem(s) found (3 in other cuDNN copies, listed under them) (exit 1)"), run.out());
        assertEquals(1, Cli.run(host, "verify", "--no-probe", "--all", "--json").json().get("exitCode").asInt());
    }

    /** #19 items 19 and 5: each copy names its owner; a broken copy pip owns is fixed with pip, never cudnn install. */
    @Test
    void ownersInJsonAndTextAndTheOwnersOwnFix() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        TestHosts.linuxToolkit(fs.getPath(CopyFinderTest.TK), "12.6.0");
        String site = "/home/me/venv/lib/python3.11/site-packages";
        Path lib = fs.getPath(site, "nvidia/cudnn/lib");
        CopyFinderTest.lib(lib, "libcudnn.so.9", "libcudnn.so.9");
        TestHosts.write(fs.getPath(site, "nvidia_cudnn_cu12-9.1.0.70.dist-info/RECORD"), "nvidia/cudnn/lib/libcudnn.so.9,sha256=x,1\n");
        TestHosts.write(fs.getPath(site, "nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA"), "Name: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n");
        Host host = TestHosts.linux(fs, Map.of("CUDA_PATH", CopyFinderTest.TK, "VIRTUAL_ENV", "/home/me/venv",
                "PATH", "/usr/bin"), new FakeRunner());
        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--all", "--json").json();
        JsonNode copy = doc.get("copies").get(0);
        assertEquals("pip", copy.get("owner").get("kind").asText(), copy.toString());
        assertEquals("nvidia-cudnn-cu12", copy.get("owner").get("name").asText());
        assertEquals("9.1.0.70", copy.get("owner").get("version").asText());
        boolean anyFix = false;
        for (JsonNode f : copy.get("findings")) {
            String fix = f.path("fix").asText();
            assertFalse(fix.contains("with cudnn install"), f.toString());
            anyFix |= fix.contains("pip install --force-reinstall --no-deps nvidia-cudnn-cu12==9.1.0.70");
        }
        assertTrue(anyFix, "the incomplete wheel is fixed with pip: " + copy.get("findings"));
        String text = Cli.run(host, "verify", "--no-probe").out();
        assertTrue(text.contains("owned by the pip package nvidia-cudnn-cu12 9.1.0.70"), text);
    }
}
