package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A zip is read the same way wherever it lies: the same bytes on this machine's disk and on jimfs
 * (Unix and Windows) give the same report (entries in the same order, every sha256, the findings)
 * and install the same files. (Before #22 item 4 a zip on another file system was streamed from
 * its local headers, and a zip whose central directory lists its entries in another order than
 * its local headers came out in another order.)
 */
class ZipOnAnyFileSystemTest {
    private static final String NAME = "cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip";

    @TempDir
    Path downloads;

    @Test
    void theSameZipGivesTheSameReportOnDiskAndOnJimfs() throws Exception {
        for (byte[] zip : zips()) {
            String onDisk = describe(inspect(write(downloads, zip)));
            for (Configuration c : List.of(Configuration.unix(), Configuration.windows())) {
                try (FileSystem fs = Jimfs.newFileSystem(c)) {
                    Path d = Files.createDirectories(fs.getRootDirectories().iterator().next().resolve("downloads"));
                    assertEquals(onDisk, describe(inspect(write(d, zip))), c.toString());
                }
            }
        }
    }

    @Test
    void aDamagedZipIsRefusedInTheSameWordsOnDiskAndOnJimfs() throws Exception {
        byte[] zip = Files.readAllBytes(ArchiveFixture.windows("8.9.5.30", "12").writeAs(downloads.resolve("good.zip")));
        for (int i = zip.length / 2; i < zip.length / 2 + 16; i++) {
            zip[i] ^= 0x5a;
        }
        ToolException onDisk = refused(write(downloads, zip));
        try (FileSystem fs = Jimfs.newFileSystem(Configuration.windows())) {
            ToolException onJimfs = refused(write(Files.createDirectories(fs.getPath("C:\\downloads")), zip));
            assertEquals(onDisk.exitCode(), onJimfs.exitCode());
            assertEquals(onDisk.getMessage(), onJimfs.getMessage());
        }
    }

    @Test
    void theSameZipInstallsTheSameFilesFromDiskAndFromJimfs() throws Exception {
        byte[] zip = reordered(Files.readAllBytes(ArchiveFixture.windows("8.9.5.30", "12").writeAs(downloads.resolve("a.zip"))));
        List<String> results = new ArrayList<>();
        for (boolean fromJimfs : new boolean[] {false, true}) {
            try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
                Path archive = write(fromJimfs ? Files.createDirectories(m.path("C:\\Users\\me\\Downloads")) : downloads, zip);
                InstallOutcome o = m.install(archive);
                assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
                Map<String, String> tree = TreeSnapshot.of(m.toolkit().resolve("bin"));
                results.add(describe(o.archive()) + "\n" + o.plan().steps().size() + " steps\n" + tree);
            }
        }
        assertEquals(results.get(0), results.get(1));
    }

    private static ArchiveReport inspect(Path p) {
        return new ArchiveInspector().inspect(p, ArchiveName.parse(p.getFileName().toString()), null);
    }

    private static ToolException refused(Path p) {
        try {
            inspect(p);
        } catch (ToolException e) {
            return e;
        }
        throw new AssertionError("a damaged zip was accepted");
    }

    private static Path write(Path dir, byte[] zip) throws IOException {
        return Files.write(dir.resolve(NAME), zip);
    }

    /** Entries in order with size, role and sha256; the archive's sha256 and size; every finding. */
    private static String describe(ArchiveReport r) {
        StringBuilder s = new StringBuilder(r.archive().sha256() + " " + r.archive().sizeBytes() + " " + r.topFolder() + "\n");
        r.entries().forEach(e -> s.append(e.path()).append(' ').append(e.type()).append(' ').append(e.role()).append(' ')
                .append(e.size()).append(' ').append(e.sha256()).append('\n'));
        r.findings().forEach(f -> s.append(f.id()).append(' ').append(f.severity()).append(' ').append(f.message()).append('\n'));
        return s.toString();
    }

    /** A plain zip, one with a foreign file (a finding), and one whose central directory is in reverse order. */
    private List<byte[]> zips() throws IOException {
        byte[] plain = Files.readAllBytes(ArchiveFixture.windows("8.9.5.30", "12").writeAs(downloads.resolve("p.zip")));
        byte[] foreign = Files.readAllBytes(ArchiveFixture.windows("8.9.5.30", "12")
                .file("cudnn-windows-x86_64-8.9.5.30_cuda12-archive/bin/extra.exe", "MZ").writeAs(downloads.resolve("f.zip")));
        byte[] reversed = reordered(plain);
        assertNotEquals(describe(inspectBytes(plain)), describe(inspectBytes(reversed)), "the reordering shows in the report");
        return List.of(plain, foreign, reversed);
    }

    private ArchiveReport inspectBytes(byte[] zip) throws IOException {
        Path d = Files.createDirectories(downloads.resolve("once"));
        return inspect(write(d, zip));
    }

    /** The same zip with the records of its central directory in reverse order (the local headers stay). */
    static byte[] reordered(byte[] zip) {
        ByteBuffer b = ByteBuffer.wrap(zip).order(ByteOrder.LITTLE_ENDIAN);
        int eocd = zip.length - 22;
        while (b.getInt(eocd) != 0x06054b50) {
            eocd--;
        }
        int cdSize = b.getInt(eocd + 12);
        int cdStart = b.getInt(eocd + 16);
        List<byte[]> records = new ArrayList<>();
        for (int at = cdStart; at < cdStart + cdSize; ) {
            assertEquals(0x02014b50, b.getInt(at));
            int len = 46 + Short.toUnsignedInt(b.getShort(at + 28)) + Short.toUnsignedInt(b.getShort(at + 30))
                    + Short.toUnsignedInt(b.getShort(at + 32));
            records.add(Arrays.copyOfRange(zip, at, at + len));
            at += len;
        }
        assertTrue(records.size() > 2);
        byte[] out = zip.clone();
        int at = cdStart;
        for (int i = records.size() - 1; i >= 0; i--) {
            System.arraycopy(records.get(i), 0, out, at, records.get(i).length);
            at += records.get(i).length;
        }
        return out;
    }
}
