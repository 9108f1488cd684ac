package dev.cudnntool.archive.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Seeded random matrices (lists of compute capabilities and old pages' "SM x.y and later", several releases of one CUDA
 * major, some not held) against what the answers must always satisfy: a held release answers for itself; a release
 * not held is refused (droppedBefore) or left unknown (droppedBetween), never both; unknown means the nearest held
 * release below supports the GPU and the nearest above does not; and the file written from the rows reads back as them.
 */
class SupportMatrixPropertyTest {
    private static final String[] CC = {"3.0", "3.5", "3.7", "5.0", "5.2", "6.0", "6.1", "7.0", "7.2", "7.5", "8.0", "8.6", "8.9",
        "9.0", "10.0", "12.0"};

    private static SupportMatrix.Row randomRow(Random rnd, String release) {
        boolean from = rnd.nextInt(4) == 0;
        List<String> list = new ArrayList<>();
        if (!from) {
            int lo = rnd.nextInt(CC.length - 1);
            int hi = lo + 1 + rnd.nextInt(CC.length - lo - 1);
            for (int i = lo; i <= hi; i++) {
                if (i == lo || rnd.nextInt(3) > 0) {
                    list.add(CC[i]);
                }
            }
        }
        String driver = rnd.nextBoolean() ? null : (450 + rnd.nextInt(150)) + (rnd.nextBoolean() ? "" : "." + rnd.nextInt(100));
        return new SupportMatrix.Row(release, 12, List.of("12." + rnd.nextInt(10)), driver, rnd.nextBoolean() ? driver : null,
                list, from ? CC[rnd.nextInt(CC.length)] : null, "https://docs.nvidia.com/r/" + release, null);
    }

    private static String json(List<SupportMatrix.Row> rows) {
        StringBuilder b = new StringBuilder("{\"schema\":1,\"rows\":[");
        for (int i = 0; i < rows.size(); i++) {
            SupportMatrix.Row r = rows.get(i);
            b.append(i == 0 ? "" : ",").append("{\"release\":\"").append(r.release()).append("\",\"cuda\":").append(r.cuda())
                    .append(",\"toolkits\":[\"").append(String.join("\",\"", r.toolkits())).append("\"],\"driverLinux\":")
                    .append(quoted(r.driverLinux())).append(",\"driverWindows\":").append(quoted(r.driverWindows()))
                    .append(",\"computeCapabilities\":[").append(r.computeCapabilities().isEmpty() ? ""
                            : "\"" + String.join("\",\"", r.computeCapabilities()) + "\"").append("]");
            if (r.computeCapabilityFrom() != null) {
                b.append(",\"computeCapabilityFrom\":\"").append(r.computeCapabilityFrom()).append('"');
            }
            b.append(",\"source\":\"").append(r.source()).append("\"}");
        }
        return b.append("]}").toString();
    }

    private static String quoted(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }

    private static Optional<Boolean> supports(SupportMatrix m, String release, String gpu) {
        return Optional.ofNullable(m.fit(release, 12, null, gpu, false).gpuOk());
    }

    @TestFactory
    Stream<DynamicTest> answersAboutReleasesNotHeldFollowTheReleasesAroundThem() {
        return IntStream.range(0, 300).mapToObj(seed -> dynamicTest("seed " + seed, () -> {
            Random rnd = new Random(seed);
            List<SupportMatrix.Row> rows = new ArrayList<>();
            List<String> held = new ArrayList<>();
            for (int minor = 0; minor < 12; minor++) {
                if (rnd.nextInt(3) == 0) {
                    String release = "9." + minor + ".0";
                    held.add(release);
                    for (int n = 1 + rnd.nextInt(2); n > 0; n--) {
                        rows.add(randomRow(rnd, release));
                    }
                }
            }
            SupportMatrix m = SupportMatrix.parse(json(rows).getBytes(StandardCharsets.UTF_8));
            assertEquals(rows, m.all(), "the file written from the rows reads back as them");
            for (int minor = 0; minor < 12; minor++) {
                String release = "9." + minor + ".0";
                for (String gpu : CC) {
                    Optional<String> before = m.droppedBefore(release + ".1", 12, gpu);
                    Optional<String> between = m.droppedBetween(release + ".1", 12, gpu);
                    if (held.contains(release)) {
                        assertTrue(before.isEmpty() && between.isEmpty(), release + " answers for itself");
                        boolean any = m.rows(release, 12).stream().anyMatch(r -> r.supportsGpu(gpu));
                        assertEquals(Optional.of(any), supports(m, release, gpu), release + " " + gpu);
                        continue;
                    }
                    assertFalse(before.isPresent() && between.isPresent(), release + " " + gpu + ": refused and unknown at once");
                    String older = null;
                    String newer = null;
                    for (String h : held) {
                        int hm = Integer.parseInt(h.split("\\.")[1]);
                        if (hm < minor) {
                            older = h;
                        } else if (newer == null) {
                            newer = h;
                        }
                    }
                    boolean olderHas = older != null && supports(m, older, gpu).orElseThrow();
                    boolean newerLacks = newer != null && !supports(m, newer, gpu).orElseThrow();
                    assertEquals(olderHas && newerLacks, between.isPresent(), release + " " + gpu + " between " + older + " and " + newer);
                    if (before.isPresent()) {
                        assertTrue(older != null && !supports(m, older, gpu).orElseThrow(), "refused only after a release lacking it");
                    }
                }
            }
        }));
    }
}
