package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.WheelFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wheel's RECORD and METADATA beyond WheelRecordPropertyTest: line endings, a BOM, a huge header or RECORD, a version
 * that differs from the name's only by PEP 440 spelling, the same entry twice. Each is installed or refused with exit 3
 * in one line, never a crash; nothing is installed when refused.
 */
class WheelHostileMetadataTest {
    private static final String META = "nvidia_cudnn_cu12-9.5.1.17.dist-info/METADATA";

    @TempDir
    Path downloads;

    private static String metadata(String version) {
        return "Metadata-Version: 2.4\nName: nvidia-cudnn-cu12\nVersion: " + version + "\n\ncuDNN (fixture)\n";
    }

    /** The exit an install of {@code w} ends with: an outcome's, or a refusal's (one line); any other exception fails. */
    private int install(WheelFixture w) throws Exception {
        Path wheel = w.writeTo(downloads);
        try (Machine m = Machine.linux().toolkit("12.6.20240801").build()) {
            return install(m, wheel);
        } finally {
            Files.delete(wheel);
        }
    }

    private static int install(Machine m, Path wheel) {
        int exit;
        try {
            InstallOutcome o = m.install(wheel);
            exit = o.exit().code();
        } catch (ToolException e) {
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            exit = e.exitCode().code();
        }
        if (exit != 0) {
            assertFalse(Files.exists(m.toolkit().resolve("targets/x86_64-linux/lib/libcudnn.so.9")), "nothing installed");
        }
        return exit;
    }

    private static WheelFixture wheel() {
        return WheelFixture.of("9.5.1.17", 12, "manylinux2014_x86_64");
    }

    @Test
    void crlfLinesAreReadAsLines() throws Exception {
        assertEquals(0, install(wheel().file(META, metadata("9.5.1.17").replace("\n", "\r\n")).editRecord(r -> r.replace("\n", "\r\n"))));
    }

    @Test
    void aByteOrderMarkIsNotSkippedSilently() throws Exception {
        assertEquals(ExitCode.ARCHIVE_REJECTED.code(), install(wheel().editRecord(r -> "\uFEFF" + r)));
        assertEquals(ExitCode.ARCHIVE_REJECTED.code(), install(wheel().file(META, "\uFEFFName: nvidia-cudnn-cu12\nVersion: 9.5.1.17\n\n")));
    }

    @Test
    void aVersionThatIsAnotherReleaseUnderPep440IsRefused() throws Exception {
        for (String v : List.of("9.5.1.17.post0", "9.5.1.17rc1", "9.5.1.17.dev0", "9.5.1.17+local", "9.5.1", "9.5.1.17.0.1",
                "99999999999999999999.5.1.17", "9.5.1.17\u001b[2J", "", "9.5.1.17 9.5.1.18")) {
            assertEquals(ExitCode.ARCHIVE_REJECTED.code(), install(wheel().file(META, metadata(v))), v);
        }
        assertEquals(0, install(wheel().file(META, metadata("09.5.1.17"))), "the same release, PEP 440's leading zero");
    }

    @Test
    void aHugeMetadataHeaderOrRecordIsRefusedNotRead() throws Exception {
        assertEquals(ExitCode.ARCHIVE_REJECTED.code(), install(wheel().file(META, "Name: nvidia-cudnn-cu12\nVersion: 9.5.1.17\n"
                + "X-Field: y\n".repeat(1_200_000) + "\n")));
        assertEquals(ExitCode.ARCHIVE_REJECTED.code(), install(wheel().editRecord(r -> r + "\n".repeat(7_000_000))));
        assertEquals(ExitCode.ARCHIVE_REJECTED.code(), install(wheel().editRecord(r -> r + "a\n".repeat(5_000_000))));
    }

    /** The same entry name twice (a zip can hold it; pip and this tool could read different copies): refused. */
    @Test
    void theSameEntryTwiceIsRefused() throws Exception {
        for (String name : List.of(META, "nvidia_cudnn_cu12-9.5.1.17.dist-info/RECORD", "nvidia/cudnn/lib/libcudnn.so.9")) {
            String twin = name.substring(0, name.length() - 1) + "\u0001";
            WheelFixture w = wheel().file(twin, name.endsWith("METADATA") ? metadata("9.5.1.18") : "other");
            Path p = w.writeTo(downloads);
            byte[] zip = Files.readAllBytes(p);
            Files.delete(p);
            byte[] from = twin.getBytes(StandardCharsets.UTF_8);
            byte[] to = name.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i + from.length <= zip.length; i++) {
                if (Arrays.equals(zip, i, i + from.length, from, 0, from.length)) {
                    System.arraycopy(to, 0, zip, i, to.length);
                }
            }
            Path wheel = Files.write(downloads.resolve(w.fileName()), zip);
            try (Machine m = Machine.linux().toolkit("12.6.20240801").build()) {
                assertEquals(ExitCode.ARCHIVE_REJECTED.code(), install(m, wheel), name);
            } finally {
                Files.delete(wheel);
            }
        }
    }

    /** Seeded: METADATA headers of random fields, continuation lines and line endings; exit 0 only with one Name and Version. */
    @TestFactory
    Stream<DynamicTest> mutatedMetadataHeaders() {
        return Stream.of(4L, 8L, 15L, 16L, 23L, 42L).map(seed -> dynamicTest("seed " + seed, () -> {
            Random rnd = new Random(seed);
            List<String> fields = List.of("Name: nvidia-cudnn-cu12", "Version: 9.5.1.17", "name:nvidia_cudnn_cu12", "VERSION:  9.5.1.17 ",
                    " continued", "Summary: x", "Name: torch", "Version: 9.5.1.18", "\u001b[31m: x", ": empty key", "no colon");
            StringBuilder b = new StringBuilder();
            int names = 0;
            int versions = 0;
            boolean otherName = false;
            boolean otherVersion = false;
            for (int i = rnd.nextInt(6); i >= 0; i--) {
                String f = fields.get(rnd.nextInt(fields.size()));
                names += f.toLowerCase().startsWith("name:") ? 1 : 0;
                versions += f.toLowerCase().startsWith("version:") ? 1 : 0;
                otherName |= f.equals("Name: torch");
                otherVersion |= f.equals("Version: 9.5.1.18");
                b.append(f).append(rnd.nextBoolean() ? "\r\n" : "\n");
            }
            UnaryOperator<String> same = UnaryOperator.identity();
            int exit = install(wheel().file(META, b + "\nName: after-the-header\n").editRecord(same));
            boolean good = names == 1 && versions == 1 && !otherName && !otherVersion;
            assertEquals(good ? 0 : ExitCode.ARCHIVE_REJECTED.code(), exit, b.toString());
        }));
    }
}
