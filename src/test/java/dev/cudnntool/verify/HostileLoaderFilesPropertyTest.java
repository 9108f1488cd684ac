package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.ElfFile;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.loader.PeFile;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.testing.Seeds;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 18 C: hostile ELF and PE libraries, ld.so.cache and ld.so.conf files, generated from a
 * seed ({@code -Dcudnn.seed}, {@code -Dcudnn.tries}: {@link dev.cudnntool.testing.Seeds}; {@code -Dcudnn.longProperties=true}
 * runs 2,000 tries with a random seed). Fields that hold offsets, sizes and counts get the values
 * that wrap or point past the end; conf files get include loops, fan-out, bad patterns and
 * devices. Invariants: the readers fail only with IOException; verify returns a report (never
 * exit 70, never an Error such as OutOfMemoryError); nothing hangs (the timeout is a hang guard,
 * not a speed test). Each case names its seed, so a failure replays exactly.
 */
class HostileLoaderFilesPropertyTest {
    static final Duration HANG = Duration.ofSeconds(60);
    static final long[] VALUES = {0, 1, -1, -8, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 7, 0xFFFFFFFFL, 0x7FFFFFFFL,
        0x80000000L, 0xFFFFL, 64, 1 << 20, 1L << 32, 1L << 40};
    static final String[] CONF = {"include /etc/ld.so.conf.d/*.conf", "include /etc/ld.so.conf", "include *.conf",
        "include /etc/ld.so.conf.d/[", "include /etc/ld.so.conf.d/{a,", "include /etc/ld.so.conf.d/**", "include",
        "include /dev/zero", "include /etc/ld.so.conf.d/*.conf /etc/ld.so.conf.d/*.conf", "include ../../../../etc/*",
        "/opt/cuda/lib64", "/opt/x#y", "hwcap 1 x", "/opt/a:/opt/b,/opt/c", "\u0000/opt/nul", "/" + "a".repeat(5000),
        "include /etc/ld.so.conf.d/\\", "   include   /etc/ld.so.conf.d/*.conf   "};

    @TestFactory
    Stream<DynamicTest> hostileLoaderFilesNeverCrashHangOrExhaustMemory() {
        long seed = Seeds.seed(20261201L);
        int tries = Seeds.tries(150, 2000);
        return IntStream.range(0, tries).mapToObj(i -> {
            long s = Seeds.caseSeed(seed, i);
            int kind = new Random(s).nextInt(4);
            String name = switch (kind) {
                case 0 -> "ELF library";
                case 1 -> "PE library";
                case 2 -> "ld.so.cache";
                default -> "ld.so.conf";
            };
            return DynamicTest.dynamicTest("seed " + seed + " try " + i + ": " + name, Seeds.replayable("HostileLoaderFilesPropertyTest",
                    seed, i, () -> assertTimeoutPreemptively(HANG, () -> check(kind, new Random(s + 1)))));
        });
    }

    private static void check(int kind, Random r) throws Exception {
        try (FileSystem fs = kind == 1 ? TestHosts.windowsFs() : TestHosts.unixFs()) {
            Host host = kind == 1 ? TestHosts.windows(fs, Map.of("PATH", "C:\\Windows\\System32", "SystemRoot", "C:\\Windows"),
                    new FakeRunner())
                    : TestHosts.linux(fs, Map.of("PATH", "/usr/bin", "LD_LIBRARY_PATH", r.nextBoolean() ? "/opt/cudnn/lib" : ":/opt/cudnn/lib"),
                    new FakeRunner());
            Path prefix = kind == 1 ? fs.getPath("C:\\cudnn") : fs.getPath("/opt/cudnn");
            List<Path> libs = install(host, prefix);
            switch (kind) {
                case 0, 1 -> {
                    Path lib = libs.get(r.nextInt(libs.size()));
                    byte[] b = Files.readAllBytes(lib);
                    Files.write(lib, mutate(b, r, kind == 0 ? elfFields(b) : peFields(b)));
                    readers(lib, kind == 1);
                }
                case 2 -> {
                    byte[] cache = LdSoCache.write(List.<String[]>of(new String[] {"libcudnn.so.9", "/opt/cudnn/lib/libcudnn.so.9"},
                            new String[] {"libz.so.1", "/lib/x86_64-linux-gnu/libz.so.1"}), LdSoCache.x8664Flags());
                    List<Integer> fields = new ArrayList<>(List.of(20, 24, 48, 52, 56, 72, 76, 80));
                    byte[] hostile = mutate(cache, r, fields);
                    if (r.nextInt(4) == 0) { // the old format in front, with its count
                        byte[] old = new byte[16 + hostile.length];
                        byte[] magic = "ld.so-1.7.0".getBytes(StandardCharsets.US_ASCII);
                        System.arraycopy(magic, 0, old, 0, magic.length);
                        ByteBuffer.wrap(old).order(ByteOrder.LITTLE_ENDIAN).putInt(12, (int) VALUES[r.nextInt(VALUES.length)]);
                        System.arraycopy(hostile, 0, old, 16, hostile.length);
                        hostile = old;
                    }
                    Files.createDirectories(fs.getPath("/etc"));
                    Files.write(fs.getPath("/etc/ld.so.cache"), hostile);
                    LdSoCache.of(host).entries();
                }
                default -> {
                    int files = 1 + r.nextInt(12);
                    TestHosts.write(fs.getPath("/etc/ld.so.conf"), lines(r));
                    for (int f = 0; f < files; f++) {
                        TestHosts.write(fs.getPath("/etc/ld.so.conf.d/" + f + ".conf"), lines(r));
                    }
                    if (r.nextBoolean()) {
                        Files.createDirectories(fs.getPath("/etc/ld.so.conf.d/dir.conf"));
                    }
                    LoaderPath.ldSoConfLines(host);
                    LoaderPath.environmentFindings(host);
                }
            }
            try {
                new VerifyService(host, null).verify(null, prefix, null, true);
            } catch (ToolException e) {
                if (e.exitCode() == ExitCode.INTERNAL) {
                    throw new AssertionError("exit 70: " + e.getMessage(), e);
                }
            }
        }
    }

    private static String lines(Random r) {
        StringBuilder sb = new StringBuilder();
        int n = 1 + r.nextInt(6);
        for (int i = 0; i < n; i++) {
            sb.append(CONF[r.nextInt(CONF.length)]).append(r.nextInt(8) == 0 ? "\r\n" : "\n");
        }
        return sb.toString();
    }

    /** The ELF and PE readers fail only with IOException, whatever the bytes. */
    private static void readers(Path lib, boolean pe) {
        List<Action> all = pe ? List.of(() -> PeFile.read(lib), () -> PeFile.damage(lib), () -> PeFile.exports(lib))
                : List.of(() -> ElfFile.damage(lib), () -> ElfFile.read(lib, true), () -> ElfFile.read(lib, false));
        for (Action a : all) {
            try {
                a.run();
            } catch (IOException expected) {
                // a damaged file, said so
            }
        }
    }

    interface Action {
        Object run() throws IOException;
    }

    private static List<Path> install(Host host, Path prefix) throws IOException {
        List<Path> libs = new ArrayList<>();
        Path lib = prefix.resolve(host.windows() ? "bin" : "lib");
        Files.createDirectories(lib);
        for (String base : CudnnComponents.libraries(9)) {
            Path f;
            if (host.windows()) {
                f = lib.resolve(CudnnComponents.windowsDll(base, 9));
                Files.write(f, PeImages.dll(PeImages.X64, "9.5.1.17"));
            } else {
                String soname = CudnnComponents.linuxSoname(base, 9);
                f = lib.resolve(soname);
                Files.write(f, base.equals("cudnn") ? ElfImages.cudnn(soname)
                        : ElfImages.so(soname, List.of("libc.so.6"), "$ORIGIN", List.of("internal_" + base)));
            }
            libs.add(f);
        }
        Path inc = prefix.resolve("include");
        Files.createDirectories(inc);
        for (String h : CudnnComponents.headers(9)) {
            Files.writeString(inc.resolve(h), h.equals("cudnn_version.h")
                    ? ArchiveFixture.versionHeader(CudnnVersion.parse("9.5.1")) : "/* " + h + " */\n");
        }
        return libs;
    }

    /** Where an ELF image keeps offsets, sizes, counts and links: its header, program header, section headers. */
    private static List<Integer> elfFields(byte[] b) {
        List<Integer> out = new ArrayList<>(List.of(32, 40, 54, 56, 58, 60, 64 + 8, 64 + 32, 64 + 40));
        long shoff = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(40);
        for (int s = 0; s < 4 && shoff > 0 && shoff + 64L * (s + 1) <= b.length; s++) {
            for (int f : new int[] {4, 24, 32, 40}) {
                out.add((int) shoff + 64 * s + f);
            }
        }
        return out;
    }

    private static List<Integer> peFields(byte[] b) {
        int pe = 0x80;
        int table = pe + 24 + 0xF0;
        return List.of(0x3C, pe + 6, pe + 20, pe + 24, pe + 24 + 112, pe + 24 + 116, table + 8, table + 12, table + 16, table + 20);
    }

    /** Hostile values in 1 to 4 fields (some anywhere), sometimes cut short or grown. */
    private static byte[] mutate(byte[] in, Random r, List<Integer> fields) {
        byte[] b = in.clone();
        ByteBuffer f = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int n = 1 + r.nextInt(4);
        for (int k = 0; k < n; k++) {
            int at = r.nextInt(5) == 0 ? r.nextInt(b.length) : fields.get(r.nextInt(fields.size()));
            long v = r.nextInt(4) == 0 ? r.nextLong() : VALUES[r.nextInt(VALUES.length)];
            int width = new int[] {1, 2, 4, 8}[r.nextInt(4)];
            for (int i = 0; i < width && at + i < b.length; i++) {
                f.put(at + i, (byte) (v >>> (8 * i)));
            }
        }
        return switch (r.nextInt(6)) {
            case 0 -> Arrays.copyOf(b, r.nextInt(b.length + 1));
            case 1 -> Arrays.copyOf(b, b.length + r.nextInt(4096));
            default -> b;
        };
    }
}
