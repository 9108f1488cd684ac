package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** #20 item 2: the archive a fix names exists in the catalogue, never one made up from a release and a CUDA major. */
class RightArchiveTest {
    @Test
    void aReleaseWithoutABuildForThatCudaMajorNamesTheNewestThatExists() {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        assertEquals("cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz", RightArchive.name(host, "9.5.1", 12));
        String cuda13 = RightArchive.name(host, "9.5.1", 13);
        assertTrue(Catalogue.bundled().lookup(cuda13).isPresent(), "9.5.1 has no CUDA 13 build; named instead: " + cuda13);
        assertEquals(Catalogue.bundled().select("linux", Set.of("x86_64"), 13, null).get(0).fileName(), cuda13);
        assertEquals("cudnn-linux-x86_64-9.5.1_cuda99-archive.tar.xz", RightArchive.name(host, "9.5.1", 99),
                "no catalogued build at all: the pattern");
    }
}
