package dev.cudnntool.host.fetch;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.testing.TestHosts;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** #30 item 4 (truthful ends) and #32 item 8 (secrets), on a scripted {@link Downloader}. */
class FetcherEndsTest {
    private static final String NAME = "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz";

    /** Answers are taken in order; each records the offset asked for. */
    static final class Scripted implements Downloader {
        final List<Downloader.Response> answers = new ArrayList<>();
        final List<Long> asked = new ArrayList<>();

        @Override
        public Response get(URI url, long from) {
            asked.add(from);
            if (answers.isEmpty()) {
                throw new AssertionError("no more answers: asked " + asked);
            }
            return answers.remove(0);
        }
    }

    private static Downloader.Response ok(byte[] b) {
        return new Downloader.Response(200, null, b.length, new ByteArrayInputStream(b));
    }

    private static CatalogueEntry entry(byte[] b) throws Exception {
        return CatalogueEntry.of(NAME, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b)), (long) b.length);
    }

    private static Path dir() throws IOException {
        return Files.createDirectories(TestHosts.unixFs().getPath("/home/user/Downloads"));
    }

    private static Fetcher fetcher(Downloader d) {
        return new Fetcher(d, Duration.ofSeconds(5), ReadProgress.NONE);
    }

    @TestFactory
    Stream<DynamicTest> aCompleteResponseOfTheWrongLengthIsExit3AndThePartIsDeleted() {
        Random r = new Random(30_4);
        return Stream.generate(() -> {
            int size = 1 + r.nextInt(5000);
            int sent = r.nextInt(size); // shorter, complete (the body ends normally)
            int resumeFrom = r.nextBoolean() ? 0 : r.nextInt(Math.max(1, sent));
            return DynamicTest.dynamicTest(size + " bytes, " + sent + " sent, part " + resumeFrom, () -> {
                byte[] full = new byte[size];
                r.nextBytes(full);
                Path dir = dir();
                if (resumeFrom > 0) {
                    Files.write(dir.resolve(NAME + ".part"), Arrays.copyOf(full, resumeFrom));
                }
                Scripted d = new Scripted();
                byte[] body = Arrays.copyOfRange(full, resumeFrom, sent);
                d.answers.add(resumeFrom > 0
                        ? new Downloader.Response(206, "bytes " + resumeFrom + "-" + (size - 1) + "/" + size, body.length,
                        new ByteArrayInputStream(body))
                        : ok(body));
                ToolException x = assertThrows(ToolException.class,
                        () -> fetcher(d).fetch(entry(full), new FetchSource("http://mirror.test/", null), dir));
                assertEquals(3, x.exitCode().code(), x.getMessage());
                assertTrue(x.getMessage().contains("wrong length"), x.getMessage());
                assertFalse(Files.exists(dir.resolve(NAME + ".part")));
                assertEquals(1, d.asked.size(), "no retry loop");
            });
        }).limit(25);
    }

    @Test
    void a416OnResumeRestartsFromZeroOnce() throws Exception {
        byte[] full = new byte[3000];
        new Random(416).nextBytes(full);
        Path dir = dir();
        Files.write(dir.resolve(NAME + ".part"), Arrays.copyOf(full, 1000));
        Scripted d = new Scripted();
        d.answers.add(new Downloader.Response(416, "bytes */5", 0, new ByteArrayInputStream(new byte[0])));
        d.answers.add(ok(full));
        FetchResult r = fetcher(d).fetch(entry(full), new FetchSource("http://mirror.test/", null), dir);
        assertEquals(List.of(1000L, 0L), d.asked);
        assertArrayEquals(full, Files.readAllBytes(r.path()));
    }

    @Test
    void aSecondRefusalToResumeIsNotALoop() throws Exception {
        byte[] full = new byte[3000];
        Path dir = dir();
        Files.write(dir.resolve(NAME + ".part"), Arrays.copyOf(full, 1000));
        Scripted d = new Scripted();
        d.answers.add(new Downloader.Response(416, null, 0, new ByteArrayInputStream(new byte[0])));
        // from zero, a 206 whose range does not start at 0: cannot resume again
        d.answers.add(new Downloader.Response(206, "bytes 7-9/3000", 3, new ByteArrayInputStream(new byte[3])));
        ToolException x = assertThrows(ToolException.class,
                () -> fetcher(d).fetch(entry(full), new FetchSource("http://mirror.test/", null), dir));
        assertTrue(d.asked.size() <= 3, d.asked.toString());
        assertTrue(x.exitCode().code() == 3 || x.exitCode().code() == 4, x.getMessage());
    }

    @Test
    void httpAnswersInWordsNvidiaOrMirror() throws Exception {
        CatalogueEntry e = entry(new byte[] {1});
        URI nvidia = URI.create(CatalogueEntry.REDIST + "cudnn/linux-x86_64/" + NAME);
        URI mirror = URI.create("https://mirror.example/redist/cudnn/linux-x86_64/" + NAME);
        for (URI u : List.of(nvidia, mirror)) {
            ToolException nf = Fetcher.refused(e, u, 404, null);
            assertEquals(3, nf.exitCode().code());
            assertTrue(nf.getMessage().contains("not on the server") && nf.getMessage().contains(u.toString()), nf.getMessage());
        }
        for (int s : new int[] {401, 403}) {
            ToolException n = Fetcher.refused(e, nvidia, s, null);
            assertTrue(n.getMessage().contains("refused by NVIDIA's server (HTTP " + s + ")"), n.getMessage());
            assertTrue(n.fix().contains(CatalogueEntry.LOGIN_PAGE), n.fix());
            ToolException m = Fetcher.refused(e, mirror, s, null);
            assertTrue(m.getMessage().contains("the mirror refused the request (HTTP " + s + "; it may need credentials)"),
                    m.getMessage());
            assertFalse(m.getMessage().contains("NVIDIA"), m.getMessage());
        }
        assertFalse(Fetcher.refused(e, mirror, 401, null).fix().contains("login"), "a 401 from a mirror is not NVIDIA's login");
    }

    @TestFactory
    Stream<DynamicTest> aUserAndPasswordInAMirrorUrlAreNeverPrinted() {
        Random r = new Random(32_8);
        String chars = "abcXYZ019-._~!$&'()*+,;=%:"; // valid in a URI's user-info ("%" as "%25")
        return Stream.generate(() -> {
            StringBuilder user = new StringBuilder("u");
            StringBuilder pass = new StringBuilder("p");
            for (int i = 0; i < 1 + r.nextInt(12); i++) {
                user.append(chars.charAt(r.nextInt(chars.length() - 2))); // no ':' or '%' in the user
                char c = chars.charAt(r.nextInt(chars.length()));
                pass.append(c == '%' ? "%25" : String.valueOf(c));
            }
            String secret = pass.toString();
            int status = new int[] {401, 403, 404, 500}[r.nextInt(4)];
            return DynamicTest.dynamicTest(status + " " + user, () -> {
                String base = (r.nextBoolean() ? "https" : "http") + "://" + user + ":" + secret + "@mirror.test:8443/redist/";
                byte[] full = new byte[10];
                Scripted d = new Scripted();
                d.answers.add(new Downloader.Response(status, null, 0, new ByteArrayInputStream(new byte[0])));
                ToolException x = assertThrows(ToolException.class,
                        () -> fetcher(d).fetch(entry(full), new FetchSource(base, null), dir()));
                String all = x.getMessage() + " " + x.fix();
                assertFalse(all.contains(secret), all);
                assertTrue(all.contains("://***@mirror.test:8443/redist/"), all);
                if (status == 401) {
                    assertTrue(x.getMessage().contains("the mirror refused the request (HTTP 401; it may need credentials)"));
                }
                assertEquals(null, Secrets.redact(null));
            });
        }).limit(30);
    }
}
