package dev.cudnntool.archive.wheel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * RECORD and METADATA are hostile input (issue 20 item 7): whatever bytes a seeded generator makes of
 * a good RECORD, parsing either accepts lines that are plain relative paths with a 32-byte sha256 and
 * a bounded size, or refuses with exit 3 in one line; never another exception, never a path with
 * "..", a leading '/', a backslash or a colon.
 */
class WheelRecordPropertyTest {
    private static final String SELF = "nvidia_cudnn_cu12-9.5.1.17.dist-info/RECORD";
    private static final String GOOD = "nvidia/cudnn/include/cudnn.h,sha256=8RPwcDLqArVMoX1uBGnhrbNiymv-Jqhif3f5Teem7wQ,3069\n"
            + "nvidia/cudnn/lib/libcudnn.so.9,sha256=D0MRPsaxcfkyNlYFQfO5UQT-0lFrGQAKDnBHpcwS-O4,129240\n"
            + SELF + ",,\n";
    private static final String ALPHABET = "abc/.,=-_\\:\"\n\r 0123456789sha256AZ\u0000\u001b..//";

    @Test
    void nvidiasRecordParsesToHexDigests() {
        WheelRecord r = WheelRecord.parse("w.whl", GOOD, SELF, 100, 1L << 34);
        assertEquals(2, r.files().size());
        WheelRecord.Line l = r.files().get("nvidia/cudnn/lib/libcudnn.so.9");
        assertEquals(129240, l.size());
        assertEquals(64, l.sha256().length());
        assertEquals(SELF, r.self());
    }

    @TestFactory
    Stream<DynamicTest> mutatedRecordsAreAcceptedSafelyOrRefusedWithExit3() {
        List<DynamicTest> tests = new ArrayList<>();
        for (long seed = 1; seed <= 300; seed++) {
            long s = seed;
            tests.add(dynamicTest("seed " + s, () -> check(mutate(new Random(s)))));
        }
        return tests.stream();
    }

    private static String mutate(Random rnd) {
        StringBuilder b = new StringBuilder(GOOD);
        int edits = 1 + rnd.nextInt(6);
        for (int i = 0; i < edits; i++) {
            int at = rnd.nextInt(b.length() + 1);
            switch (rnd.nextInt(4)) {
                case 0 -> b.insert(at, ALPHABET.charAt(rnd.nextInt(ALPHABET.length())));
                case 1 -> {
                    if (at < b.length()) {
                        b.deleteCharAt(at);
                    }
                }
                case 2 -> b.insert(at, rnd.nextBoolean() ? "../" : "9".repeat(1 + rnd.nextInt(30)));
                default -> {
                    if (at < b.length()) {
                        b.setCharAt(at, ALPHABET.charAt(rnd.nextInt(ALPHABET.length())));
                    }
                }
            }
        }
        return b.toString();
    }

    private static void check(String text) {
        WheelRecord r;
        try {
            r = WheelRecord.parse("w.whl", text, SELF, 100, 1L << 34);
        } catch (ToolException e) {
            assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            return;
        }
        for (WheelRecord.Line l : r.files().values()) {
            String p = l.path();
            assertFalse(p.startsWith("/") || p.contains("\\") || p.contains(":") || p.contains("\u0000"), p);
            assertFalse(List.of(p.split("/", -1)).contains(".."), p);
            assertTrue(l.sha256().matches("[0-9a-f]{64}"), l.sha256());
            assertTrue(l.size() >= 0 && l.size() <= 1L << 34);
        }
    }

    @Test
    void metadataNeedsOneNameAndOneVersion() {
        assertEquals(new WheelMetadata("nvidia-cudnn-cu12", "9.5.1.17"),
                WheelMetadata.parse("w", "Metadata-Version: 2.1\r\nName: nvidia-cudnn-cu12\r\nVersion: 9.5.1.17\r\n\r\nVersion: 1\n"));
        for (String bad : List.of("Name: a\n", "Version: 1\n", "Name: a\nName: b\nVersion: 1\n", "\nName: a\nVersion: 1\n")) {
            ToolException e = Assertions.assertThrows(ToolException.class, () -> WheelMetadata.parse("w", bad));
            assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
        }
        assertEquals("nvidia-cudnn-cu12", WheelMetadata.normalise("NVIDIA_cudnn.cu12"));
    }
}
