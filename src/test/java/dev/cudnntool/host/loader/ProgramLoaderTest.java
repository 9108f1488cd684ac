package dev.cudnntool.host.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 A4: the loader's order for one program, read from its own ELF: glibc's rules, $ORIGIN expanded. */
class ProgramLoaderTest {

    static Path program(FileSystem fs, int tag) throws Exception {
        Path p = fs.getPath("/opt/app/lib/libapp.so");
        Files.createDirectories(p.getParent());
        Files.write(p, ElfImages.so("libapp.so", List.of("libcudnn.so.9"), tag, "$ORIGIN/../cudnn:/opt/fixed", List.of("run")));
        for (String d : List.of("/opt/app/cudnn", "/opt/fixed", "/ld/path")) {
            Files.createDirectories(fs.getPath(d));
            Files.write(fs.getPath(d, "libcudnn.so.9"), ElfImages.cudnn("libcudnn.so.9"));
        }
        return p;
    }

    @Test
    void rpathComesBeforeLdLibraryPathAndRunpathAfterIt() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/ld/path"), new FakeRunner());
        ProgramLoader.Program rpath = ProgramLoader.Program.read(program(fs, ElfImages.RPATH));
        assertEquals(List.of(fs.getPath("/opt/app/cudnn"), fs.getPath("/opt/fixed")), rpath.rpath(), "$ORIGIN is the object's folder");
        assertEquals(List.of(LoaderPath.Mechanism.RPATH, LoaderPath.Mechanism.RPATH, LoaderPath.Mechanism.LD_LIBRARY_PATH),
                ProgramLoader.order(host, LdSoCache.empty(), rpath).subList(0, 3).stream().map(LoaderPath.Place::mechanism).toList());
        assertEquals(fs.getPath("/opt/app/cudnn/libcudnn.so.9"), ProgramLoader.resolve(host, LdSoCache.empty(), rpath, "libcudnn.so.9")
                .orElseThrow().file());

        ProgramLoader.Program runpath = ProgramLoader.Program.read(program(fs, ElfImages.RUNPATH));
        assertEquals(List.of(LoaderPath.Mechanism.LD_LIBRARY_PATH, LoaderPath.Mechanism.RUNPATH, LoaderPath.Mechanism.RUNPATH),
                ProgramLoader.order(host, LdSoCache.empty(), runpath).subList(0, 3).stream().map(LoaderPath.Place::mechanism).toList());
        LoaderPath.Hit hit = ProgramLoader.resolve(host, LdSoCache.empty(), runpath, "libcudnn.so.9").orElseThrow();
        assertEquals(fs.getPath("/ld/path/libcudnn.so.9"), hit.file());
        assertEquals("LD_LIBRARY_PATH", hit.place().describe());
        assertTrue(runpath.ownFolders().contains("after LD_LIBRARY_PATH") && rpath.ownFolders().contains("before LD_LIBRARY_PATH"));
    }

    @Test
    void anUnreadableProgramSaysWhyAndSearchesLikeAPlainOne() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Path bad = fs.getPath("/opt/bad.so");
        Files.createDirectories(bad.getParent());
        Files.write(bad, new byte[] {0x7f, 'E', 'L', 'F', 2, 1});
        ProgramLoader.Program p = ProgramLoader.Program.read(bad);
        assertTrue(p.problem() != null && p.rpath().isEmpty() && p.runpath().isEmpty(), p.toString());
    }
}
