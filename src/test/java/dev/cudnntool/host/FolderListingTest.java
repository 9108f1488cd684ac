package dev.cudnntool.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.testing.Seeds;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** #32 item 7: a bounded listing reads at most the bound of matching names and tells the recording of each cut folder once. */
class FolderListingTest {
    @TestFactory
    Stream<DynamicTest> aListingStopsAtTheBoundAndSaysSo() {
        long seed = Seeds.seed(32_71);
        return IntStream.range(0, Seeds.tries(30, 300)).mapToObj(i -> {
            Random r = new Random(Seeds.caseSeed(seed, i));
            int matching = r.nextInt(60);
            int other = r.nextInt(60);
            int max = 1 + r.nextInt(50);
            boolean windows = r.nextBoolean();
            return DynamicTest.dynamicTest(i + " " + matching + "/" + other + " max " + max,
                    Seeds.replayable("FolderListingTest", seed, i, () -> {
                        FileSystem fs = windows ? TestHosts.windowsFs() : TestHosts.unixFs();
                        Path dir = Files.createDirectories(fs.getPath(windows ? "C:\\lib" : "/lib"));
                        for (int k = 0; k < matching; k++) {
                            Files.createFile(dir.resolve("libcudnn.so." + k));
                        }
                        for (int k = 0; k < other; k++) {
                            Files.createFile(dir.resolve("libz.so." + k));
                        }
                        List<FolderListing.Cut> cuts = new ArrayList<>();
                        List<Path> got = FolderListing.recording(cuts, () -> {
                            List<Path> a = FolderListing.list(dir, n -> n.startsWith("libcudnn"), max);
                            FolderListing.list(dir, n -> n.startsWith("libcudnn"), max); // the same folder again: one cut
                            return a;
                        });
                        assertEquals(Math.min(matching, max), got.size());
                        assertTrue(got.stream().allMatch(p -> p.getFileName().toString().startsWith("libcudnn")));
                        List<Path> sorted = new ArrayList<>(got);
                        sorted.sort(null);
                        assertEquals(sorted, got);
                        assertEquals(matching > max ? List.of(new FolderListing.Cut(dir, max)) : List.of(), cuts);
                        // outside a recording a cut is simply not told
                        assertEquals(Math.min(matching, max), FolderListing.list(dir, n -> n.startsWith("libcudnn"), max).size());
                    }));
        });
    }
}
