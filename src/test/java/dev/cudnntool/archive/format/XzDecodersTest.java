package dev.cudnntool.archive.format;

import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.name.ArchiveName;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.testing.ArchiveFixture;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZ;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * The .xz stream decoders: the system's liblzma (when this machine has it) gives the same bytes as
 * xz-java and refuses the same damage; xz-java takes over when the library is missing or forced.
 */
class XzDecodersTest {
    @TempDir
    Path dir;


    private static Liblzma liblzma() {
        Optional<Liblzma> lib = Liblzma.system();
        Assumptions.assumeTrue(lib.isPresent(), "this machine has no usable liblzma.so.5");
        return lib.get();
    }

    private static byte[] xz(byte[] data, int preset, int check) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (XZOutputStream xz = new XZOutputStream(out, new LZMA2Options(preset), check)) {
            xz.write(data);
        }
        return out.toByteArray();
    }

    private static byte[] decodeNative(Liblzma lib, byte[] compressed) throws IOException {
        try (InputStream in = XzDecoders.decoder(new ByteArrayInputStream(compressed), Optional.of(lib))) {
            assertInstanceOf(NativeXzInputStream.class, in);
            return in.readAllBytes();
        }
    }

    private static byte[] decodeJava(byte[] compressed) throws IOException {
        try (InputStream in = XzDecoders.decoder(new ByteArrayInputStream(compressed), Optional.empty())) {
            return in.readAllBytes();
        }
    }

    @Test
    void liblzmaGivesTheSameBytesAsXzJava() throws IOException {
        Liblzma lib = liblzma();
        byte[] data = ParallelXzTest.data(3 << 20);
        for (int check : new int[] {XZ.CHECK_CRC32, XZ.CHECK_CRC64, XZ.CHECK_SHA256,
                XZ.CHECK_NONE}) {
            byte[] c = xz(data, 6, check);
            assertArrayEquals(decodeJava(c), decodeNative(lib, c), "check " + check);
            assertArrayEquals(data, decodeNative(lib, c));
        }
        byte[] empty = xz(new byte[0], 1, XZ.CHECK_CRC64);
        assertEquals(0, decodeNative(lib, empty).length, "an .xz of nothing is nothing");
    }

    @Test
    void liblzmasMultiThreadedDecoderGivesTheSameBytes() throws Exception {
        Liblzma lib = liblzma();
        Assumptions.assumeTrue(lib.hasMultiThreadedDecoder(), "liblzma before 5.4");
        byte[] data = ParallelXzTest.data(6 << 20);
        byte[] multi = Files.readAllBytes(ParallelXzTest.multiBlock(dir.resolve("m.xz"), data, 500_000, 6));
        try (InputStream in = new NativeXzInputStream(lib, new ByteArrayInputStream(multi), 3)) {
            assertArrayEquals(data, in.readAllBytes());
        }
        byte[] corrupt = multi.clone();
        corrupt[multi.length / 2] ^= 0x10;
        assertThrows(IOException.class, () -> {
            try (InputStream in = new NativeXzInputStream(lib, new ByteArrayInputStream(corrupt), 3)) {
                in.readAllBytes();
            }
        });
        byte[] trailing = Arrays.copyOf(multi, multi.length + 5);
        assertThrows(IOException.class, () -> {
            try (InputStream in = new NativeXzInputStream(lib, new ByteArrayInputStream(trailing), 3)) {
                in.readAllBytes();
            }
        });
        assertThrows(IOException.class, () -> {
            try (InputStream in = new NativeXzInputStream(lib, new ByteArrayInputStream(Arrays.copyOf(multi, multi.length - 30)), 3)) {
                in.readAllBytes();
            }
        });
    }

    @Test
    void liblzmaRefusesWhatXzJavaRefuses() throws IOException {
        Liblzma lib = liblzma();
        byte[] c = xz(ParallelXzTest.data(1 << 20), 6, XZ.CHECK_CRC64);
        byte[] truncated = Arrays.copyOf(c, c.length - 20);
        byte[] corrupt = c.clone();
        corrupt[c.length / 2] ^= 0x40;
        byte[] badCheck = c.clone();
        badCheck[c.length - 40] ^= 0x01; // in the block's CRC64 or index: never silently accepted
        byte[] trailing = Arrays.copyOf(c, c.length + 4);
        trailing[c.length + 2] = 'x';
        byte[] notXz = "this is not an xz file at all".getBytes();
        for (byte[] bad : new byte[][] {truncated, corrupt, badCheck, trailing, notXz, new byte[0]}) {
            IOException n = assertThrows(IOException.class, () -> decodeNative(lib, bad));
            assertThrows(IOException.class, () -> decodeJava(bad));
            assertTrue(n.getMessage() != null && !n.getMessage().isBlank());
        }
    }

    @Test
    void oneBlockArchiveInstallsTheSameFilesWithEitherDecoder() {
        liblzma();
        ArchiveFixture f = ArchiveFixture.linux("9.5.1.17", "12").xzPreset(6);
        Path archive = f.writeTo(dir);
        ArchiveName name = ArchiveName.parse(archive.getFileName().toString());
        ArchiveReport java = new ArchiveInspector(InspectionLimits.DEFAULT, XzDecoders.Choice.JAVA).inspect(archive, name, null);
        ArchiveReport nat = new ArchiveInspector(InspectionLimits.DEFAULT, XzDecoders.Choice.AUTO).inspect(archive, name, null);
        assertTrue(nat.acceptable(), nat.findings().toString());
        assertEquals(java.archive().sha256(), nat.archive().sha256());
        assertEquals(hashes(java), hashes(nat));
        assertFalse(hashes(nat).isEmpty());
    }

    private static String hashes(ArchiveReport r) {
        return r.entries().stream().filter(i -> i.sha256() != null)
                .map(i -> i.relPath() + "=" + i.sha256()).sorted().collect(Collectors.joining("\n"));
    }

    @Test
    void aTruncatedOrCorruptArchiveIsExit3WithEitherDecoder() throws IOException {
        Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(dir.resolve("src"));
        byte[] bytes = Files.readAllBytes(archive);
        byte[] corrupt = bytes.clone();
        for (int i = bytes.length / 2; i < bytes.length / 2 + 16; i++) {
            corrupt[i] ^= 0x5a;
        }
        for (String decoder : new String[] {"java", "auto"}) {
            XzDecoders.Choice xz = XzDecoders.Choice.parse(decoder);
            for (byte[] bad : new byte[][] {Arrays.copyOf(bytes, bytes.length / 2), Arrays.copyOf(bytes, bytes.length - 1), corrupt}) {
                Path f = dir.resolve("bad").resolve(archive.getFileName());
                Files.createDirectories(f.getParent());
                Files.write(f, bad);
                ToolException e = assertThrows(ToolException.class,
                        () -> new ArchiveInspector(InspectionLimits.DEFAULT, xz).inspect(f, ArchiveName.parse(f.getFileName().toString()), null));
                assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode(), decoder + ": " + e.getMessage());
                assertTrue(e.getMessage().contains("damaged"), e.getMessage());
                assertFalse(e.getMessage().contains("null"), e.getMessage());
            }
        }
    }

    @Test
    void withoutLiblzmaTheJavaDecoderTakesOver() throws IOException {
        assertEquals(Optional.empty(), Liblzma.load("libcudnn-tool-no-such-lzma.so.5"));
        XzDecoders.Choice java = XzDecoders.Choice.JAVA;
        assertEquals(Optional.empty(), XzDecoders.chosen(java));
        assertEquals("xz-java", XzDecoders.describe(java));
        byte[] data = ParallelXzTest.data(1 << 20);
        try (InputStream in = XzDecoders.decoder(new ByteArrayInputStream(xz(data, 6, XZ.CHECK_CRC64)),
                XzDecoders.chosen(java))) {
            assertFalse(in instanceof NativeXzInputStream);
            assertArrayEquals(data, in.readAllBytes());
        }
        // and a whole archive still reads, through the background thread
        Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(dir);
        assertTrue(new ArchiveInspector(InspectionLimits.DEFAULT, java).inspect(archive,
                ArchiveName.parse(archive.getFileName().toString()), null).acceptable());
    }

    /** The user's knob, -Dcudnntool.xz.decoder, as the entry point reads it once into the setting. */
    @Test
    void theKnobsValuesBecomeTheSetting() {
        assertEquals(XzDecoders.Choice.AUTO, XzDecoders.Choice.parse(null));
        assertEquals(XzDecoders.Choice.AUTO, XzDecoders.Choice.parse("auto"));
        assertEquals(XzDecoders.Choice.JAVA, XzDecoders.Choice.parse(" Java "));
        assertEquals(XzDecoders.Choice.NATIVE, XzDecoders.Choice.parse("native"));
        assertEquals(XzDecoders.Choice.AUTO, XzDecoders.Choice.parse("zstd"), "an unknown value is the default, as before");
        assertEquals("cudnntool.xz.decoder", XzDecoders.PROPERTY);
    }

    @Test
    void onlyReleasesWithoutTheBackdoorAreUsed() {
        assertTrue(Liblzma.acceptable(50040012), "5.4.1");
        assertTrue(Liblzma.acceptable(50000002), "5.0.0");
        assertTrue(Liblzma.acceptable(50060022), "5.6.2");
        assertTrue(Liblzma.acceptable(50080012), "5.8.1");
        assertFalse(Liblzma.acceptable(50060002), "5.6.0");
        assertFalse(Liblzma.acceptable(50060012), "5.6.1");
        assertFalse(Liblzma.acceptable(49990012), "4.999.1");
        assertEquals("5.4.1", Liblzma.versionText(50040012));
    }

    @Test
    void theSystemLibrarysVersionIsChecked() {
        Liblzma lib = liblzma();
        assertTrue(Liblzma.acceptable(lib.version));
        XzDecoders.Choice auto = XzDecoders.Choice.AUTO;
        assertNotEquals("xz-java", XzDecoders.describe(auto));
        assertTrue(XzDecoders.describe(auto).startsWith("liblzma 5."), XzDecoders.describe(auto));
        assertEquals(lib.hasMultiThreadedDecoder() && XzDecoders.threads() > 1, XzDecoders.decodesBlocksInParallel(auto),
                "liblzma's own threads replace ParallelXz where it has them");
        assertFalse(XzDecoders.decodesBlocksInParallel(XzDecoders.Choice.JAVA), "forced to xz-java: ParallelXz decodes the blocks");
    }

    @Test
    void xzJavaAndTheSystemXzAgreeOnTheSameFile() throws IOException {
        Liblzma lib = liblzma();
        byte[] data = ParallelXzTest.data(2 << 20);
        byte[] c = xz(data, 6, XZ.CHECK_CRC64);
        try (InputStream in = new XZInputStream(new ByteArrayInputStream(c))) {
            assertArrayEquals(in.readAllBytes(), decodeNative(lib, c));
        }
    }
}
