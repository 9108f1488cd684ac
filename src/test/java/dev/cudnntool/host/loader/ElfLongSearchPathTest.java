package dev.cudnntool.host.loader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * #32 item 9: a DT_RPATH or DT_RUNPATH longer than one name (4 KiB) is read whole, or, past the
 * tool's bound, reported as too long; never taken as no search path at all. Seeded over sizes and tags.
 */
class ElfLongSearchPathTest {
    private static final long SEED = 0x3209L;

    /** Folders joined by ':' until the string is at least {@code bytes} long; the last folder is what the test looks for. */
    private static List<String> folders(Random rnd, int bytes) {
        List<String> out = new ArrayList<>();
        int len = 0;
        while (len < bytes) {
            String f = "/opt/" + "d".repeat(1 + rnd.nextInt(300)) + "/lib" + out.size();
            out.add(f);
            len += f.length() + 1;
        }
        out.add("$ORIGIN/../found");
        return out;
    }

    @TestFactory
    Stream<DynamicTest> longSearchPathsAreReadWholeOrReportedNeverAbsent() {
        Random rnd = new Random(SEED);
        List<DynamicTest> out = new ArrayList<>();
        int[] sizes = {4000, 4096, 4097, 5000, 16 << 10, 64 << 10, 200 << 10, ElfFile.MAX_PATH_LIST - 64,
            ElfFile.MAX_PATH_LIST + 10, (ElfFile.MAX_PATH_LIST) + 4096};
        for (int size : sizes) {
            boolean rpath = rnd.nextBoolean();
            long seed = rnd.nextLong();
            out.add(DynamicTest.dynamicTest((rpath ? "DT_RPATH" : "DT_RUNPATH") + " of about " + size + " bytes", () -> {
                List<String> dirs = folders(new Random(seed), size);
                String joined = String.join(":", dirs);
                FileSystem fs = TestHosts.unixFs();
                Path lib = fs.getPath("/x/lib/libcudnn.so.9");
                Files.createDirectories(lib.getParent());
                Files.write(lib, ElfImages.so("libcudnn.so.9", List.of("libc.so.6"), rpath ? ElfImages.RPATH : ElfImages.RUNPATH,
                        joined, List.of("cudnnGetVersion")));
                int bytes = joined.getBytes(StandardCharsets.UTF_8).length;
                if (bytes <= ElfFile.MAX_PATH_LIST && dirs.size() <= 4000) {
                    ElfFile.Info info = ElfFile.read(lib, false);
                    List<String> got = rpath ? info.rpath() : info.runpath();
                    assertEquals(dirs, got);
                    assertTrue((rpath ? info.runpath() : info.rpath()).isEmpty());
                    assertTrue(ElfFile.expand(got, lib).contains(fs.getPath("/x/found")));
                    ProgramLoader.Program p = ProgramLoader.Program.read(lib);
                    assertEquals(null, p.problem());
                } else {
                    IOException e = assertThrows(IOException.class, () -> ElfFile.read(lib, false));
                    assertTrue(e.getMessage().contains("too long") || e.getMessage().contains("more than"), e.getMessage());
                    ProgramLoader.Program p = ProgramLoader.Program.read(lib);
                    assertNotNull(p.problem(), "a search path the tool cannot read is said, never taken as none");
                }
            }));
        }
        return out.stream();
    }
}
