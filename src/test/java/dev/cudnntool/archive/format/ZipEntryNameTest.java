package dev.cudnntool.archive.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.name.ArchiveName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An entry name or comment that is not UTF-8 is the zip's damage, never an unchecked failure of the JDK's reader
 * (#35: {@code ArchiveFuzzTestInputs/wheel/regression-zip-name-not-utf8}), for zips and wheels alike.
 */
class ZipEntryNameTest {
    @TempDir
    Path dir;

    /**
     * A zip whose entry {@code nvidia/cudnn/include/Xbad.h} has the X replaced by {@code bad}: in its
     * name (the local header and the central directory) or, when {@code inComment}, in its comment
     * {@code /Xbad.h} (the central directory only, which the JDK decodes only when listing entries).
     */
    private Path zip(String fileName, byte bad, boolean inComment) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(out)) {
            z.putNextEntry(new ZipEntry("nvidia/cudnn/include/cudnn.h"));
            z.write("/* cudnn */\n".getBytes(StandardCharsets.US_ASCII));
            z.closeEntry();
            ZipEntry odd = new ZipEntry(inComment ? "nvidia/cudnn/include/odd.h" : "nvidia/cudnn/include/Xbad.h");
            if (inComment) {
                odd.setComment("/Xbad.h");
            }
            z.putNextEntry(odd);
            z.write("x".getBytes(StandardCharsets.US_ASCII));
            z.closeEntry();
        }
        byte[] bytes = out.toByteArray();
        byte[] marker = "/Xbad.h".getBytes(StandardCharsets.US_ASCII);
        int patched = 0;
        for (int i = 0; i + marker.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + marker.length, marker, 0, marker.length)) {
                bytes[i + 1] = bad;
                patched++;
            }
        }
        assertEquals(inComment ? 1 : 2, patched, "where the name or the comment is");
        Path f = dir.resolve(fileName);
        Files.write(f, bytes);
        return f;
    }

    @Test
    void theDirectoryRefusesANameThatIsNotUtf8AsAZipException() throws IOException {
        for (byte bad : new byte[] {(byte) 0xff, (byte) 0xc3, (byte) 0x80}) {
            for (boolean inComment : new boolean[] {false, true}) {
                Path zip = zip("names-" + (bad & 0xff) + "-" + inComment + ".zip", bad, inComment);
                ZipException e = assertThrows(ZipException.class, () -> {
                    try (ZipDirectory d = ZipDirectory.open(zip)) {
                        d.entries();
                    }
                });
                assertTrue(e.getMessage().contains("bad entry name"), e.getMessage());
            }
        }
    }

    @Test
    void aWheelOrZipWithSuchANameIsADamagedArchive() throws IOException {
        for (String name : new String[] {"nvidia_cudnn_cu12-9.5.1.17-py3-none-manylinux2014_x86_64.whl",
                "cudnn-windows-x86_64-9.5.1.17_cuda12-archive.zip"}) {
            for (boolean inComment : new boolean[] {false, true}) {
                Files.createDirectories(dir.resolve("c" + inComment));
                Path archive = zip("c" + inComment + "/" + name, (byte) 0xff, inComment);
                ToolException e = assertThrows(ToolException.class,
                        () -> new ArchiveInspector().inspect(archive, ArchiveName.parse(name), null));
                assertTrue(e.getMessage().contains("bad entry name"), e.getMessage());
            }
        }
    }
}
