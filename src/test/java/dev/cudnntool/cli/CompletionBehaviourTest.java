package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * #31 item 6: the completion script completes files, folders and values, proven by calling its
 * function with COMP_WORDS and COMP_CWORD set in a real bash (/bin/bash, by absolute path), in a
 * folder holding one archive-like file and one sub-folder.
 */
class CompletionBehaviourTest {
    private static final Path BASH = Path.of("/bin/bash");

    @TempDir
    Path dir;
    private Path script;

    @BeforeEach
    void writeScript() throws IOException {
        assumeTrue(Files.isExecutable(BASH), "no /bin/bash on this machine");
        Cli.Run r = Cli.run(TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner()), "completion", "bash");
        assertEquals(0, r.exit(), r.err());
        script = dir.resolve("cudnn.bash");
        Files.writeString(script, r.out());
        Files.createDirectories(dir.resolve("work").resolve("sub folder"));
        Files.writeString(dir.resolve("work").resolve("cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz"), "x");
    }

    /** The words COMPREPLY holds after the completion function ran on {@code words}, the last one being completed. */
    private List<String> complete(String... words) throws Exception {
        StringBuilder arr = new StringBuilder();
        for (String w : words) {
            arr.append(" '").append(w.replace("'", "'\\''")).append('\'');
        }
        String body = "source \"$1\" || exit 3\nCOMP_WORDS=(" + arr + " )\nCOMP_CWORD=" + (words.length - 1)
                + "\nCOMP_LINE=\"${COMP_WORDS[*]}\"\n_cudnn_complete cudnn \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD-1]}\"\n"
                + "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
        ProcessBuilder pb = new ProcessBuilder(BASH.toString(), "--norc", "--noprofile", "-c", body, "bash", script.toString())
                .directory(dir.resolve("work").toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD); // compopt outside a real TAB press says so on stderr
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "bash ran over 20 s");
        assertEquals(0, p.exitValue(), out);
        return out.lines().filter(l -> !l.isEmpty()).sorted().toList();
    }

    private static final String ARCHIVE = "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz";

    @Test
    void filesForArchiveManifestEnvFileAndInspect() throws Exception {
        assertEquals(List.of(ARCHIVE, "sub folder"), complete("cudnn", "install", "--archive", ""));
        assertEquals(List.of(ARCHIVE), complete("cudnn", "install", "--archive", "cu"));
        assertEquals(List.of(ARCHIVE), complete("cudnn", "inspect", "c"), "inspect's positional FILE");
        assertEquals(List.of(ARCHIVE), complete("cudnn", "inspect", "--json", "c"));
        assertEquals(List.of(ARCHIVE), complete("cudnn", "install", "--manifest", "c"));
        assertEquals(List.of(ARCHIVE), complete("cudnn", "install", "--env-file", "c"));
        assertEquals(List.of(ARCHIVE), complete("cudnn", "install", "--archive", "=", "c"), "--archive=c");
    }

    @Test
    void foldersOnlyForPrefixCudaPathAndTo() throws Exception {
        assertEquals(List.of("sub folder"), complete("cudnn", "install", "--prefix", ""));
        assertEquals(List.of("sub folder"), complete("cudnn", "verify", "--cuda-path", "s"));
        assertEquals(List.of("sub folder"), complete("cudnn", "fetch", "--to", ""));
        assertEquals(List.of("sub folder"), complete("cudnn", "install", "--cuda-path", "="), "--cuda-path=");
        assertEquals(List.of("sub folder"), complete("cudnn", "rollback", "--prefix", "=", "su"), "--prefix=su");
    }

    @Test
    void valuesForOsArchCudaAndFor() throws Exception {
        assertEquals(List.of("linux", "osx", "windows"), complete("cudnn", "releases", "--os", ""));
        assertEquals(List.of("linux", "windows"), complete("cudnn", "fetch", "--os", ""));
        assertEquals(List.of("aarch64", "arm64"), complete("cudnn", "fetch", "--arch", "a"));
        assertEquals(List.of("11", "12", "13"), complete("cudnn", "install", "--cuda", "1"));
        assertEquals(List.of("12"), complete("cudnn", "releases", "--cuda", "12"));
        assertEquals(List.of("tensorflow", "torch"), complete("cudnn", "verify", "--for", "t"));
        assertEquals(List.of("torch=="), complete("cudnn", "releases", "--for", "to"));
    }

    @Test
    void commandsAndOptionNamesStillCompleteAndAFreeValueGetsNothing() throws Exception {
        assertEquals(List.of("inspect", "install"), complete("cudnn", "ins"));
        assertTrue(complete("cudnn", "install", "--pr").contains("--prefix"));
        assertTrue(complete("cudnn", "inspect", "--j").contains("--json"));
        assertEquals(List.of(), complete("cudnn", "install", "--release", ""), "a version is typed, not completed");
    }

    @Test
    void everyOptionInTheTablesIsOneTheCommandsHave() throws Exception {
        String s = Files.readString(script);
        for (String o : CompletionCommand.FILE_OPTIONS) {
            assertTrue(s.contains(" " + o + "') _cudnn_reply_files"), o);
        }
        for (String o : CompletionCommand.FOLDER_OPTIONS) {
            assertTrue(s.contains(" " + o + "') _cudnn_reply_folders"), o);
        }
        for (String o : CompletionCommand.VALUES.keySet()) {
            assertTrue(s.contains(" " + o + "') _cudnn_reply_words"), o);
        }
        assertTrue(s.endsWith("complete -F _cudnn_complete -o default cudnn cudnn.sh cudnn.bash\n"), "registered last, with bash's file fallback");
    }

    /** zsh runs the same function through bashcompinit (arrays from 0 there, as in bash). */
    @Test
    void zshCompletesTheSameFoldersAndValues() throws Exception {
        Path zsh = Files.isExecutable(Path.of("/usr/bin/zsh")) ? Path.of("/usr/bin/zsh") : Path.of("/bin/zsh");
        assumeTrue(Files.isExecutable(zsh), "no zsh on this machine (apt-get install zsh)");
        Cli.Run r = Cli.run(TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner()), "completion", "zsh");
        Path z = dir.resolve("_cudnn");
        Files.writeString(z, r.out());
        String body = "source \"$1\" 2>/dev/null; setopt KSH_ARRAYS\n"
                + "COMP_WORDS=(cudnn install --prefix ''); COMP_CWORD=3; _cudnn_complete; print -l -- \"${COMPREPLY[@]}\"; print -- --\n"
                + "COMP_WORDS=(cudnn releases --os ''); COMP_CWORD=3; _cudnn_complete; print -l -- \"${COMPREPLY[@]}\"\n";
        ProcessBuilder pb = new ProcessBuilder(zsh.toString(), "-f", "-c", body, "zsh", z.toString())
                .directory(dir.resolve("work").toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("HOME", dir.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "zsh ran over 20 s");
        assertEquals("sub folder\n--\nlinux\nwindows\nosx\n", out);
    }
}
