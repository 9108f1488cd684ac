package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Severity;
import dev.cudnntool.host.FolderListing;
import dev.cudnntool.probe.ProbeRunner;
import dev.cudnntool.testing.Seeds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * #32 item 7: thousands of libcudnn names in a scanned folder. verify reads them in linear time (a hang
 * guard, no speed goal) and stops at {@link FolderListing#MAX_NAMES} per folder with {@code scan.incomplete}.
 */
class ManyNamesTest {
    private static final String[] KINDS = {"major", "full", "sub", "link", "mixed"};

    static VerifyReport verifyWith(int names, String kind, long seed) throws Exception {
        LinuxDiagnosisTest m = new LinuxDiagnosisTest();
        Path lib = m.install(9, "9.5.1");
        Random r = new Random(seed);
        for (int i = 0; i < names; i++) {
            String k = kind.equals("mixed") ? KINDS[r.nextInt(4)] : kind;
            String name = switch (k) {
                case "major" -> "libcudnn.so." + (10 + i);
                case "full" -> "libcudnn.so.9." + i + ".0";
                case "sub" -> "libcudnn_ops.so.9." + i + ".1";
                default -> "libcudnn.so.8." + i + ".2";
            };
            Path p = lib.resolve(name);
            if (Files.exists(p)) {
                continue;
            }
            if (k.equals("link")) {
                Files.createSymbolicLink(p, lib.resolve("libcudnn.so.9"));
            } else {
                Files.write(p, new byte[] {0x7f, 'E', 'L', 'F'});
            }
        }
        return new VerifyService(m.host(Map.of("CUDA_PATH", LinuxDiagnosisTest.TK, "LD_LIBRARY_PATH", LinuxDiagnosisTest.LIB)),
                new ProbeRunner(m.runner, List.of("java"))).verify(null, null, null);
    }

    static List<Finding> cuts(VerifyReport r) {
        return r.findings().stream().filter(f -> f.id().equals("scan.incomplete")).toList();
    }

    @TestFactory
    Stream<DynamicTest> fourThousandNamesAreAllReadWithoutAHang() {
        long seed = Seeds.seed(32_7);
        return IntStream.range(0, Seeds.tries(3, 10)).mapToObj(i -> {
            Random r = new Random(Seeds.caseSeed(seed, i));
            String kind = KINDS[r.nextInt(KINDS.length)];
            long s = r.nextLong();
            return DynamicTest.dynamicTest(i + " " + kind, Seeds.replayable("ManyNamesTest", seed, i, () -> {
                VerifyReport rep = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> verifyWith(4_000, kind, s));
                assertEquals(List.of(), cuts(rep), rep.findings().toString());
            }));
        });
    }

    @Test
    void twentyThousandNamesStopAtTheBoundWithAWarningNamingTheFolder() throws Exception {
        VerifyReport rep = assertTimeoutPreemptively(Duration.ofSeconds(240), () -> verifyWith(20_000, "full", 7));
        List<Finding> cut = cuts(rep);
        assertEquals(1, cut.size(), rep.findings().stream().map(Finding::id).toList().toString());
        Finding f = cut.get(0);
        assertEquals(Severity.WARN, f.severity());
        assertTrue(f.message().startsWith(LinuxDiagnosisTest.LIB + " "), f.message());
        assertTrue(f.message().contains(FolderListing.MAX_NAMES + " names were read"), f.message());
        assertEquals(1, f.message().lines().count());
    }
}
