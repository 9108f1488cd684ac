package dev.cudnntool.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cudnntool.explain.CudnnStatus;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.RealWheels;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * #33: CudnnStatus against the real libraries' own names: cudnnGetErrorString of 8.9.7 (Bytedeco's jar) for every
 * 8.x number, of 9.5.1 and of the 9.24 wheel for every 9.x number (an alias answers its target's name), each in a
 * child JVM with the library's folder on LD_LIBRARY_PATH.
 */
@Tag("real-cudnn")
class RealCudnnStatusTest {
    private static Map<Integer, String> names(Path lib, List<Integer> codes) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), StatusNamesMain.class.getName(), lib.toString()));
        codes.forEach(c -> cmd.add(c.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("LD_LIBRARY_PATH", lib.getParent() + File.pathSeparator + pb.environment().getOrDefault("LD_LIBRARY_PATH", ""));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(true, p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        Map<Integer, String> m = new LinkedHashMap<>();
        for (String line : out.strip().split("\n")) {
            String[] f = line.split(" ", 2);
            m.put(Integer.valueOf(f[0]), f[1]);
        }
        return m;
    }

    @Test
    void everyEightPointXNumberIsNamedSoBy897() throws Exception {
        List<Integer> codes = new ArrayList<>();
        Map<Integer, String> want = new LinkedHashMap<>();
        for (CudnnStatus.Entry e : all()) {
            if (e.v8() != null) {
                codes.add(e.v8());
                want.put(e.v8(), e.name());
            }
        }
        assertEquals(15, want.size()); // 0 SUCCESS … 14 VERSION_MISMATCH
        assertEquals(want, names(RealCudnn.linux(8).resolve("libcudnn.so.8"), codes));
    }

    @Test
    void everyNinePointXNumberIsNamedSoBy951AndThe924Wheel() throws Exception {
        List<Integer> codes = new ArrayList<>();
        Map<Integer, String> want = new LinkedHashMap<>();
        for (CudnnStatus.Entry e : all()) {
            if (e.v9() != null && !want.containsKey(e.v9())) {
                codes.add(e.v9());
                want.put(e.v9(), CudnnStatus.numbered(e.v9()).orElseThrow().name());
            }
        }
        Map<Integer, String> wheel = names(RealWheels.sitePackages().resolve("nvidia/cudnn/lib/libcudnn.so.9"), codes);
        assertEquals(want, wheel);
        // 9.5.1 names the codes it has; the later ones (2012 in 9.6, 3014 in 9.18) are unknown to it
        Map<Integer, String> old = names(RealCudnn.linux(9).resolve("libcudnn.so.9"), codes);
        for (Map.Entry<Integer, String> e : old.entrySet()) {
            if (e.getKey() != 2012 && e.getKey() != 3014) {
                assertEquals(want.get(e.getKey()), e.getValue(), "9.5.1, code " + e.getKey());
            }
        }
        assertFalse(old.isEmpty());
    }

    private static Iterable<CudnnStatus.Entry> all() {
        List<CudnnStatus.Entry> out = new ArrayList<>();
        for (int code = 0; code < 6000; code++) {
            CudnnStatus.numbered(code).ifPresent(out::add);
        }
        return out;
    }
}
