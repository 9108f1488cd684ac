package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.ProgramLoader;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The python a site-packages is run by, as the loader sees it: its real file, read boundedly; anything odd is no executable. */
class InterpreterTest {
    private final FileSystem fs = TestHosts.unixFs();
    private final Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());

    private Path site(String prefix) throws Exception {
        Path site = fs.getPath(prefix, "lib/python3.12/site-packages");
        Files.createDirectories(site);
        Files.createDirectories(fs.getPath(prefix, "bin"));
        return site;
    }

    @Test
    void aVenvsPythonIsTheInterpreterItLinksToWithItsOwnOrigin() throws Exception {
        Path base = fs.getPath("/opt/conda/bin/python3.12");
        Files.createDirectories(base.getParent());
        Files.write(base, ElfImages.so("python3.12", List.of("libc.so.6"), ElfImages.RPATH, "$ORIGIN/../lib", List.of("main")));
        Path site = site("/home/me/venv");
        Files.createSymbolicLink(fs.getPath("/home/me/venv/bin/python3.12"), base);
        ProgramLoader.Program exe = Interpreter.of(host, site).executable();
        assertEquals(base, exe.file());
        assertEquals(List.of(fs.getPath("/opt/conda/lib")), exe.rpath(), "$ORIGIN is the real interpreter's folder, not the venv's bin");
    }

    @Test
    void aScriptALoopAFolderOrAnotherLayoutIsNoExecutable() throws Exception {
        Path site = site("/env");
        Files.writeString(fs.getPath("/env/bin/python3.12"), "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n"); // a shim
        assertSame(ProgramLoader.Loaders.NONE, Interpreter.of(host, site));
        Files.delete(fs.getPath("/env/bin/python3.12"));
        Files.createSymbolicLink(fs.getPath("/env/bin/python3.12"), fs.getPath("/env/bin/python3"));
        Files.createSymbolicLink(fs.getPath("/env/bin/python3"), fs.getPath("/env/bin/python3.12"));
        assertSame(ProgramLoader.Loaders.NONE, Interpreter.of(host, site), "a link loop");
        Files.createDirectories(fs.getPath("/env/bin/python"));
        assertSame(ProgramLoader.Loaders.NONE, Interpreter.of(host, site), "a folder named python");
        assertSame(ProgramLoader.Loaders.NONE, Interpreter.of(host, fs.getPath("/usr/lib/python3/dist-packages")));
        assertSame(ProgramLoader.Loaders.NONE, Interpreter.of(host, fs.getPath("/")));
        assertSame(ProgramLoader.Loaders.NONE, Interpreter.of(TestHosts.windows(TestHosts.windowsFs(), Map.of(), new FakeRunner()),
                fs.getPath("/env/lib/python3.12/site-packages")));
    }
}
