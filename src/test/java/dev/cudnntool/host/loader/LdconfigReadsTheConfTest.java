package dev.cudnntool.host.loader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.host.SystemProcessRunner;
import dev.cudnntool.host.searchpath.SearchPathEntries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * #18 A1, proven with ldconfig itself: the conf file the tool writes, given to the real
 * {@code /sbin/ldconfig} on a scratch configuration, puts exactly the asked-for folder into a
 * scratch cache (read back with {@link LdSoCache}), never a prefix of it; and a path ldconfig would
 * cut short is refused before any conf file exists. Nothing outside the scratch folder is written:
 * as root ldconfig runs chrooted into it ({@code -r}, so even its aux cache stays there), otherwise
 * with {@code -C} (a non-root ldconfig cannot write anything of the system's).
 */
class LdconfigReadsTheConfTest {
    private static final Path LDCONFIG = Path.of("/sbin/ldconfig");

    @TempDir
    Path scratch;

    private final Host host = new Host(FileSystems.getDefault(), Map.of(), OsFamily.LINUX, Arch.X86_64, 64, new SystemProcessRunner());

    private static boolean root() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Any small real shared library of this machine (ldconfig caches only real ELF objects). */
    private static Path someSharedLibrary() throws IOException {
        for (String d : List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
                "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib")) {
            Path dir = Path.of(d);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> s = Files.list(dir)) {
                var lib = s.filter(p -> p.getFileName().toString().matches("lib(z|m|dl|rt|util)\\.so\\.\\d+"))
                        .filter(p -> Files.isRegularFile(p)).findFirst();
                if (lib.isPresent()) {
                    return lib.get();
                }
            }
        }
        return null;
    }

    /** The folders (inside {@code base}, as ldconfig names them) that the cache built from {@code conf} holds. */
    private Set<String> cachedFolders(byte[] conf, String base) throws IOException {
        boolean root = root();
        Path confFile = scratch.resolve("cudnn-tool-test.conf");
        Path cache = scratch.resolve("ld.so.cache");
        Files.deleteIfExists(cache);
        Files.write(confFile, conf);
        List<String> cmd = root
                ? List.of(LDCONFIG.toString(), "-X", "-r", scratch.toString(), "-C", "/ld.so.cache", "-f", "/cudnn-tool-test.conf")
                : List.of(LDCONFIG.toString(), "-X", "-C", cache.toString(), "-f", confFile.toString());
        ProcessResult r = host.runner().run(cmd, Duration.ofSeconds(60));
        assertEquals(true, r.started() && !r.timedOut(), "ldconfig ran: " + r.startFailure());
        Set<String> out = new TreeSet<>();
        if (!Files.isRegularFile(cache)) {
            return out;
        }
        for (LdSoCache.Entry e : LdSoCache.parse(host, Files.readAllBytes(cache)).entries()) {
            String folder = e.path().getParent().toString();
            if (folder.startsWith(base)) {
                out.add(folder);
            }
        }
        return out;
    }

    @Test
    void exactlyTheAskedForFolderEntersTheCache() throws Exception {
        assumeTrue(Host.osFromName(System.getProperty("os.name")) == OsFamily.LINUX, "Linux only");
        assumeTrue(Files.isExecutable(LDCONFIG), "needs /sbin/ldconfig");
        Path lib = someSharedLibrary();
        assumeTrue(lib != null, "needs a small shared library to copy");
        // Inside the chroot (root) paths start at the scratch folder; without it they are the real ones.
        String base = root() ? "/opt" : scratch.resolve("opt").toString();
        // {asked-for folder, the folder ldconfig would take if it split or cut the line there}
        String[][] accepted = {
            {base + "/plain/lib", base + "/plain"},
            {base + "/a b/lib", base + "/a"},
            {base + "/c:d,e/lib", base + "/c"},
            {base + "/f!$*'x/lib", base + "/f"},
        };
        String[][] refused = {
            {base + "/x#y/cuda/lib", base + "/x"},
            {base + "/g=h/lib", base + "/g"},
        };
        List<String[]> all = new ArrayList<>(List.of(accepted));
        all.addAll(List.of(refused));
        for (String[] c : all) {
            for (String folder : c) {
                Path real = root() ? scratch.resolve(folder.substring(1)) : Path.of(folder);
                Files.createDirectories(real);
                Files.copy(lib, real.resolve("libfoo.so.1"), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        for (String[] c : accepted) {
            byte[] conf = SearchPathEntries.confFile(c[0]).data();
            assertEquals(c[0] + "\n", new String(conf, StandardCharsets.UTF_8));
            assertEquals(Set.of(c[0]), cachedFolders(conf, base), "ldconfig caches exactly " + c[0]);
        }
        for (String[] c : refused) {
            assertThrows(IllegalArgumentException.class, () -> SearchPathEntries.confFile(c[0]), c[0]);
            // What the tool used to write: ldconfig takes the prefix instead, for every program on the machine.
            Set<String> verbatim = cachedFolders((c[0] + "\n").getBytes(StandardCharsets.UTF_8), base);
            assertEquals(Set.of(c[1]), verbatim, "the danger the refusal prevents: " + c[0]);
        }
    }
}
