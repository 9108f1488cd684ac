package dev.cudnntool.host.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The package managers' records are hostile input: garbage, huge, deeply nested, looping, FIFOs and folders where files
 * belong. Whatever they hold, a lookup answers (never throws), within bounded reads, and any name or version it reports
 * looks like a package's (no control character, escape, newline or shell syntax).
 */
class OwnersHostilePropertyTest {
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9?][A-Za-z0-9._+:~!-]*");
    private static final String SITE = "/venv/lib/python3.12/site-packages";
    private static final String ENV = "/conda/envs/ml";

    private static Path write(FileSystem fs, String path, byte[] bytes) throws IOException {
        Path p = fs.getPath(path);
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
        return p;
    }

    private static Path write(FileSystem fs, String path, String text) throws IOException {
        return write(fs, path, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void safe(Owner o) {
        assertNotNull(o);
        if (o.name() != null) {
            assertTrue(SAFE.matcher(o.name()).matches(), o.toString());
        }
        if (o.version() != null) {
            assertTrue(SAFE.matcher(o.version()).matches(), o.toString());
        }
    }

    private static byte[] garbage(Random rnd, String real) {
        String alphabet = "\u0000\u001b[31m\r\n\",{}[]:\\/.. nvidia/cudnn/lib/libcudnn.so.9 Name: Version: \uFEFF\u2028\"files\"";
        StringBuilder b = new StringBuilder();
        int n = rnd.nextInt(400);
        for (int i = 0; i < n; i++) {
            int k = rnd.nextInt(10);
            if (k == 0) {
                b.append(real);
            } else if (k == 1) {
                b.append("[".repeat(rnd.nextInt(3000)));
            } else {
                b.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
        }
        byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length / 10; i++) {
            bytes[rnd.nextInt(bytes.length)] = (byte) rnd.nextInt(256); // and bytes that are no UTF-8
        }
        return bytes;
    }

    @TestFactory
    Stream<DynamicTest> garbageInEveryRecordNeverThrowsAndNamesNothingUnsafe() {
        return Stream.of(1L, 2L, 3L, 5L, 8L, 13L, 21L, 34L).map(seed -> dynamicTest("seed " + seed, () -> {
            Random rnd = new Random(seed);
            FileSystem fs = TestHosts.unixFs();
            Path wheelLib = write(fs, SITE + "/nvidia/cudnn/lib/libcudnn.so.9", "\177ELF");
            Path condaLib = write(fs, ENV + "/lib/libcudnn.so.9", "\177ELF");
            Path debLib = write(fs, "/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "\177ELF");
            write(fs, SITE + "/nvidia_cudnn_cu12-9.5.1.17.dist-info/RECORD", garbage(rnd, "nvidia/cudnn/lib/libcudnn.so.9,,\n"));
            write(fs, SITE + "/nvidia_cudnn_cu12-9.5.1.17.dist-info/METADATA", garbage(rnd, "Name: x\u001b[2J\nVersion: 1;reboot\n"));
            write(fs, SITE + "/\u001b[31m\n-1.dist-info/RECORD", garbage(rnd, "nvidia/cudnn/lib/libcudnn.so.9\n"));
            write(fs, ENV + "/conda-meta/cudnn-9.json", garbage(rnd, "{\"name\":\"cudnn\n\",\"files\":[\"lib/libcudnn.so.9\"]}"));
            write(fs, ENV + "/conda-meta/libcudnn-9.json", garbage(rnd, "\"version\":\"9\u001b\","));
            write(fs, "/var/lib/dpkg/info/libcudnn9:amd64.list", garbage(rnd, "/usr/lib/x86_64-linux-gnu/libcudnn.so.9\n"));
            write(fs, "/var/lib/dpkg/status", garbage(rnd, "Package: libcudnn9\nVersion: 9\u001b[0m\n"));
            Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
            Owners owners = new Owners(host);
            for (Path p : new Path[] {wheelLib, condaLib, debLib}) {
                safe(owners.of(p));
            }
        }));
    }

    @Test
    void deeplyNestedOrHugeCondaJsonNamesNothingAndALaterRecordStillAnswers() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path lib = write(fs, ENV + "/lib/libcudnn.so.9", "\177ELF");
        write(fs, ENV + "/conda-meta/cudnn-a.json", "{\"files\":" + "[".repeat(200_000) + "\"lib/libcudnn.so.9\"");
        write(fs, ENV + "/conda-meta/cudnn-b.json", "{\"name\":\"evil\",\"files\":[\"" + "x".repeat(25_000_000) + "\",\"lib/libcudnn.so.9\"]}");
        write(fs, ENV + "/conda-meta/cudnn-c.json", "{\"name\":\"cudnn\",\"version\":\"9.1\",\"files\":[" + "1,".repeat(2_000_000)
                + "{\"a\":" + "{\"b\":".repeat(5000) + "\"lib/libcudnn.so.9\"]}");
        write(fs, ENV + "/conda-meta/cudnn-d.json", "{\"name\":\"cudnn\",\"version\":\"9.3.0\",\"files\":[\"lib/libcudnn.so.9\"]}");
        Owner o = new Owners(TestHosts.linux(fs, Map.of(), new FakeRunner())).of(lib);
        assertEquals(new Owner(Owner.Kind.CONDA, "cudnn", "9.3.0", ENV), o);
    }

    @Test
    void symlinkLoopsAndFoldersWhereRecordsBelongNameNothing() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path lib = write(fs, SITE + "/nvidia/cudnn/lib/libcudnn.so.9", "\177ELF");
        Files.createDirectories(fs.getPath(SITE, "nvidia_cudnn_cu12-9.5.1.17.dist-info", "RECORD"));
        Files.createSymbolicLink(fs.getPath(SITE, "loop-1.dist-info"), fs.getPath("loop-1.dist-info"));
        Files.createDirectories(fs.getPath(SITE, "a-1.dist-info"));
        Files.createSymbolicLink(fs.getPath(SITE, "a-1.dist-info", "RECORD"), fs.getPath("RECORD2"));
        Files.createSymbolicLink(fs.getPath(SITE, "a-1.dist-info", "RECORD2"), fs.getPath("RECORD"));
        Path condaLib = write(fs, ENV + "/lib/libcudnn.so.9", "\177ELF");
        Files.createDirectories(fs.getPath(ENV, "conda-meta", "cudnn-9.json"));
        Files.createSymbolicLink(fs.getPath(ENV, "conda-meta", "x.json"), fs.getPath("y.json"));
        Files.createSymbolicLink(fs.getPath(ENV, "conda-meta", "y.json"), fs.getPath("x.json"));
        Files.createSymbolicLink(fs.getPath("/loop"), fs.getPath("/loop"));
        Files.createDirectories(fs.getPath("/var/lib/dpkg/info/libcudnn9.list"));
        Files.createSymbolicLink(fs.getPath("/var/lib/dpkg/info/x-cudnn.list"), fs.getPath("x-cudnn.list"));
        Files.createSymbolicLink(fs.getPath("/var/lib/dpkg/status"), fs.getPath("status"));
        Owners owners = new Owners(TestHosts.linux(fs, Map.of(), new FakeRunner()));
        assertEquals(Owner.NONE, owners.of(lib));
        assertEquals(Owner.NONE, owners.of(condaLib));
        assertEquals(Owner.NONE, owners.of(fs.getPath("/loop")));
    }

    /** Millions of short lines: the lookup reads them as a stream and stops at the listed line. */
    @Test
    void recordsOfMillionsOfLinesAreReadAsAStream() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path lib = write(fs, SITE + "/nvidia/cudnn/lib/libcudnn.so.9", "\177ELF");
        write(fs, SITE + "/nvidia_cudnn_cu12-9.5.1.17.dist-info/RECORD", "a\n".repeat(8_000_000) + "nvidia/cudnn/lib/libcudnn.so.9,,\n");
        write(fs, SITE + "/nvidia_cudnn_cu12-9.5.1.17.dist-info/METADATA", "Name: nvidia-cudnn-cu12\n" + "X: y\n".repeat(1_000_000)
                + "Version: 9.5.1.17\n\n");
        Owner o = new Owners(TestHosts.linux(fs, Map.of(), new FakeRunner())).of(lib);
        assertEquals(new Owner(Owner.Kind.PIP, "nvidia-cudnn-cu12", "9.5.1.17", SITE), o);
    }

    /** dpkg's lists are read within a budget of paths: one huge list cannot make the index grow without bound. */
    @Test
    void dpkgListsAreIndexedWithinABudget() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path first = write(fs, "/usr/lib/libcudnn.so.9", "\177ELF");
        Path late = write(fs, "/usr/lib/libcudnn_ops.so.9", "\177ELF");
        StringBuilder big = new StringBuilder("/usr/lib/libcudnn.so.9\n");
        for (int i = 0; i < DpkgRecords.MAX_PATHS + 10; i++) {
            big.append('/').append(i).append('\n');
        }
        write(fs, "/var/lib/dpkg/info/a-cudnn.list", big.toString());
        write(fs, "/var/lib/dpkg/info/b-cudnn.list", "/usr/lib/libcudnn_ops.so.9\n");
        write(fs, "/var/lib/dpkg/status", "\n".repeat(3_000_000) + "Package: a-cudnn\nVersion: 1.0\n");
        Owners owners = new Owners(TestHosts.linux(fs, Map.of(), new FakeRunner()));
        assertEquals(new Owner(Owner.Kind.DPKG, "a-cudnn", "1.0", null), owners.of(first));
        assertEquals(Owner.NONE, owners.of(late), "past the budget nothing more is indexed");
    }

    @Test
    void rpmOutputThatIsGarbageNamesNothing() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path lib = write(fs, "/usr/lib64/libcudnn.so.9", "\177ELF");
        Files.createDirectories(fs.getPath("/var/lib/rpm"));
        Path rpm = write(fs, "/usr/bin/rpm", "\177ELF");
        Files.setPosixFilePermissions(rpm, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String out : new String[] {"", "\t", "a\tb\tc\n", "x".repeat(1_000_000), "\u001b[31mlibcudnn\t9\n",
                "libcudnn\n\t9\n", "libcudnn\t9\u0000\n", "\n\n\nlibcudnn\t9\n", "-rf\t9\n", "libcudnn\t" + "9".repeat(500) + "\n"}) {
            FakeRunner runner = new FakeRunner().on("-- /usr/lib64/libcudnn.so.9", FakeRunner.ok(out));
            Owner o = new Owners(TestHosts.linux(fs, Map.of(), runner)).of(lib);
            safe(o);
            assertTrue(o.kind() == Owner.Kind.NONE || o.kind() == Owner.Kind.RPM && o.name().equals("libcudnn"), o.toString());
        }
        FakeRunner runner = new FakeRunner().on("-- /usr/lib64/libcudnn.so.9", FakeRunner.timedOut());
        assertEquals(Owner.NONE, new Owners(TestHosts.linux(fs, Map.of(), runner)).of(lib));
    }

    /** A FIFO where RECORD, METADATA, a conda record or a dpkg list belongs is never opened (a read would block forever). */
    @Test
    void fifosWhereRecordsBelongAreNeverOpened(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("lib/python3.12/site-packages");
        Path lib = site.resolve("nvidia/cudnn/lib/libcudnn.so.9");
        Files.createDirectories(lib.getParent());
        Files.writeString(lib, "\177ELF");
        Path info = site.resolve("nvidia_cudnn_cu12-9.5.1.17.dist-info");
        Files.createDirectories(info);
        Path env = tmp.resolve("env");
        Path condaLib = env.resolve("lib/libcudnn.so.9");
        Files.createDirectories(condaLib.getParent());
        Files.writeString(condaLib, "\177ELF");
        Files.createDirectories(env.resolve("conda-meta"));
        Path[] fifos = {info.resolve("RECORD"), env.resolve("conda-meta/cudnn-9.json")};
        for (Path f : fifos) {
            Process mk = new ProcessBuilder("mkfifo", f.toString()).inheritIO().start();
            assumeTrue(mk.waitFor() == 0, "mkfifo available");
        }
        try {
            Owners owners = new Owners(TestHosts.linux(FileSystems.getDefault(), Map.of(), new FakeRunner()));
            assertEquals(Owner.Kind.NONE, owners.of(condaLib).kind());
            Files.delete(fifos[0]);
            Files.writeString(fifos[0], "nvidia/cudnn/lib/libcudnn.so.9,,\n");
            Process mk = new ProcessBuilder("mkfifo", info.resolve("METADATA").toString()).inheritIO().start();
            assumeTrue(mk.waitFor() == 0, "mkfifo available");
            Owner o = owners.of(lib);
            assertEquals(new Owner(Owner.Kind.PIP, "nvidia-cudnn-cu12", "9.5.1.17", site.toString()), o, "the folder's name says it");
        } finally {
            for (Path f : new Path[] {fifos[1], info.resolve("METADATA")}) {
                if (Files.exists(f) && !Files.isRegularFile(f)) {
                    new RandomAccessFile(f.toFile(), "rw").close(); // releases any reader blocked on it
                }
            }
        }
    }
}
