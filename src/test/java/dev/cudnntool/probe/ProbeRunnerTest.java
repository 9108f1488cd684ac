package dev.cudnntool.probe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import dev.cudnntool.verify.ProbeCheck;
import java.io.File;
import java.nio.file.FileSystem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parent's reading of the child: complete answers, aborts, hangs and garbage. */
class ProbeRunnerTest {
    static final String LOADED = "{\"event\":\"mainLoaded\",\"path\":\"/t/libcudnn.so.8\",\"loadedPath\":\"/t/libcudnn.so.8\"}\n";

    static ProbeResult parse(ProcessResult r) {
        return ProbeRunner.parse("/t/libcudnn.so.8", r);
    }

    static List<Finding> findings(ProbeResult p) {
        return ProbeCheck.findings(TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner()), p, null, null, false);
    }

    @Test
    void aCompleteAnswerIsDecoded() {
        ProbeResult p = parse(FakeRunner.ok(LOADED + "{\"event\":\"calling\",\"function\":\"cudnnGetVersion\"}\n"
                + "{\"event\":\"version\",\"value\":90501}\n{\"event\":\"cudartVersion\",\"value\":12060}\n"
                + "{\"event\":\"properties\",\"major\":9,\"minor\":5,\"patch\":1}\n"
                + "{\"event\":\"handle\",\"status\":1001,\"statusName\":\"CUDNN_STATUS_NOT_INITIALIZED\"}\n{\"event\":\"done\"}\n"));
        assertEquals("9.5.1", p.versionString());
        assertEquals("12.6", p.cudartVersionString());
        assertEquals(List.of(9, 5, 1), p.properties());
        assertFalse(p.incomplete());
        List<Finding> f = findings(p);
        assertEquals("cudnn.no-gpu", f.get(0).id());
        assertEquals(1, f.size(), f.toString());
    }

    @Test
    void anAbortIsReportedWithExitStatusAndTheLibrarysLastWords() {
        ProbeResult p = parse(new ProcessResult(134, LOADED + "{\"event\":\"calling\",\"function\":\"cudnnGetVersion\"}\n",
                "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\n",
                false, null));
        assertTrue(p.crashed());
        assertEquals(134, p.childExit());
        assertEquals("cudnnGetVersion", p.lastCall());
        Finding f = findings(p).get(0);
        assertEquals("cudnn.load-failed", f.id());
        assertTrue(f.message().contains("SIGABRT") && f.message().contains("libcudnn_ops_infer.so.8"), f.message());
    }

    @Test
    void aHangIsATimeoutNotAWait() {
        ProbeResult p = parse(new ProcessResult(-1, LOADED + "{\"event\":\"calling\",\"function\":\"cudnnCreate\"}\n", "", true, null));
        assertTrue(p.timedOut());
        assertTrue(findings(p).get(0).message().contains("did not answer within 30 s while calling cudnnCreate"));
    }

    @Test
    void garbageIsNotEvidence() {
        ProbeResult p = parse(new ProcessResult(0, "\u0000\u0001{not json\n{\"event\":\"version\",\"value\":8905", "", false, null));
        assertNull(p.version());
        assertTrue(p.crashed(), "no 'done' line: the child did not finish");
        assertEquals("cudnn.load-failed", findings(p).get(0).id());
        ProbeResult notStarted = parse(ProcessResult.notStarted("java: not found"));
        assertTrue(notStarted.crashed());
        assertTrue(notStarted.stderrTail().contains("java: not found"));
    }

    @Test
    void loaderErrorsOfSubLibrariesNameTheCause() {
        ProbeResult p = parse(FakeRunner.ok("{\"event\":\"subLibrary\",\"path\":\"C:\\\\cuda\\\\bin\\\\cudnn_cnn_infer64_8.dll\",\"loaded\":false,"
                + "\"error\":\"error 127: a procedure was not found\",\"errorCode\":127}\n"
                + "{\"event\":\"mainLoadFailed\",\"path\":\"C:\\\\cuda\\\\bin\\\\cudnn64_8.dll\",\"error\":\"error 193: not a valid Win32 application\",\"errorCode\":193}\n"
                + "{\"event\":\"done\"}\n"));
        List<Finding> f = findings(p);
        assertTrue(f.stream().anyMatch(x -> x.fix().contains("64-bit")), f.toString());
        assertTrue(f.stream().anyMatch(x -> x.fix().contains("different cuDNN releases are mixed")), f.toString());
    }

    @Test
    void theRestartManagersAnswerNamesTheHolders() {
        FakeRunner runner = new FakeRunner().on("HolderMain C:\\cuda\\bin\\cudnn64_8.dll",
                FakeRunner.ok("{\"holders\":[{\"pid\":4242,\"name\":\"Python\"},{\"pid\":77,\"name\":\"\"}]}\n"));
        ProbeRunner probe = new ProbeRunner(runner, List.of("java"));
        FileSystem fs = TestHosts.windowsFs();
        assertEquals(List.of("Python (pid 4242)", "a program (pid 77)"), probe.holders(List.of(fs.getPath("C:\\cuda\\bin\\cudnn64_8.dll"))));
        assertEquals(List.of(), new ProbeRunner(new FakeRunner().on("HolderMain C:\\x.dll", FakeRunner.ok("garbage")), List.of("java"))
                .holders(List.of(fs.getPath("C:\\x.dll"))));
    }

    /** A3: the JVM's fatal-error banner while the loader maps a file: the file, the signal, the frame. */
    @Test
    void aSigbusWhileLoadingNamesTheFileTheSignalAndTheFrame() {
        String banner = "#\n# A fatal error has been detected by the Java Runtime Environment:\n#\n"
                + "#  SIGBUS (0x7) at pc=0x00007f3a5c21d6c4, pid=4242, tid=4243\n#\n"
                + "# JRE version: OpenJDK Runtime Environment (17.0.15+6) (build 17.0.15+6)\n"
                + "# Problematic frame:\n# C  [ld-linux-x86-64.so.2+0x1d6c4]\n#\n"
                + "# An error report file with more information is saved as:\n# /tmp/cudnn-probe-hs_err_pid4242.log\n";
        ProbeResult p = parse(new ProcessResult(1, "{\"event\":\"loading\",\"path\":\"/t/libcudnn_graph.so.9\"}\n" + banner,
                "", false, null));
        assertEquals("SIGBUS", p.crash().signal());
        assertEquals("/t/libcudnn_graph.so.9", p.crash().loading());
        Finding f = findings(p).get(0);
        assertEquals("cudnn.damaged-file", f.id());
        assertTrue(f.message().contains("/t/libcudnn_graph.so.9") && f.message().contains("SIGBUS")
                && f.message().contains("ld-linux-x86-64.so.2+0x1d6c4") && f.message().contains("/tmp/cudnn-probe-hs_err_pid4242.log"),
                f.message());
        assertFalse(f.message().contains("A fatal error has been detected"), "no JVM boilerplate: " + f.message());
        assertTrue(f.fix().contains("/t/libcudnn_graph.so.9"), f.fix());
    }

    /** A3: a crash after the file was mapped is not a damaged file; an abort stays cuDNN's own. */
    @Test
    void aCrashAfterLoadingIsNotADamagedFile() {
        String banner = "#  SIGSEGV (0xb) at pc=0x1, pid=1, tid=2\n# Problematic frame:\n# C  [libcudnn.so.9+0x1234]  cudnnCreate+0x14\n";
        ProbeResult p = parse(new ProcessResult(1, LOADED + "{\"event\":\"calling\",\"function\":\"cudnnCreate\"}\n" + banner,
                "", false, null));
        Finding f = findings(p).get(0);
        assertEquals("cudnn.load-failed", f.id());
        assertTrue(f.message().contains("SIGSEGV") && f.message().contains("libcudnn.so.9+0x1234") && f.message().contains("cudnnCreate"),
                f.message());
    }

    /** A3: the child's crash report goes to the temp folder and no core file is written. */
    @Test
    void theChildWritesNoCrashFilesIntoTheCurrentFolder() {
        List<String> opts = ProbeRunner.crashOptions("/tmp");
        assertEquals(List.of("-XX:ErrorFile=/tmp" + File.separator + "cudnn-probe-hs_err_pid%p.log", "-XX:-CreateCoredumpOnCrash"),
                opts);
        assertTrue(ProbeRunner.currentJava().containsAll(ProbeRunner.crashOptions(CrashFolder.forThisProcess()))); // #32 item 3: no longer the shared temp folder
    }
}
