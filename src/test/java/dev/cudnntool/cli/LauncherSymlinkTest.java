package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * #32 item 10: the sh launchers, reached through a link or a chain of links (relative and absolute
 * hops, folders with spaces), find the jar beside their real folder, with PATH an empty folder: they
 * need nothing but sh built-ins there.
 */
class LauncherSymlinkTest {
    private static final long SEED = 0x32_10L;
    private static final List<String> LAUNCHERS = List.of("cudnn", "cudnn-install", "cudnn-verify", "cudnn-rollback");

    @TempDir
    Path dir;

    private static Path bin(String name) {
        return Paths.get(System.getProperty("basedir", System.getProperty("user.dir")), "bin", name);
    }

    private static void assumeSh() {
        assumeTrue(!System.getProperty("os.name").startsWith("Windows") && Files.isExecutable(Paths.get("/bin/sh")));
    }

    /** tool/bin/ with the four launchers, tool/target/cudnn-tool.jar (a stand-in), jdk/bin/java that prints what it got. */
    private Path layout(Path root) throws Exception {
        Path b = Files.createDirectories(root.resolve("tool dir/bin"));
        for (String n : LAUNCHERS) {
            Files.copy(bin(n), b.resolve(n), StandardCopyOption.REPLACE_EXISTING);
            assertTrue(b.resolve(n).toFile().setExecutable(true));
        }
        Files.createDirectories(root.resolve("tool dir/target"));
        Files.writeString(root.resolve("tool dir/bin/../target/cudnn-tool.jar"), "stand-in");
        Path java = Files.createDirectories(root.resolve("jdk/bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"java $*\"\n");
        assertTrue(java.toFile().setExecutable(true));
        return b;
    }

    private record Result(int exit, String out) {
    }

    /** Runs {@code launcher} directly (its #! line), with PATH one empty folder and JAVA_HOME the stand-in. */
    private Result run(Path root, Path launcher, Path cwd, String... args) throws Exception {
        Path empty = Files.createDirectories(root.resolve("empty"));
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().put("PATH", empty.toString());
        pb.environment().put("JAVA_HOME", root.resolve("jdk").toString());
        Process p = pb.start();
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private static String expectedCommand(String launcher) {
        return switch (launcher) {
            case "cudnn" -> "";
            case "cudnn-install" -> " install";
            case "cudnn-verify" -> " verify";
            default -> " rollback";
        };
    }

    @Test
    void eachLauncherThroughOneAbsoluteLinkWithAnEmptyPath() throws Exception {
        assumeSh();
        Path b = layout(dir);
        Path links = Files.createDirectories(dir.resolve("usr/local/bin"));
        for (String n : LAUNCHERS) {
            Path link = Files.createSymbolicLink(links.resolve(n), b.resolve(n));
            Result r = run(dir, link, dir, "--json", "a b");
            assertEquals(0, r.exit(), n + ": " + r.out());
            assertTrue(r.out().startsWith("java "), n + ": " + r.out());
            assertTrue(r.out().strip().endsWith("tool dir/bin/../target/cudnn-tool.jar" + expectedCommand(n) + " --json a b"),
                    n + ": " + r.out());
            assertFalse(r.out().contains("not found"), n + ": " + r.out());
        }
    }

    @Test
    void noLauncherNamesAHelperThroughPath() throws Exception {
        for (String n : LAUNCHERS) {
            String sh = Files.readString(bin(n));
            assertFalse(sh.contains("$(dirname") || sh.contains("command -v"), n);
            for (String line : sh.lines().filter(l -> !l.strip().startsWith("#")).toList()) {
                for (String tool : List.of("readlink", "mv", "rm", "dirname", "basename", "realpath")) {
                    assertFalse(line.matches(".*(^|[\\s;(|&])" + tool + "\\s.*"), n + " runs " + tool + " through PATH: " + line);
                }
            }
        }
    }

    /** Seeded: chains of one to four links, each hop relative or absolute, some in folders with spaces. */
    @TestFactory
    Stream<DynamicTest> chainsOfLinks() {
        Random rnd = new Random(SEED);
        List<DynamicTest> out = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            int hops = 1 + rnd.nextInt(4);
            boolean[] relative = new boolean[hops];
            for (int h = 0; h < hops; h++) {
                relative[h] = rnd.nextBoolean();
            }
            String launcher = LAUNCHERS.get(rnd.nextInt(LAUNCHERS.size()));
            boolean viaCwd = rnd.nextBoolean();
            int n = i;
            out.add(DynamicTest.dynamicTest("chain " + n + ": " + launcher + ", " + hops + " hop(s) " + Arrays.toString(relative)
                    + (viaCwd ? ", run as ./name" : ""), () -> {
                assumeSh();
                Path root = Files.createDirectories(dir.resolve("case" + n));
                Path b = layout(root);
                Path target = b.resolve(launcher);
                // built from the launcher outwards: hop h lives in folder "hop h" (odd ones with a space)
                for (int h = hops - 1; h >= 0; h--) {
                    Path folder = Files.createDirectories(root.resolve(h % 2 == 0 ? "hop" + h : "hop " + h).resolve("bin"));
                    Path link = folder.resolve(h == 0 ? launcher : "link" + h);
                    Files.createSymbolicLink(link, relative[h] ? folder.relativize(target) : target);
                    target = link;
                }
                Result r = viaCwd ? run(root, Paths.get("./" + target.getFileName()), target.getParent(), "x")
                        : run(root, target, root, "x");
                assertEquals(0, r.exit(), r.out());
                assertTrue(r.out().strip().endsWith("tool dir/bin/../target/cudnn-tool.jar" + expectedCommand(launcher) + " x"), r.out());
            }));
        }
        return out.stream();
    }
}
