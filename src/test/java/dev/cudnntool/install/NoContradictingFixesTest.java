package dev.cudnntool.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * #31 item 7: when both the platform and the CUDA major of an archive are wrong, the fixes of the
 * install's checks name exactly one archive, built for THIS platform and the toolkit's CUDA major
 * (before, the CUDA-major fix named a Windows zip on Linux).
 */
class NoContradictingFixesTest {
    private static final Pattern ARCHIVE = Pattern.compile("cudnn-(linux|windows)-[a-z0-9_]+-[0-9.]+_cuda[0-9]+-archive\\.(tar\\.xz|zip)");

    /** The archive each fix tells the user to download (the first one it names; an aside may name the newest too). */
    private static Set<String> archivesNamed(Preflight pf) {
        Set<String> names = new TreeSet<>();
        for (Finding f : pf.findings()) {
            Matcher m = ARCHIVE.matcher(f.fix() == null ? "" : f.fix());
            if (m.find()) {
                names.add(m.group());
            }
        }
        return names;
    }

    /** Every archive any fix names, asides included: all for one OS. */
    private static Set<String> osesNamed(Preflight pf) {
        Set<String> oses = new TreeSet<>();
        for (Finding f : pf.findings()) {
            Matcher m = ARCHIVE.matcher(f.fix() == null ? "" : f.fix());
            while (m.find()) {
                oses.add(m.group(1));
            }
        }
        return oses;
    }

    @Test
    void aWindowsCuda11ZipOnLinuxWithCuda12NamesOneLinuxCuda12Archive() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Path tk = fs.getPath("/usr/local/cuda-12.2");
        TestHosts.linuxToolkit(tk, "12.2.20230823");
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
        Preflight pf = Preflight.run(host, ArchiveName.parse("cudnn-windows-x86_64-8.9.5.30_cuda11-archive.zip"), tk, null, false);
        assertTrue(pf.findings().stream().anyMatch(f -> f.id().equals("platform.mismatch")), pf.findings().toString());
        assertTrue(pf.findings().stream().anyMatch(f -> f.id().equals("toolkit.cuda-major-mismatch")), pf.findings().toString());
        Set<String> named = archivesNamed(pf);
        assertEquals(1, named.size(), "one archive in every fix: " + named + " in " + pf.findings());
        String only = named.iterator().next();
        assertTrue(only.startsWith("cudnn-linux-x86_64-") && only.endsWith("_cuda12-archive.tar.xz"), only);
        assertEquals(Set.of("linux"), osesNamed(pf), "never a Windows zip on Linux: " + pf.findings());
    }

    @Test
    void aLinuxCuda11TarballOnWindowsWithCuda12NamesOneWindowsCuda12Zip() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Path tk = fs.getPath("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2");
        TestHosts.toolkit(tk, "12.2.20230823");
        Host host = TestHosts.windows(fs, Map.of("CUDA_PATH", tk.toString()), new FakeRunner());
        Preflight pf = Preflight.run(host, ArchiveName.parse("cudnn-linux-x86_64-8.9.5.30_cuda11-archive.tar.xz"), tk, null, false);
        assertTrue(pf.findings().stream().anyMatch(f -> f.id().equals("platform.mismatch")), pf.findings().toString());
        Set<String> named = archivesNamed(pf);
        assertEquals(1, named.size(), "one archive in every fix: " + named + " in " + pf.findings());
        String only = named.iterator().next();
        assertTrue(only.startsWith("cudnn-windows-x86_64-") && only.endsWith("_cuda12-archive.zip"), only);
        assertEquals(Set.of("windows"), osesNamed(pf), pf.findings().toString());
    }

    @Test
    void onlyTheCudaMajorWrongStillNamesTheArchivesOwnPlatform() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Path tk = fs.getPath("/usr/local/cuda-12.2");
        TestHosts.linuxToolkit(tk, "12.2.20230823");
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
        Preflight pf = Preflight.run(host, ArchiveName.parse("cudnn-linux-x86_64-8.9.5.30_cuda11-archive.tar.xz"), tk, null, false);
        Set<String> named = archivesNamed(pf);
        assertEquals(1, named.size(), named + " in " + pf.findings());
        assertTrue(named.iterator().next().startsWith("cudnn-linux-x86_64-8.9.5.30_cuda12"), named.toString());
    }
}
