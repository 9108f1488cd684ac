package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture.Entry;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.Seeds;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Property-based: archives in NVIDIA's real layouts with random hostile mutations (names, link
 * targets, types, sizes, modes, duplicates, truncation, trailing bytes), each installed for real
 * into a toolkit (or a --prefix) with a sentinel folder beside it. Whatever the archive, the
 * install ends with a documented exit code (never 70) and one-line messages; nothing outside the
 * target changes; when the exit is not 0 the target is byte-identical, and when it is 0 only
 * cuDNN's files were added, with the tool's modes, and every link lands beside its file.
 *
 * <p>A fixed seed in CI (reproducible: each case names its seed and mutations). A longer run:
 * {@code ./mvnw -B test -Dtest=HostileArchivePropertyTest -Dcudnn.tries=2000 -Dcudnn.seed=7}.
 *
 * <p>Plain seeded generation on JUnit Jupiter rather than jqwik: see the README's Dependencies section.
 */
class HostileArchivePropertyTest {
    static final long SEED = Seeds.seed(20261130L);
    static final int TRIES = Seeds.tries(60, 2000);
    static final Set<Integer> DOCUMENTED = Set.of(0, 2, 3, 4, 5, 6, 7, 8);
    /** The test's own oracle of cuDNN's file names (facts §4a), independent of the code under test. */
    static final Pattern CUDNN_FILE = Pattern.compile(
            "(?i)cudnn[a-z0-9_]*\\.h|libcudnn[a-z0-9_]*\\.so(\\.\\d+)*|libcudnn[a-z0-9_]*_static[a-z0-9_]*\\.a"
                    + "|cudnn[a-z0-9_]*\\.dll|cudnn[a-z0-9_]*\\.lib");

    @TestFactory
    Stream<DynamicTest> hostileArchivesNeverActOutsideTheTargetAndLeaveItExactWhenRefused() {
        return IntStream.range(0, TRIES).mapToObj(i -> {
            long seed = Seeds.caseSeed(SEED, i);
            Case c = Case.generate(new Random(seed));
            return DynamicTest.dynamicTest("seed " + SEED + " try " + i + ": " + c,
                    Seeds.replayable("HostileArchivePropertyTest", SEED, i, () -> c.run()));
        });
    }

    /** One generated archive: a base layout, where it goes, and what was done to it. */
    record Case(String layout, boolean prefix, List<String> mutations, ArchiveFixture fixture, byte[] tail, int cut,
                long seed) {
        static Case generate(Random r) {
            long seed = r.nextLong();
            int pick = r.nextInt(4);
            ArchiveFixture base = switch (pick) {
                case 0 -> ArchiveFixture.linux("8.9.5.30", "12");
                case 1 -> ArchiveFixture.linux("9.5.1.17", "12");
                case 2 -> ArchiveFixture.legacyLinux("11.4", "8.2.4.15");
                default -> ArchiveFixture.windows("8.9.5.30", "12");
            };
            boolean zip = pick == 3;
            List<Entry> entries = new ArrayList<>(base.entries());
            String top = entries.get(0).path().substring(0, entries.get(0).path().indexOf('/') + 1);
            List<String> done = new ArrayList<>();
            int n = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(3);
            for (int k = 0; k < n; k++) {
                done.add(Mutations.apply(r, entries, top, zip));
            }
            ArchiveFixture f = ArchiveFixture.empty(base.fileName(), zip ? ArchiveFixture.Format.ZIP
                    : base.fileName().endsWith(".tgz") ? ArchiveFixture.Format.TGZ : ArchiveFixture.Format.TAR_XZ);
            Set<String> written = new HashSet<>();
            for (Entry e : entries) {
                if (zip && !written.add(e.path())) {
                    continue; // a zip writer cannot write the same name twice (case variants it can)
                }
                switch (e.kind()) {
                    case FILE -> f.file(e.path(), e.content(), e.mode());
                    case DIR -> f.dir(e.path());
                    case SYMLINK -> f.symlink(e.path(), e.linkTarget());
                    case HARDLINK -> f.hardlink(e.path(), e.linkTarget());
                    case FIFO -> f.fifo(e.path());
                }
            }
            byte[] tail = null;
            int cut = -1;
            switch (r.nextInt(12)) {
                case 0 -> {
                    tail = new byte[1 + r.nextInt(600)];
                    r.nextBytes(tail);
                    done.add("trailing " + tail.length + " random bytes");
                }
                case 1 -> {
                    cut = r.nextInt(1000);
                    done.add("truncated (cut at " + cut + "/1000)");
                }
                case 2 -> {
                    tail = new byte[0];
                    cut = -2 - r.nextInt(1000);
                    done.add("16 bytes flipped at " + (-cut - 2) + "/1000");
                }
                default -> {
                }
            }
            boolean prefix = !zip && r.nextInt(4) == 0;
            return new Case(base.fileName(), prefix, done, f, tail, cut, seed);
        }

        @Override
        public String toString() {
            return layout + (prefix ? " --prefix" : "") + " " + (mutations.isEmpty() ? "(as NVIDIA's)" : mutations);
        }

        void run() throws Exception {
            Path root = Files.createTempDirectory("cudnn-pbt");
            try {
                if (fixture.fileName().endsWith(".zip")) {
                    runWindows(root);
                } else {
                    runLinux(root);
                }
            } finally {
                deleteTree(root);
            }
        }

        private Path writeArchive(Path downloads) throws IOException {
            Path p = fixture.writeTo(downloads);
            byte[] bytes = Files.readAllBytes(p);
            if (cut >= 0) {
                bytes = Arrays.copyOf(bytes, (int) ((long) bytes.length * cut / 1000));
            } else if (cut <= -2) {
                int at = (int) ((long) bytes.length * (-cut - 2) / 1000);
                for (int i = at; i < Math.min(bytes.length, at + 16); i++) {
                    bytes[i] ^= (byte) 0xA5;
                }
            }
            if (tail != null && tail.length > 0) {
                byte[] out = Arrays.copyOf(bytes, bytes.length + tail.length);
                System.arraycopy(tail, 0, out, bytes.length, tail.length);
                bytes = out;
            }
            Files.write(p, bytes);
            return p;
        }

        private void runLinux(Path root) throws Exception {
            Path tk = TestHosts.linuxToolkit(root.resolve("cuda-12.2"), "12.2.20230823");
            Files.writeString(tk.resolve("include/cuda.h"), "/* the toolkit's */\n");
            Files.writeString(tk.resolve("targets/x86_64-linux/lib/libcudart.so.12"), "not cudnn");
            Path sentinel = Files.createDirectories(root.resolve("sentinel/lib"));
            Files.writeString(sentinel.resolve("libc.so.6"), "the sentinel");
            Files.writeString(root.resolve("sentinel/passwd"), "root:x:0:0");
            Path archive = writeArchive(Files.createDirectories(root.resolve("downloads")));
            Path prefixDir = root.resolve("opt-cudnn");
            Path target = prefix ? prefixDir : tk;
            Host host = TestHosts.linux(FileSystems.getDefault(), Map.of("LD_LIBRARY_PATH", tk.resolve("lib64").toString()),
                    new FakeRunner());
            check(host, archive, prefix ? null : tk, prefix ? prefixDir : null, root, target, Set.of("downloads"));
        }

        private void runWindows(Path root) throws Exception {
            Path archive = writeArchive(Files.createDirectories(root.resolve("downloads")));
            try (Machine m = Machine.windows().toolkit("12.2.20230823").zlibwapi().build()) {
                FileSystem fs = m.fs();
                Host host = m.host();
                Path tk = m.toolkit();
                Files.writeString(tk.resolve("include\\cuda.h"), "/* the toolkit's */\n");
                Path sentinel = Files.createDirectories(fs.getPath("C:\\sentinel"));
                Files.writeString(sentinel.resolve("zlibwapi.dll"), "the sentinel");
                check(host, archive, tk, null, fs.getPath("C:\\"), tk, Set.of());
            }
        }

        private void check(Host host, Path archive, Path cudaPath, Path prefixDir, Path world, Path target,
                           Set<String> ignored) throws Exception {
            Map<String, String> worldBefore = outside(world, target, ignored);
            Map<String, String> targetBefore = TreeSnapshot.of(target);
            int exit;
            String message;
            try {
                InstallOutcome o = Machine.of(host).installer().run(
                        new InstallRequest(archive, null, cudaPath, prefixDir, false, false), ReadProgress.NONE);
                exit = o.exit().code();
                message = o.summary();
                o.findings().forEach(f -> assertOneLine(f.message() + " " + f.fix()));
            } catch (ToolException e) {
                exit = e.exitCode().code();
                message = e.getMessage() + "; fix: " + e.fix();
            } catch (RuntimeException e) {
                throw new AssertionError(this + ": exit 70 (" + e + ")", e);
            }
            assertTrue(DOCUMENTED.contains(exit), this + ": exit " + exit + " is not documented: " + message);
            assertOneLine(message);
            assertEquals(worldBefore, outside(world, target, ignored), this + ": something outside the target changed");
            if (exit != ExitCode.OK.code()) {
                assertEquals(targetBefore, TreeSnapshot.of(target), this + ": exit " + exit + " but the target changed: "
                        + message);
                return;
            }
            Map<String, String> after = TreeSnapshot.of(target);
            for (var e : after.entrySet()) {
                String rel = e.getKey();
                if (rel.isEmpty() || rel.equals(".cudnn-tool") || rel.startsWith(".cudnn-tool/")
                        || e.getValue().equals(targetBefore.get(rel))) {
                    continue;
                }
                Path p = target.resolve(rel);
                if (e.getValue().equals("dir")) {
                    continue;
                }
                String file = p.getFileName().toString();
                assertTrue(CUDNN_FILE.matcher(file).matches() || prefixDir != null && (file.equals("LICENSE") || file.equals("NVIDIA_SLA_cuDNN_Support.txt")),
                        this + ": installed a file that is not cuDNN's: " + rel);
                if (Files.isSymbolicLink(p)) {
                    Path lands = p.getParent().resolve(Files.readSymbolicLink(p)).normalize();
                    assertEquals(p.getParent(), lands.getParent(), this + ": link " + rel + " leads elsewhere");
                    assertTrue(Files.exists(lands), this + ": link " + rel + " dangles");
                } else if (p.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                    Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
                    assertFalse(perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE),
                            this + ": " + rel + " is writable by others: " + perms);
                }
            }
        }

        private static void assertOneLine(String m) {
            if (m.contains("\n") || m.contains("\r") || m.contains("null")) {
                fail("not one clean line: " + m);
            }
        }

        /** Everything under {@code world} except the target and the ignored top-level names. */
        private static Map<String, String> outside(Path world, Path target, Set<String> ignored) {
            Map<String, String> all = TreeSnapshot.of(world);
            String t = world.relativize(target).toString().replace('\\', '/');
            all.keySet().removeIf(k -> k.equals(t) || k.startsWith(t + "/")
                    || ignored.stream().anyMatch(i -> k.equals(i) || k.startsWith(i + "/")));
            return all;
        }

        private static void deleteTree(Path root) throws IOException {
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** The hostile edits, each returning what it did. */
    static final class Mutations {
        static final String[] FOREIGN = {"include/cuda.h", "lib/libcudart.so.12", "lib/libc.so.6", "bin/zlibwapi.dll",
                "README", "include/sub/cudnn_version.h", "lib/a/b/libcudnn_x.so.8", "lib/x64/cublas.lib", "etc/passwd",
                "lib/libcudnn_x.so.99999999999", "include/cudnn_extra.txt"};
        static final String[] HOSTILE_NAMES = {"../evil", "../../x/libcudnn.so.8", "/etc/cron.d/evil", "lib/../../evil",
                "lib/libcudnn\n.so.8", "include/cudnn\t.h", "lib/libcudnn_" + "x".repeat(300) + ".so.8",
                "lib/" + ("d".repeat(250) + "/").repeat(17) + "libcudnn_y.so.8", "lib\\..\\evil", "C:/evil.dll",
                "lib/evil:stream", "bin./cudnn64_8.dll", "lib/libcudnn_z.so.8 ", "./lib/./libcudnn_dot.so.8",
                ".cudnn-tool/journal.json", "lib/.CUDNN-TOOL/history/x/install.json", "include/.cudnn-tool/"};
        static final String[] LINK_TARGETS = {"../../../../../../../etc/passwd", "/etc/passwd", "..", ".", "sub",
                "libcudnn_missing.so.8", "../lib/libcudnn.so.8", "./libcudnn.so.8", "a/b", "../../sentinel/passwd",
                "C:/Windows", "libcudnn.so\n8", "", "libcudnn_static.a"};

        static String apply(Random r, List<Entry> entries, String top, boolean zip) {
            int kind = r.nextInt(zip ? 8 : 13);
            switch (kind) {
                case 0 -> {
                    String rel = FOREIGN[r.nextInt(FOREIGN.length)];
                    entries.add(r.nextInt(entries.size() + 1), file(top + rel, "planted"));
                    return "foreign file " + rel;
                }
                case 1 -> {
                    String rel = HOSTILE_NAMES[r.nextInt(HOSTILE_NAMES.length)];
                    String path = rel.startsWith("/") || rel.startsWith("C:") || rel.startsWith("..") ? rel : top + rel;
                    entries.add(r.nextInt(entries.size() + 1), rel.endsWith("/")
                            ? new Entry(path, Entry.Kind.DIR, null, null, 0755) : file(path, "x"));
                    return "hostile name '" + shown(rel) + "'";
                }
                case 2 -> {
                    Entry e = entries.get(r.nextInt(entries.size()));
                    // a zip writer refuses exact duplicates: there the copy differs in case only
                    String path = !zip && r.nextBoolean() ? e.path() : e.path().toUpperCase(Locale.ROOT);
                    entries.add(r.nextInt(entries.size() + 1), e.kind() == Entry.Kind.DIR ? e
                            : new Entry(path, Entry.Kind.FILE, ArchiveFixture.Content.of("dup"), null, 0644));
                    return "duplicate " + shown(path);
                }
                case 3 -> {
                    int i = r.nextInt(entries.size());
                    Entry gone = entries.remove(i);
                    return "removed " + gone.path();
                }
                case 4 -> {
                    int i = pickFile(r, entries);
                    Entry e = entries.get(i);
                    byte[] junk = new byte[r.nextInt(3) == 0 ? 0 : r.nextInt(5000)];
                    r.nextBytes(junk);
                    entries.set(i, new Entry(e.path(), Entry.Kind.FILE, ArchiveFixture.Content.of(junk), null, e.mode()));
                    return "new content (" + junk.length + " bytes) for " + e.path();
                }
                case 5 -> {
                    int i = pickFile(r, entries);
                    Entry e = entries.get(i);
                    CudnnVersion other = CudnnVersion.of(r.nextInt(12), r.nextInt(30), r.nextInt(10));
                    entries.set(i, new Entry(e.path(), Entry.Kind.FILE,
                            ArchiveFixture.Content.of(ArchiveFixture.versionHeader(other)), null, e.mode()));
                    return "version header " + other + " as " + e.path();
                }
                case 6 -> {
                    String rel = (zip ? "bin/" : "lib/") + "sub" + r.nextInt(1000) + "/";
                    entries.add(new Entry(top + rel, Entry.Kind.DIR, null, null, 0755));
                    entries.add(file(top + rel + (zip ? "cudnn_sub64_8.dll" : "libcudnn_sub.so.8"), "deep"));
                    return "library in a sub-folder " + rel;
                }
                case 7 -> {
                    int i = pickFile(r, entries);
                    Entry e = entries.get(i);
                    entries.set(i, new Entry(e.path(), Entry.Kind.DIR, null, null, 0755));
                    return "file made a folder: " + e.path();
                }
                case 8 -> {
                    String name = (r.nextBoolean() ? "lib/libcudnn_l" : "lib/evil") + r.nextInt(1000) + ".so";
                    String target = LINK_TARGETS[r.nextInt(LINK_TARGETS.length)];
                    entries.add(r.nextInt(entries.size() + 1), new Entry(top + name, Entry.Kind.SYMLINK, null, target, 0777));
                    return "link " + name + " -> '" + shown(target) + "'";
                }
                case 9 -> {
                    String dirLink = "lib/up" + r.nextInt(1000);
                    entries.add(new Entry(top + dirLink, Entry.Kind.SYMLINK, null,
                            r.nextBoolean() ? "../../../include" : ".", 0777));
                    entries.add(file(top + dirLink + "/" + (r.nextBoolean() ? "libcudnn_t.so.8" : "../cuda.h"), "through"));
                    return "file through a folder link";
                }
                case 10 -> {
                    int i = pickFile(r, entries);
                    Entry e = entries.get(i);
                    int mode = r.nextInt(010000);
                    entries.set(i, new Entry(e.path(), Entry.Kind.FILE, e.content(), null, mode));
                    return String.format("mode %04o on %s", mode, e.path());
                }
                case 11 -> {
                    String target = r.nextBoolean() ? entries.get(pickFile(r, entries)).path() : "../../etc/passwd";
                    entries.add(new Entry(top + "lib/libcudnn_h" + r.nextInt(1000) + ".so.8", Entry.Kind.HARDLINK, null, target, 0644));
                    return "hard link to " + target;
                }
                default -> {
                    entries.add(r.nextInt(entries.size() + 1), new Entry(top + "lib/pipe" + r.nextInt(1000), Entry.Kind.FIFO, null, null, 0644));
                    return "fifo";
                }
            }
        }

        private static int pickFile(Random r, List<Entry> entries) {
            List<Integer> files = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) {
                if (entries.get(i).kind() == Entry.Kind.FILE && !entries.get(i).path().endsWith("/")) {
                    files.add(i);
                }
            }
            if (files.isEmpty()) {
                entries.add(file(entries.get(0).path().split("/")[0] + "/lib/libcudnn_new.so.8", "x"));
                return entries.size() - 1;
            }
            return files.get(r.nextInt(files.size()));
        }

        private static Entry file(String path, String text) {
            return new Entry(path, Entry.Kind.FILE, ArchiveFixture.Content.of(text), null, 0644);
        }

        private static String shown(String s) {
            String t = s.replace("\n", "\\n").replace("\t", "\\t");
            return t.length() > 60 ? t.substring(0, 60) + "...(" + t.length() + ")" : t;
        }
    }
}
