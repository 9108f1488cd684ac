package dev.cudnntool.host;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real runner against real executables: timeouts, big outputs on both streams, exit codes. */
class SystemProcessRunnerTest {
    @TempDir
    Path dir;

    private Path script(String body) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs a POSIX shell to run the test script");
        Path s = dir.resolve("fake-nvidia-smi");
        Files.writeString(s, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwxr-xr-x"));
        return s;
    }

    @Test
    void drainsBothStreamsSoAChattyChildNeverBlocks() throws Exception {
        // 2 MB on each stream: far above any pipe buffer, so an undrained stream would hang it.
        Path s = script("i=0; while [ $i -lt 32 ]; do head -c 65536 /dev/zero | tr '\\0' o; head -c 65536 /dev/zero | tr '\\0' e >&2; i=$((i+1)); done; exit 3");
        ProcessResult r = new SystemProcessRunner().run(List.of(s.toString()), Duration.ofSeconds(30));
        assertFalse(r.timedOut());
        assertEquals(3, r.exitCode());
        assertEquals(32 * 65536, r.out().length());
        assertEquals(32 * 65536, r.err().length());
    }

    @Test
    void aHangingProgramIsKilledAtTheTimeout() throws Exception {
        Path s = script("echo started; sleep 60");
        long t0 = System.nanoTime();
        ProcessResult r = new SystemProcessRunner().run(List.of(s.toString()), Duration.ofMillis(700));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(r.timedOut());
        assertTrue(ms < 20_000, "returned after " + ms + " ms, not after the child's 60 s");
        assertTrue(r.out().contains("started"));
    }

    @Test
    void aMissingProgramIsNotStartedRatherThanAnException() {
        ProcessResult r = new SystemProcessRunner().run(List.of(dir.resolve("no-such-program").toString()), Duration.ofSeconds(5));
        assertFalse(r.started());
        assertNotNull(r.startFailure());
    }

    @Test
    void argumentsArePassedAsTheyAreWithoutAShell() throws Exception {
        Path s = script("printf '%s|' \"$@\"");
        ProcessResult r = new SystemProcessRunner().run(List.of(s.toString(), "a b", "$(rm -rf /)", "--query-gpu=name"),
                Duration.ofSeconds(10));
        assertEquals("a b|$(rm -rf /)|--query-gpu=name|", r.out());
    }

    /** #18 A5: a program named without its folder is never looked up on PATH or in the current folder. */
    @Test
    void aBareProgramNameIsRefusedNotLookedUpOnPath() throws Exception {
        Path marker = dir.resolve("ran");
        Path fake = script("touch " + marker);
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.move(fake, bin.resolve("ldconfig"));
        ProcessResult r = new SystemProcessRunner(Map.of("PATH", bin.toString())).run(List.of("ldconfig"), Duration.ofSeconds(5));
        assertFalse(r.started());
        assertTrue(r.startFailure().contains("not an absolute path"), r.startFailure());
        assertFalse(Files.exists(marker), "the fake on PATH never ran");
        assertFalse(new SystemProcessRunner().start(List.of("ldconfig")).finish("", Duration.ofSeconds(5)).started());
    }

    /** Absolute by the rules of the system the program starts on: a drive path is a name relative to the current folder on Linux. */
    @Test
    void aProgramMustBeNamedByAnAbsolutePathOfItsOwnSystem() throws Exception {
        try (FileSystem unix = TestHosts.unixFs(); FileSystem windows = TestHosts.windowsFs()) {
            assertNull(SystemProcessRunner.notAbsolute(List.of("/usr/bin/nvidia-smi", "-L"), unix));
            assertNull(SystemProcessRunner.notAbsolute(List.of("C:\\Windows\\System32\\nvidia-smi.exe"), windows));
            for (String relative : List.of("nvidia-smi", "./nvidia-smi", "bin/ldconfig")) {
                assertTrue(SystemProcessRunner.notAbsolute(List.of(relative), unix).contains("not an absolute path"), relative);
                assertTrue(SystemProcessRunner.notAbsolute(List.of(relative), windows).contains("not an absolute path"), relative);
            }
            assertTrue(SystemProcessRunner.notAbsolute(List.of("C:\\Windows\\System32\\nvidia-smi.exe"), unix)
                    .contains("not an absolute path"));
            assertTrue(SystemProcessRunner.notAbsolute(List.of("nvidia-smi.exe"), windows).contains("not an absolute path"));
            assertTrue(SystemProcessRunner.notAbsolute(List.of("C:nvidia-smi.exe"), windows).contains("not an absolute path"),
                    "a drive-relative path is relative to that drive's current folder");
            assertTrue(SystemProcessRunner.notAbsolute(List.of("C:\\bad\u0000name.exe"), windows).contains("not an absolute path"));
            assertTrue(SystemProcessRunner.notAbsolute(List.of(), unix).contains("refused to run nothing"));
        }
    }
}
