package dev.cudnntool.fuzz;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.WheelName;
import dev.cudnntool.archive.wheel.WheelMetadata;
import dev.cudnntool.archive.wheel.WheelRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * The archive readers: file names, zip, the tar family (tar.xz, tgz) and wheels, each read as
 * {@code cudnn install} reads a downloaded file (the whole inspection: entry names, types, sizes,
 * CRCs, the layout, the version evidence).
 */
class ArchiveFuzzTest {
    static final String ZIP = "cudnn-windows-x86_64-9.5.1.17_cuda12-archive.zip";
    static final String TAR_XZ = "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz";
    static final String TGZ = "cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tgz";
    static final String WHEEL = "nvidia_cudnn_cu12-9.5.1.17-py3-none-manylinux2014_x86_64.whl";

    @FuzzTest
    void archiveName(FuzzedDataProvider data) {
        String name = data.consumeRemainingAsString();
        Contract.holds(name.length(), () -> ArchiveName.parse(name));
        Contract.holds(name.length(), () -> WheelName.parse(name));
    }

    @FuzzTest
    void zip(byte[] data) throws IOException {
        inspect(ZIP, data);
    }

    /** The first byte chooses the wrapping: the input as the file itself, or as the tar inside xz or gzip. */
    @FuzzTest
    void tarFamily(byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        byte[] rest = Arrays.copyOfRange(data, 1, data.length);
        switch (data[0] & 3) {
            case 0 -> inspect(TAR_XZ, rest);
            case 1 -> inspect(TGZ, rest);
            case 2 -> inspect(TAR_XZ, xz(rest));
            default -> inspect(TGZ, gzip(rest));
        }
    }

    @FuzzTest
    void wheel(byte[] data) throws IOException {
        inspect(WHEEL, data);
    }

    /** A wheel's METADATA and RECORD texts, read as the wheel reader reads them once unzipped. */
    @FuzzTest
    void wheelMetadataAndRecord(FuzzedDataProvider data) {
        String metadata = data.consumeString(4096);
        String record = data.consumeRemainingAsString();
        Contract.holds(metadata.length(), () -> WheelMetadata.parse(WHEEL, metadata));
        Contract.holds(record.length(), () -> WheelRecord.parse(WHEEL, record,
                "nvidia_cudnn_cu12-9.5.1.17.dist-info/RECORD", 10_000, WheelRecord.MAX_BYTES));
    }

    static void inspect(String name, byte[] bytes) throws IOException {
        Path dir = Files.createTempDirectory("fuzz-archive");
        Path file = dir.resolve(name);
        try {
            Files.write(file, bytes);
            Contract.holds(bytes.length, () -> new ArchiveInspector().inspect(file, ArchiveName.parse(name), null));
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    static byte[] xz(byte[] tar) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (XZOutputStream x = new XZOutputStream(out, new LZMA2Options(0))) {
            x.write(tar);
        }
        return out.toByteArray();
    }

    static byte[] gzip(byte[] tar) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(out)) {
            g.write(tar);
        }
        return out.toByteArray();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
