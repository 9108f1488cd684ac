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

    /** A conda environment's python: DT_RPATH (or, with {@code tag} RUNPATH, DT_RUNPATH) $ORIGIN/../lib, where an old cuDNN lies. */
    static ProgramLoader.Program python(FileSystem fs, int tag) throws Exception {
        Path exe = fs.getPath("/opt/conda/envs/ml/bin/python3.11");
        Files.createDirectories(exe.getParent());
        Files.write(exe, ElfImages.so("python3.11", List.of("libc.so.6"), tag, "$ORIGIN/../lib", List.of("main")));
        Files.createDirectories(fs.getPath("/opt/conda/envs/ml/lib"));
        Files.write(fs.getPath("/opt/conda/envs/ml/lib/libcudnn.so.9"), ElfImages.cudnn("libcudnn.so.9"));
        return ProgramLoader.Program.read(exe);
    }

    @Test
    void withoutARunpathTheExecutablesAndLoadersRpathComeBeforeLdLibraryPath() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Host host = TestHosts.linux(fs, Map.of("LD_LIBRARY_PATH", "/ld/path"), new FakeRunner());
        program(fs, ElfImages.RPATH);
        Path plainLib = fs.getPath("/site/ort/libprovider.so");
        Files.createDirectories(plainLib.getParent());
        Files.write(plainLib, ElfImages.so("libprovider.so", List.of("libcudnn.so.9"), ElfImages.RPATH, null, List.of("run")));
        ProgramLoader.Program plain = ProgramLoader.Program.read(plainLib);
        ProgramLoader.Loaders conda = ProgramLoader.Loaders.executable(python(fs, ElfImages.RPATH));

        assertEquals(fs.getPath("/ld/path/libcudnn.so.9"), ProgramLoader.resolve(host, LdSoCache.empty(), plain, "libcudnn.so.9")
                .orElseThrow().file(), "the library alone: LD_LIBRARY_PATH");
        LoaderPath.Hit hit = ProgramLoader.resolve(host, LdSoCache.empty(), plain, "libcudnn.so.9", conda).orElseThrow();
        assertEquals(fs.getPath("/opt/conda/envs/ml/lib/libcudnn.so.9"), hit.file(), "under conda's python: its DT_RPATH first");
        assertEquals("the DT_RPATH of the executable /opt/conda/envs/ml/bin/python3.11", hit.place().describe());
        assertEquals(List.of(LoaderPath.Mechanism.RPATH, LoaderPath.Mechanism.LD_LIBRARY_PATH),
                ProgramLoader.order(host, LdSoCache.empty(), plain, conda).subList(0, 2).stream().map(LoaderPath.Place::mechanism).toList());

        // a loading object with a DT_RUNPATH uses no DT_RPATH at all, its own or anyone's
        ProgramLoader.Program runpath = ProgramLoader.Program.read(program(fs, ElfImages.RUNPATH));
        assertEquals(fs.getPath("/ld/path/libcudnn.so.9"), ProgramLoader.resolve(host, LdSoCache.empty(), runpath, "libcudnn.so.9", conda)
                .orElseThrow().file());
        // an executable with a DT_RUNPATH has its DT_RPATH ignored, and its DT_RUNPATH is its own business
        ProgramLoader.Loaders newDtags = ProgramLoader.Loaders.executable(python(fs, ElfImages.RUNPATH));
        assertEquals(fs.getPath("/ld/path/libcudnn.so.9"), ProgramLoader.resolve(host, LdSoCache.empty(), plain, "libcudnn.so.9", newDtags)
                .orElseThrow().file());
        // the object that loaded it comes before the executable; its own DT_RPATH before both
        ProgramLoader.Program app = ProgramLoader.Program.read(fs.getPath("/opt/app/lib/libapp.so"));
        Files.write(app.file(), ElfImages.so("libapp.so", List.of("libprovider.so"), ElfImages.RPATH, "$ORIGIN/../cudnn", List.of("run")));
        LoaderPath.Hit viaLoader = ProgramLoader.resolve(host, LdSoCache.empty(), plain, "libcudnn.so.9",
                conda.under(ProgramLoader.Program.read(app.file()))).orElseThrow();
        assertEquals(fs.getPath("/opt/app/cudnn/libcudnn.so.9"), viaLoader.file());
        assertEquals("the DT_RPATH of the object that loaded it, /opt/app/lib/libapp.so", viaLoader.place().describe());
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
