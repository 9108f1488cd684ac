package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Failures;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.ZipException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** #31 item 7: no Java exception class name reaches a user, for network, file and permission failures. */
class FailureWordsTest {
    private static final String NAME = "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz";

    private static Host linux() {
        return TestHosts.linux(TestHosts.unixFs(), Map.of("PATH", "/usr/bin"), new FakeRunner());
    }

    private static void noExceptionName(Cli.Run r) {
        for (String line : (r.out() + "\n" + r.err()).split("\n")) {
            assertFalse(line.contains("Exception"), "an exception's name reached the user: " + line);
        }
    }

    @Test
    void aRefusedConnectionReadsCouldNotConnectToTheHost() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        Catalogue c = Catalogue.of(List.of(CatalogueEntry.of(NAME, "a".repeat(64), 10L).withRedist(true)));
        for (boolean json : new boolean[] {false, true}) {
            List<String> args = new ArrayList<>(List.of("fetch", "9.5.1", "--from", "http://127.0.0.1:" + port + "/", "--to", "/tmp/dl"));
            if (json) {
                args.add("--json");
            }
            Cli.Run r = Cli.on(linux()).withCatalogue(c).run(args.toArray(String[]::new));
            assertNotEquals(0, r.exit(), r.out() + r.err());
            assertTrue(r.err().contains("could not connect to 127.0.0.1"), r.err());
            noExceptionName(r);
        }
    }

    @Test
    void aMissingArchiveAndAFolderForAFileAreWords() {
        for (String[] args : new String[][] {
                {"install", "--archive", "/no/such/" + NAME, "--dry-run"},
                {"inspect", "/no/such/" + NAME},
                {"inspect", "/"},
                {"explain", "--file", "/no/such/log.txt"}}) {
            Cli.Run r = Cli.run(linux(), args);
            assertNotEquals(0, r.exit(), String.join(" ", args));
            noExceptionName(r);
        }
    }

    /** Seeded: every failure kind, with hostile messages (class names, control characters, nothing), reads as words. */
    @TestFactory
    Stream<DynamicTest> everyFailureKindReadsAsWords() {
        Random random = new Random(31_7L);
        String[] messages = {null, "", "java.net.ConnectException: Connection refused",
            "PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid path",
            "line\nbreak\u001b[31m", "Connection reset", "/opt/cudnn/lib/libcudnn.so.9"};
        List<Function<String, Throwable>> kinds = List.of(
                ConnectException::new, UnknownHostException::new, HttpTimeoutException::new,
                HttpConnectTimeoutException::new, SSLHandshakeException::new,
                SocketTimeoutException::new, SocketException::new,
                m -> new NoSuchFileException("/x", null, m),
                m -> new AccessDeniedException("/root/secret", null, m),
                m -> new FileSystemException("/a", "/b", m),
                FileNotFoundException::new, EOFException::new, IOException::new,
                m -> new ZipException(m), m -> new IllegalStateException(m), m -> new RuntimeException(m));
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Function<String, Throwable> kind = kinds.get(random.nextInt(kinds.size()));
            String message = messages[random.nextInt(messages.length)];
            String host = random.nextBoolean() ? null : random.nextBoolean() ? "mirror.example" : "evil\nhost";
            Throwable e = kind.apply(message);
            tests.add(DynamicTest.dynamicTest(i + ": " + e.getClass().getSimpleName(), () -> {
                String words = Failures.words(e, host);
                assertFalse(words.isBlank(), e.toString());
                assertFalse(words.contains("Exception"), words);
                assertFalse(words.contains("\n") || words.contains("\u001b"), words);
                if (e instanceof ConnectException) {
                    assertTrue(words.startsWith("could not connect to"), words);
                }
                if (e instanceof AccessDeniedException && (message == null || message.isEmpty())) {
                    assertTrue(words.startsWith("permission denied: /root/secret"), words);
                }
            }));
        }
        return tests.stream();
    }
}
