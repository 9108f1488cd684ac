package dev.cudnntool.archive.format;

import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.name.ArchiveName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.testing.ArchiveFixture;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * Issue 9 C1, the stream part: a tar header with a wrong checksum, and bytes after the last
 * compressed stream, are refused (exit 3, one line), on the single-stream path (both xz decoders),
 * on the block-parallel path and for .tgz. xz's own rule is kept: zero bytes in multiples of four
 * after a stream are stream padding, which {@code xz -t} accepts.
 */
class StreamTrailerTest {
    @TempDir
    Path dir;

    /** The decoder a test asks for; JUnit makes a new instance per test. */
    private XzDecoders.Choice xz = XzDecoders.Choice.AUTO;

    private final ArchiveFixture fixture = ArchiveFixture.linux("8.9.5.30", "12");

    private byte[] tarBytes() throws Exception {
        Path xz = fixture.writeTo(dir.resolve("src"));
        try (InputStream in = new XZInputStream(Files.newInputStream(xz))) {
            return in.readAllBytes();
        }
    }

    private static byte[] singleBlock(byte[] data) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (XZOutputStream xz = new XZOutputStream(out, new LZMA2Options(1))) {
            xz.write(data);
        }
        return out.toByteArray();
    }

    private static byte[] gzip(byte[] data) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    private Path multiBlock(byte[] tar) throws Exception {
        Path f = ParallelXzTest.multiBlock(dir.resolve("multi").resolve(fixture.fileName()), tar, 4096, 1);
        try (ParallelXz px = ParallelXz.open(f)) {
            Assumptions.assumeTrue(px != null, "the block-parallel path needs two cores");
        }
        return f;
    }

    private Path write(String sub, String fileName, byte[] bytes) throws Exception {
        Path f = dir.resolve(sub).resolve(fileName);
        Files.createDirectories(f.getParent());
        Files.write(f, bytes);
        return f;
    }

    private ArchiveReport inspect(Path archive) {
        return new ArchiveInspector(InspectionLimits.DEFAULT, xz).inspect(archive, ArchiveName.parse(archive.getFileName().toString()), null);
    }

    private ToolException refused(Path archive, String why) {
        ToolException e = assertThrows(ToolException.class, () -> inspect(archive));
        assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode(), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertFalse(e.getMessage().contains("null"), e.getMessage());
        assertTrue(e.getMessage().contains(why), e.getMessage());
        return e;
    }

    /** The first header's mtime changed by one octal digit: the stored checksum no longer matches. */
    private static byte[] badChecksum(byte[] tar) {
        byte[] t = tar.clone();
        t[140] = (byte) (t[140] == '1' ? '2' : '1');
        return t;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static final byte[] GARBAGE = "trailing bytes\n".getBytes(StandardCharsets.US_ASCII);

    @ParameterizedTest
    @ValueSource(strings = {"java", "auto"})
    void aTarHeaderWithAWrongChecksumIsRefused(String decoder) throws Exception {
        xz = XzDecoders.Choice.parse(decoder);
        byte[] tar = tarBytes();
        assertTrue(inspect(write("ok", fixture.fileName(), singleBlock(tar))).acceptable());
        refused(write("bad", fixture.fileName(), singleBlock(badChecksum(tar))), "wrong checksum");
    }

    /** "java": ParallelXz (xz-java on several threads); "auto": liblzma's multi-threaded decoder where present. */
    @ParameterizedTest
    @ValueSource(strings = {"java", "auto"})
    void aTarHeaderWithAWrongChecksumIsRefusedOnTheParallelPath(String decoder) throws Exception {
        xz = XzDecoders.Choice.parse(decoder);
        refused(multiBlock(badChecksum(tarBytes())), "wrong checksum");
    }

    @Test
    void aTarHeaderWithAWrongChecksumIsRefusedInATgz() throws Exception {
        String name = fixture.fileName().replace(".tar.xz", ".tgz");
        byte[] tar = tarBytes();
        assertTrue(inspect(write("ok", name, gzip(tar))).acceptable());
        refused(write("bad", name, gzip(badChecksum(tar))), "wrong checksum");
    }

    /** Found by the hostile-archive property test with more tries: commons-compress threw on it (exit 70). */
    @Test
    void aChecksumFieldThatIsNotOctalIsAWrongChecksumNotAProgramError() throws Exception {
        String name = fixture.fileName().replace(".tar.xz", ".tgz");
        byte[] tar = tarBytes();
        Arrays.fill(tar, 148, 156, (byte) ')'); // the checksum field: eight bytes that are no number
        refused(write("bad", name, gzip(tar)), "wrong checksum");
    }

    @ParameterizedTest
    @ValueSource(strings = {"java", "auto"})
    void bytesAfterTheLastXzStreamAreRefused(String decoder) throws Exception {
        xz = XzDecoders.Choice.parse(decoder);
        byte[] xz = singleBlock(tarBytes());
        refused(write("garbage", fixture.fileName(), concat(xz, GARBAGE)), "damaged");
        refused(write("three-zeros", fixture.fileName(), concat(xz, new byte[3])), "damaged");
        refused(write("zeros-then-garbage", fixture.fileName(), concat(xz, concat(new byte[8], GARBAGE))), "damaged");
    }

    @ParameterizedTest
    @ValueSource(strings = {"java", "auto"})
    void streamPaddingAndConcatenatedStreamsAreAcceptedAsXzDoes(String decoder) throws Exception {
        xz = XzDecoders.Choice.parse(decoder);
        byte[] tar = tarBytes();
        byte[] xz = singleBlock(tar);
        assertTrue(inspect(write("padded", fixture.fileName(), concat(xz, new byte[8]))).acceptable());
        // the same tar split over two .xz streams, as `cat a.xz b.xz` makes
        int cut = 5000;
        byte[] two = concat(singleBlock(Arrays.copyOf(tar, cut)), singleBlock(Arrays.copyOfRange(tar, cut, tar.length)));
        assertTrue(inspect(write("two", fixture.fileName(), two)).acceptable());
    }

    @ParameterizedTest
    @ValueSource(strings = {"java", "auto"})
    void bytesAfterTheLastXzStreamAreRefusedOnTheParallelPath(String decoder) throws Exception {
        xz = XzDecoders.Choice.parse(decoder);
        Path multi = multiBlock(tarBytes());
        assertTrue(inspect(multi).acceptable());
        byte[] xz = Files.readAllBytes(multi);
        refused(write("garbage", fixture.fileName(), concat(xz, GARBAGE)), "damaged");
        refused(write("three-zeros", fixture.fileName(), concat(xz, new byte[3])), "damaged");
        Path padded = write("padded", fixture.fileName(), concat(xz, new byte[8]));
        try (ParallelXz px = ParallelXz.open(padded)) {
            assertNotNull(px, "stream padding keeps the file seekable");
        }
        assertTrue(inspect(padded).acceptable());
    }

    @Test
    void bytesAfterTheLastGzipMemberAreRefused() throws Exception {
        String name = fixture.fileName().replace(".tar.xz", ".tgz");
        refused(write("garbage", name, concat(gzip(tarBytes()), GARBAGE)), "damaged");
        // zeros after the last member are padding (gzip -d ignores them); anything after the zeros is not
        assertTrue(inspect(write("zeros", name, concat(gzip(tarBytes()), new byte[100]))).acceptable());
        refused(write("zeros-then-garbage", name, concat(gzip(tarBytes()), concat(new byte[100], GARBAGE))), "damaged");
        refused(write("zeros-then-member", name, concat(gzip(tarBytes()), concat(new byte[4], gzip(GARBAGE)))), "damaged");
    }

    @ParameterizedTest
    @ValueSource(strings = {"java", "auto"})
    void dataHiddenAfterTheTarsEndMarkerIsRefused(String decoder) throws Exception {
        xz = XzDecoders.Choice.parse(decoder);
        byte[] tar = tarBytes();
        byte[] hidden = concat(tar, concat(new byte[10240], GARBAGE));
        refused(write("hidden", fixture.fileName(), singleBlock(hidden)), "follows the end of the tar");
        byte[] zeros = concat(tar, new byte[20480]);
        assertTrue(inspect(write("zeros", fixture.fileName(), singleBlock(zeros))).acceptable());
    }

}
