package dev.cudnntool.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.Seeds;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * #32 item 4: a folder the tool finds by itself (a .venv in the current folder or a parent, a conda install or env
 * under the home folder) counts only when it is the caller's or root's and not writable by others; a skipped one
 * is named with why. Folders the user names (VIRTUAL_ENV, CONDA_PREFIX) are used.
 */
class DiscoveredFolderTrustTest {
    private static final String[] OWNERS = {"user", "root", "alice"};
    private static final String[] MODES = {"rwxr-xr-x", "rwx------", "rwxrwxr-x", "rwxrwxrwx"};
    private static final String[] KINDS = {"folder", "link-by-other", "cfg-by-other"};

    static FileSystem fs() {
        return Jimfs.newFileSystem(Configuration.unix().toBuilder().setAttributeViews("basic", "posix")
                .setWorkingDirectory("/tmp/proj/sub").build());
    }

    static void own(FileSystem fs, Path p, String owner) throws Exception {
        Files.setOwner(p, fs.getUserPrincipalLookupService().lookupPrincipalByName(owner));
    }

    @TestFactory
    Stream<DynamicTest> aDiscoveredVenvCountsOnlyWhenItIsTheCallersOrRoots() {
        long seed = Seeds.seed(32_4);
        return IntStream.range(0, Seeds.tries(60, 600)).mapToObj(i -> {
            Random r = new Random(Seeds.caseSeed(seed, i));
            String owner = OWNERS[r.nextInt(OWNERS.length)];
            String mode = MODES[r.nextInt(MODES.length)];
            String kind = KINDS[r.nextInt(KINDS.length)];
            String where = r.nextBoolean() ? "/tmp/proj/sub" : r.nextBoolean() ? "/tmp/proj" : "/tmp";
            boolean named = r.nextInt(5) == 0;
            return DynamicTest.dynamicTest(i + " " + owner + " " + mode + " " + kind + " " + where + (named ? " named" : ""),
                    Seeds.replayable("DiscoveredFolderTrustTest", seed, i, () -> {
                        FileSystem fs = fs();
                        Files.createDirectories(fs.getPath("/tmp/proj/sub"));
                        Path venv = fs.getPath(where, ".venv");
                        Path real = kind.equals("link-by-other") ? fs.getPath("/home/user/env") : venv;
                        Files.createDirectories(real.resolve("lib/python3.12/site-packages"));
                        Path cfg = Files.writeString(real.resolve("pyvenv.cfg"), "home = /usr/bin\n");
                        own(fs, real, owner);
                        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString(mode));
                        if (kind.equals("link-by-other")) {
                            Files.createSymbolicLink(venv, real);
                            own(fs, venv, "alice"); // a link another user planted, to a folder of the caller's
                        }
                        if (kind.equals("cfg-by-other")) {
                            own(fs, cfg, "alice");
                        }
                        Map<String, String> env = new HashMap<>(Map.of("HOME", "/home/user"));
                        if (named) {
                            env.put("VIRTUAL_ENV", venv.toString());
                        }
                        Host host = TestHosts.linux(fs, env, new FakeRunner());
                        boolean trusted = !owner.equals("alice") && mode.charAt(7) != 'w' && kind.equals("folder");
                        assertEquals(trusted ? List.of(venv) : List.of(), CopyFinder.projectVenvs(host));
                        List<CopyFinder.Skipped> skipped = CopyFinder.skippedFolders(host);
                        assertEquals(trusted ? List.of() : List.of(venv), skipped.stream().map(CopyFinder.Skipped::folder).toList());
                        skipped.forEach(s -> assertTrue(s.why().contains("owned by alice") || s.why().contains("writable by others"), s.why()));
                        Path site = real.resolve("lib/python3.12/site-packages");
                        boolean listed = CopyFinder.sitePackages(host).stream().anyMatch(p -> p.startsWith(venv) || p.startsWith(real));
                        assertEquals(trusted || named, listed, "searched only when trusted or named: " + site);
                    }));
        });
    }

    @TestFactory
    Stream<DynamicTest> aCondaEnvFoundByScanningCountsOnlyWhenItIsTheCallersOrRoots() {
        long seed = Seeds.seed(32_41);
        return IntStream.range(0, Seeds.tries(30, 300)).mapToObj(i -> {
            Random r = new Random(Seeds.caseSeed(seed, i));
            String owner = OWNERS[r.nextInt(OWNERS.length)];
            String mode = MODES[r.nextInt(MODES.length)];
            boolean named = r.nextInt(4) == 0;
            return DynamicTest.dynamicTest(i + " " + owner + " " + mode + (named ? " named" : ""),
                    Seeds.replayable("DiscoveredFolderTrustTest", seed, i, () -> {
                        FileSystem fs = TestHosts.unixFs();
                        Path base = Files.createDirectories(fs.getPath("/home/user/miniconda3"));
                        Path env = Files.createDirectories(base.resolve("envs/torch"));
                        own(fs, env, owner);
                        Files.setPosixFilePermissions(env, PosixFilePermissions.fromString(mode));
                        Map<String, String> vars = new HashMap<>(Map.of("HOME", "/home/user"));
                        if (named) {
                            vars.put("CONDA_PREFIX", env.toString());
                        }
                        Host host = TestHosts.linux(fs, vars, new FakeRunner());
                        boolean trusted = !owner.equals("alice") && mode.charAt(7) != 'w';
                        assertEquals(trusted || named, CopyFinder.condaEnvs(host).contains(env));
                        assertTrue(CopyFinder.condaEnvs(host).contains(base));
                        assertEquals(trusted || named ? List.of() : List.of(env),
                                CopyFinder.skippedFolders(host).stream().map(CopyFinder.Skipped::folder).toList());
                    }));
        });
    }

    @Test
    void verifyNamesASkippedFolderInOneLine() throws Exception {
        FileSystem fs = fs();
        Path venv = Files.createDirectories(fs.getPath("/tmp/.venv/lib/python3.12/site-packages")).getParent().getParent().getParent();
        Files.writeString(venv.resolve("pyvenv.cfg"), "home = /usr/bin\n");
        own(fs, venv, "alice");
        Files.createDirectories(fs.getPath("/tmp/proj/sub"));
        Host host = TestHosts.linux(fs, Map.of("HOME", "/home/user", "PATH", "/usr/bin"), new FakeRunner());
        var d = new DiagnosisCollector(host, null).collect(new Diagnosis.Question(null, null, null, false), (c, t) -> false);
        assertEquals(List.of(venv), d.skipped().stream().map(CopyFinder.Skipped::folder).toList());
        assertTrue(d.environments().stream().noneMatch(p -> p.startsWith(venv)), d.environments().toString());
    }
}
