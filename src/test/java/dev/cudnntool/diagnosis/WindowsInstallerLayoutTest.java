package dev.cudnntool.diagnosis;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 B21: NVIDIA's Windows cuDNN 9 .exe installer layout, found, matched to the toolkit, with PATH and build hints. */
class WindowsInstallerLayoutTest {
    static final String V = "C:\\Program Files\\NVIDIA\\CUDNN\\v9.5";
    static final String TK = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.6";

    /** cuDNN 9.5 for CUDA 11.8 and 12.6 (bin\12.6\x64 as newer installers lay it, bin\11.8 without x64), and an older 9.1. */
    static FileSystem installed() {
        FileSystem fs = TestHosts.windowsFs();
        TestHosts.toolkit(fs.getPath(TK), "12.6.85");
        for (String dll : List.of("bin\\12.6\\x64\\cudnn64_9.dll", "bin\\11.8\\cudnn64_9.dll")) {
            TestHosts.write(fs.getPath(V, dll), "MZ");
        }
        TestHosts.write(fs.getPath(V, "include\\12.6\\cudnn_version.h"), "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 1\n");
        TestHosts.write(fs.getPath(V, "lib\\12.6\\x64\\cudnn.lib"), "lib");
        TestHosts.write(fs.getPath("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.4\\cudnn64_9.dll"), "MZ");
        TestHosts.write(fs.getPath("C:\\Program Files\\NVIDIA\\CUDNN\\notes\\bin\\12.6\\cudnn64_9.dll"), "MZ"); // not a release folder
        return fs;
    }

    private static Host host(FileSystem fs, String path) {
        return TestHosts.windows(fs, Map.of("CUDA_PATH", TK, "PATH", path, "ProgramFiles", "C:\\Program Files"), new FakeRunner());
    }

    @Test
    void everyCudaFolderIsACopyAndTheToolkitsOneIsNamedWithItsHints() throws Exception {
        Host host = host(installed(), "C:\\Windows");
        List<WindowsInstallerLayout.Folder> folders = WindowsInstallerLayout.folders(host);
        List<String> seen = new ArrayList<>();
        folders.forEach(f -> seen.add(f.release().getFileName() + "/" + f.cuda()));
        assertEquals(List.of("v9.5/12.6", "v9.5/11.8", "v9.1/12.4"), seen);

        JsonNode doc = Cli.run(host, "verify", "--no-probe", "--json").json();
        List<String> installerCopies = new ArrayList<>();
        for (JsonNode c : doc.get("copies")) {
            if (c.get("origin").asText().equals("installer")) {
                installerCopies.add(c.get("path").asText());
            }
        }
        assertEquals(List.of(V + "\\bin\\12.6\\x64\\cudnn64_9.dll", V + "\\bin\\11.8\\cudnn64_9.dll",
                "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.4\\cudnn64_9.dll"), installerCopies);
        String said = message(doc, "cudnn.installer");
        assertTrue(said.contains("for the toolkit's CUDA 12.6 use " + V + "\\bin\\12.6\\x64 (not on PATH: cmd: set \"PATH="
                + V + "\\bin\\12.6\\x64;%PATH%\""), said);
        assertTrue(said.contains("CUDNN_PATH=" + V + "; CMake: -DCUDNN_INCLUDE_DIR=\"" + V + "\\include\\12.6\" -DCUDNN_LIBRARY=\""
                + V + "\\lib\\12.6\\x64\\cudnn.lib\""), said);
        String text = Cli.run(host, "verify", "--no-probe").out();
        assertTrue(text.contains("copy      " + V + "\\bin\\12.6\\x64\\cudnn64_9.dll (installer, cuDNN 9.5.1"), text);
    }

    @Test
    void onPathItSaysSoAndWithoutAFolderForTheToolkitsMajorItWarns() throws Exception {
        FileSystem fs = installed();
        String said = message(Cli.run(host(fs, V + "\\bin\\12.6\\x64;C:\\Windows"), "verify", "--no-probe", "--json").json(),
                "cudnn.installer");
        assertTrue(said.contains("\\bin\\12.6\\x64 (on PATH)"), said);

        FileSystem only11 = TestHosts.windowsFs();
        TestHosts.toolkit(only11.getPath(TK), "12.6.85");
        TestHosts.write(only11.getPath(V, "bin\\11.8\\cudnn64_9.dll"), "MZ");
        JsonNode doc = Cli.run(host(only11, "C:\\Windows"), "verify", "--no-probe", "--json").json();
        JsonNode f = finding(doc, "cudnn.installer");
        assertEquals("warn", f.get("severity").asText());
        assertTrue(f.get("message").asText().contains("v9.5 for CUDA 11.8") && f.get("message").asText().contains("none for the"
                + " toolkit's CUDA 12.6"), f.toString());
        assertTrue(f.get("fix").asText().contains("tick CUDA 12"), f.toString());
    }

    @Test
    void linuxHasNoSuchLayout() {
        Host linux = TestHosts.linux(TestHosts.unixFs(), Map.of("ProgramFiles", "/x"), new FakeRunner());
        assertEquals(List.of(), WindowsInstallerLayout.folders(linux));
    }

    private static JsonNode finding(JsonNode doc, String id) {
        for (JsonNode f : doc.get("findings")) {
            if (f.get("id").asText().equals(id)) {
                return f;
            }
        }
        throw new AssertionError(id + " not in " + doc.get("findings"));
    }

    private static String message(JsonNode doc, String id) {
        return finding(doc, id).get("message").asText();
    }
}
