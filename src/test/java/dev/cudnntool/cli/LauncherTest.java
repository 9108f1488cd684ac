package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 item 1: {@code bin/cudnn} and {@code bin/cudnn.cmd}, one launcher for every command. They
 * choose java exactly as the hardened {@code bin/cudnn-verify} pair does (the same lines), and the
 * sh launcher is run here with a stand-in java that prints what it was given.
 */
class LauncherTest {
    @TempDir
    Path dir;

    private static Path bin(String name) {
        return Paths.get(System.getProperty("basedir", System.getProperty("user.dir")), "bin", name);
    }

    /** The lines from {@code from} up to (not including) {@code to}, with the launcher's own name made neutral. */
    private static String section(String text, String from, String to, String name) {
        int start = text.indexOf(from);
        int end = text.indexOf(to, start);
        assertTrue(start >= 0 && end > start, from + " .. " + to);
        return text.substring(start, end).replace(name + ": error:", "NAME: error:");
    }

    @Test
    void theLaunchersExistAndTheShOneIsExecutable() throws IOException {
        assertTrue(Files.isRegularFile(bin("cudnn")) && Files.isRegularFile(bin("cudnn.cmd")));
        if (!System.getProperty("os.name").startsWith("Windows")) {
            assertTrue(Files.isExecutable(bin("cudnn")), "bin/cudnn is not executable");
        }
        String cmd = Files.readString(bin("cudnn.cmd"), StandardCharsets.UTF_8);
        assertFalse(cmd.replace("\r\n", "").contains("\n"), "bin/cudnn.cmd has a line end that is not CRLF");
        assertTrue(Files.readString(bin("cudnn")).startsWith("#!/bin/sh\n"));
    }

    @Test
    void theyChooseJavaExactlyAsCudnnVerifyDoes() throws IOException {
        String sh = Files.readString(bin("cudnn"));
        String verify = Files.readString(bin("cudnn-verify"));
        assertEquals(section(verify, "# Which java", "# A small", "cudnn-verify"), section(sh, "# Which java", "# A small", "cudnn"));
        String cmd = Files.readString(bin("cudnn.cmd"));
        String verifyCmd = Files.readString(bin("cudnn-verify.cmd"));
        assertEquals(section(verifyCmd, "rem Which java.exe", ":java_found", "cudnn-verify"),
                section(cmd, "rem Which java.exe", ":java_found", "cudnn"));
        assertEquals(verifyCmd.substring(verifyCmd.indexOf("rem ---- :find_java")), cmd.substring(cmd.indexOf("rem ---- :find_java")));
        assertTrue(sh.contains("target/cudnn-tool.jsa") && cmd.contains("target\\cudnn-tool.jsa"), "the class-data archive");
    }

    /** Runs a copy of bin/cudnn beside a stand-in jar; java is a script that prints its arguments. */
    private Result runCopy(Map<String, String> env, String... args) throws Exception {
        assumeTrue(!System.getProperty("os.name").startsWith("Windows") && Files.isExecutable(Paths.get("/bin/sh")));
        Path b = Files.createDirectories(dir.resolve("tool/bin"));
        Files.copy(bin("cudnn"), b.resolve("cudnn"), StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(dir.resolve("tool/target"));
        Files.writeString(dir.resolve("tool/target/cudnn-tool.jar"), "stand-in");
        Path java = Files.createDirectories(dir.resolve("jdk/bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"java $*\"\n");
        java.toFile().setExecutable(true);
        List<String> command = new ArrayList<>(List.of("/bin/sh", b.resolve("cudnn").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().remove("JAVA");
        pb.environment().remove("JAVA_HOME");
        pb.environment().remove("CUDNN_TOOL_JAVA_OPTS");
        pb.environment().put("PATH", "/usr/bin:/bin");
        env.forEach((k, v) -> pb.environment().put(k, v.replace("JDK", dir.resolve("jdk").toString())));
        Process p = pb.start();
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private record Result(int exit, String out) {
    }

    @Test
    void theShLauncherPassesEveryArgumentThrough() throws Exception {
        Result verify = runCopy(Map.of("JAVA_HOME", "JDK"), "verify", "--json", "a b");
        assertEquals(0, verify.exit(), verify.out());
        assertTrue(verify.out().startsWith("java "), verify.out());
        assertTrue(verify.out().strip().endsWith("cudnn-tool.jar verify --json a b"), verify.out());
        assertTrue(verify.out().contains("-XX:TieredStopAtLevel=1"), "a short command gets the quick compiler: " + verify.out());
        Result install = runCopy(Map.of("JAVA_HOME", "JDK"), "install", "--archive", "x.zip");
        assertFalse(install.out().contains("TieredStopAtLevel"), "an install reads gigabytes: " + install.out());
        Result alone = runCopy(Map.of("JAVA_HOME", "JDK"));
        assertTrue(alone.out().strip().endsWith("cudnn-tool.jar"), alone.out());
    }

    @Test
    void theShLauncherNeverTakesJavaFromARelativePathEntry() throws Exception {
        Files.createDirectories(dir.resolve("bin"));
        Files.writeString(dir.resolve("bin/java"), "#!/bin/sh\necho planted\n");
        dir.resolve("bin/java").toFile().setExecutable(true);
        Result r = runCopy(Map.of("PATH", "bin:.:JDK/bin:/usr/bin"), "--version");
        assertTrue(r.out().startsWith("java ") && !r.out().contains("planted"), r.out());
        // dirname (the launcher needs it) from a folder of its own: /usr/bin may hold a java.
        Path tools = Files.createDirectories(dir.resolve("tools"));
        for (String d : List.of("/usr/bin/dirname", "/bin/dirname")) {
            if (Files.isExecutable(Paths.get(d))) {
                Files.copy(Paths.get(d), tools.resolve("dirname"), StandardCopyOption.COPY_ATTRIBUTES);
                break;
            }
        }
        Result none = runCopy(Map.of("PATH", "bin:.:" + tools), "--version");
        assertEquals(2, none.exit(), none.out());
        assertTrue(none.out().startsWith("cudnn: error: no java in JAVA_HOME or in an absolute PATH folder; fix:"), none.out());
    }
}
