package dev.cudnntool.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.ArchiveItem;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.format.EntryType;
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
import java.util.List;
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
        // A name read once reads again from NVIDIA's spelling of it as the same release and platform (the format may
        // differ: a renamed .tgz is the file's own, NVIDIA's spelling is .tar.xz), and that spelling is its own.
        if (Contract.holds(name.length(), () -> ArchiveName.parse(name)) instanceof ArchiveName n) {
            ArchiveName canonical = ArchiveName.parse(n.canonicalName());
            assertEquals(List.of(n.version(), n.os(), n.arch(), n.cudaVariant(), n.canonicalName()),
                    List.of(canonical.version(), canonical.os(), canonical.arch(), canonical.cudaVariant(), canonical.canonicalName()),
                    name);
        }
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
            Object read = Contract.holds(bytes.length, () -> new ArchiveInspector().inspect(file, ArchiveName.parse(name), null));
            // An archive the inspection accepts names only plain relative paths: nothing it installs can land outside the target.
            if (read instanceof ArchiveReport report && report.acceptable()) {
                for (ArchiveItem e : report.entries()) {
                    String rel = e.relPath();
                    if (rel.isEmpty() && e.type() == EntryType.DIRECTORY) {
                        continue; // the top folder itself
                    }
                    assertTrue(!rel.isEmpty() && !rel.startsWith("/") && !rel.contains("\\") && !rel.contains(":")
                            && Arrays.stream(rel.split("/")).noneMatch(seg -> seg.isEmpty() || seg.equals(".") || seg.equals(".."))
                            && rel.chars().noneMatch(c -> c < 0x20 || c == 0x7f), () -> "accepted entry " + e);
                }
            }
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
