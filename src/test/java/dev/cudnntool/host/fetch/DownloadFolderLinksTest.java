package dev.cudnntool.host.fetch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.testing.TestHosts;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * #32 item 1: nothing is written through a link in a download folder. Seeded variations of what is planted
 * as {@code FILE.part} or {@code FILE} (symbolic links to a file, a folder, nothing; a hard link; a FIFO; a file
 * of another owner) and of its size: the victim never changes, nothing hangs, the refusal is one line, exit 5.
 */
class DownloadFolderLinksTest {
    private static final String NAME = "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz";

    @TempDir
    Path tmp;

    enum Plant { SYMLINK_FILE, SYMLINK_DIR, DANGLING, HARD_LINK, FIFO }

    private static final class Counting implements Downloader {
        final List<Long> asked = new ArrayList<>();
        final byte[] body;

        Counting(byte[] body) {
            this.body = body;
        }

        @Override
        public Response get(URI url, long from) {
            asked.add(from);
            return new Response(200, null, body.length, new ByteArrayInputStream(body));
        }
    }

    private static CatalogueEntry entry(byte[] b) throws Exception {
        return CatalogueEntry.of(NAME, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b)), (long) b.length);
    }

    private static boolean mkfifo(Path p) {
        try {
            Process pr = new ProcessBuilder("/usr/bin/mkfifo", p.toString()).redirectErrorStream(true).start();
            return pr.waitFor(10, TimeUnit.SECONDS) && pr.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @TestFactory
    Stream<DynamicTest> aPlantedPartOrFileIsNeverWrittenOrReadThrough() {
        Random r = new Random(32_1);
        int[] n = {0};
        return Stream.generate(() -> {
            Plant plant = Plant.values()[r.nextInt(Plant.values().length)];
            boolean asPart = r.nextBoolean();
            int victimSize = r.nextInt(64);
            int size = 1 + r.nextInt(4096);
            int id = n[0]++;
            return DynamicTest.dynamicTest(plant + (asPart ? " as FILE.part" : " as FILE") + ", victim " + victimSize
                    + " bytes, archive " + size, () -> {
                Path dir = Files.createDirectories(tmp.resolve("d" + id));
                Path victim = tmp.resolve("victim" + id);
                byte[] secret = new byte[victimSize];
                r.nextBytes(secret);
                Files.write(victim, secret);
                Path planted = dir.resolve(asPart ? NAME + ".part" : NAME);
                switch (plant) {
                    case SYMLINK_FILE -> Files.createSymbolicLink(planted, victim);
                    case SYMLINK_DIR -> Files.createSymbolicLink(planted, Files.createDirectories(tmp.resolve("vdir" + id)));
                    case DANGLING -> Files.createSymbolicLink(planted, tmp.resolve("nothing" + id));
                    case HARD_LINK -> Files.createLink(planted, victim);
                    case FIFO -> assumeTrue(mkfifo(planted), "mkfifo");
                }
                byte[] archive = new byte[size];
                r.nextBytes(archive);
                Counting d = new Counting(archive);
                Fetcher f = new Fetcher(d, Duration.ofSeconds(5), ReadProgress.NONE);
                ToolException x = assertThrows(ToolException.class,
                        () -> f.fetch(entry(archive), new FetchSource("http://mirror.test/", null), dir));
                assertEquals(5, x.exitCode().code(), x.getMessage());
                assertEquals(1, x.getMessage().lines().count(), x.getMessage());
                assertTrue(x.getMessage().contains(planted.toString()), x.getMessage());
                assertArrayEquals(secret, Files.readAllBytes(victim), "the victim is unchanged");
                assertEquals(List.of(), d.asked, "nothing downloaded");
                assertFalse(x.getMessage().contains(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret))),
                        "the target's sha256 is never printed");
                assertTrue(Files.exists(planted, LinkOption.NOFOLLOW_LINKS), "the planted thing is left for the user");
            });
        }).limit(40);
    }

    @TestFactory
    Stream<DynamicTest> aPartOfAnotherOwnerIsRefusedAndOneOfOursResumes() {
        Random r = new Random(32_11);
        return Stream.generate(() -> {
            boolean other = r.nextBoolean();
            int size = 2 + r.nextInt(4096);
            int have = 1 + r.nextInt(size - 1);
            return DynamicTest.dynamicTest((other ? "mallory's" : "our") + " part of " + have + "/" + size, () -> {
                Path dir = Files.createDirectories(TestHosts.unixFs().getPath("/home/user/Downloads"));
                byte[] archive = new byte[size];
                r.nextBytes(archive);
                Path part = dir.resolve(NAME + ".part");
                Files.write(part, Arrays.copyOf(archive, have));
                if (other) {
                    Files.setOwner(part, dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("mallory"));
                }
                Downloader d = (url, from) -> new Downloader.Response(206, "bytes " + from + "-" + (size - 1) + "/" + size,
                        size - from, new ByteArrayInputStream(Arrays.copyOfRange(archive, (int) from, size)));
                Fetcher f = new Fetcher(d, Duration.ofSeconds(5), ReadProgress.NONE);
                if (other) {
                    ToolException x = assertThrows(ToolException.class,
                            () -> f.fetch(entry(archive), new FetchSource("http://mirror.test/", null), dir));
                    assertEquals(5, x.exitCode().code());
                    assertTrue(x.getMessage().contains("owned by mallory"), x.getMessage());
                } else {
                    assertArrayEquals(archive, Files.readAllBytes(
                            f.fetch(entry(archive), new FetchSource("http://mirror.test/", null), dir).path()));
                }
            });
        }).limit(16);
    }

    @TestFactory
    Stream<DynamicTest> onTheMachinesOwnFileSystemTheCallerIsTheJvmsUser() {
        return Stream.of(DynamicTest.dynamicTest("caller", () -> {
            Path f = Files.createFile(tmp.resolve("mine"));
            assertEquals(Files.getOwner(f).getName(), SafeFiles.caller(FileSystems.getDefault()).getName());
            assertTrue(SafeFiles.plainOwnFile(f, SafeFiles.caller(FileSystems.getDefault())));
            assertFalse(SafeFiles.plainOwnFile(tmp.resolve("absent"), null));
        }));
    }
}
