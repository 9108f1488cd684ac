package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.DeniedFolders;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * verify's three verdicts through the command line (settled "Verdicts and exit codes"): ok (exit 0), problems
 * (exit 1, any error finding whatever else happened), unknown (exit 9, a finding of a not-checked id naming what
 * could not be looked at). Each case checks the exit code, JSON's {@code verdict} and {@code exitCode}, and the text's
 * summary line.
 */
class VerdictCliTest {
    private static final String TK = LinuxDiagnosisTest.TK;
    private static final String LIB = LinuxDiagnosisTest.LIB;
    private static final String SUB = "--sub " + LIB + "/" + CudnnComponents.linuxSoname(
            CudnnComponents.subLibraries(9).get(CudnnComponents.subLibraries(9).size() - 1), 9);
    private static final String HEALTHY = "{\"event\":\"byName\",\"name\":\"libcudnn.so.9\",\"loadedPath\":\"" + LIB + "/libcudnn.so.9\"}\n"
            + LinuxDiagnosisTest.loaded(LIB + "/libcudnn.so.9", 90501, 12060);
    private static final String JVM_CRASH = "#\n# A fatal error has been detected by the Java Runtime Environment:\n#\n"
            + "#  SIGSEGV (0xb) at pc=0x00007f3a5c21d6c4, pid=4242, tid=4243\n#\n"
            + "# Problematic frame:\n# V  [libjvm.so+0x5c21d6]\n#\n";

    private final LinuxDiagnosisTest machine = new LinuxDiagnosisTest();

    private Host host() {
        return machine.host(Map.of("CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB));
    }

    private void probeAnswers(ProcessResult r) {
        machine.runner.on(SUB, r);
    }

    /** Runs verify as JSON and as text; checks that both end with {@code exit} and the JSON says {@code verdict}. */
    private static JsonNode verify(Host host, int exit, String verdict, String... more) {
        List<String> args = new ArrayList<>(List.of("verify", "--json"));
        args.addAll(List.of(more));
        Cli.Run json = Cli.run(host, args.toArray(String[]::new));
        assertEquals(exit, json.exit(), json.out() + json.err());
        JsonNode doc = json.json();
        assertEquals(verdict, doc.get("verdict").asText(), json.out());
        assertEquals(exit, doc.get("exitCode").asInt());
        assertEquals(exit == 0, doc.get("ok").asBoolean());
        List<String> fields = new ArrayList<>();
        doc.fieldNames().forEachRemaining(fields::add);
        assertEquals(fields.indexOf("exitCode") + 1, fields.indexOf("verdict"), "verdict stands beside exitCode: " + fields);
        args.remove("--json");
        Cli.Run text = Cli.run(host, args.toArray(String[]::new));
        assertEquals(exit, text.exit(), text.out() + text.err());
        return ((ObjectNode) doc).put("text", text.out());
    }

    private static List<JsonNode> findings(JsonNode doc, String id) {
        List<JsonNode> out = new ArrayList<>();
        doc.get("findings").forEach(f -> {
            if (f.get("id").asText().equals(id)) {
                out.add(f);
            }
        });
        return out;
    }

    private static String summary(JsonNode doc) {
        String[] lines = doc.get("text").asText().strip().split("\\R");
        return lines[lines.length - 1];
    }

    @Test
    void aHealthyInstallIsOk() throws Exception {
        machine.install(9, "9.5.1");
        probeAnswers(FakeRunner.ok(HEALTHY));
        JsonNode doc = verify(host(), 0, "ok");
        assertTrue(findings(doc, "probe.not-checked").isEmpty(), doc.toString());
        assertEquals("verify: no problems found", summary(doc));
    }

    @Test
    void aProbeThatTimesOutIsUnknownWithAWarningOfItsOwnId() throws Exception {
        machine.install(9, "9.5.1");
        probeAnswers(new ProcessResult(-1, "{\"event\":\"calling\",\"function\":\"cudnnCreate\"}\n", "", true, null));
        JsonNode doc = verify(host(), 9, "unknown");
        List<JsonNode> nc = findings(doc, "probe.not-checked");
        assertEquals(1, nc.size(), doc.toString());
        assertEquals("warn", nc.get(0).get("severity").asText());
        assertTrue(nc.get(0).get("message").asText().contains("did not answer within 30 s while calling cudnnCreate"), nc.toString());
        assertTrue(findings(doc, "cudnn.load-failed").isEmpty(), "a timeout is not a load failure: " + doc);
        assertTrue(summary(doc).startsWith("verify: could not check whether cuDNN loads"), summary(doc));
        assertTrue(summary(doc).endsWith("(exit 9)"), summary(doc));
    }

    @Test
    void aProbeThatCannotStartIsUnknown() throws Exception {
        machine.install(9, "9.5.1"); // the fake has no answer for the probe: the child does not start
        JsonNode doc = verify(host(), 9, "unknown");
        List<JsonNode> nc = findings(doc, "probe.not-checked");
        assertEquals(1, nc.size(), doc.toString());
        assertTrue(nc.get(0).get("message").asText().contains("could not start"), nc.toString());
        assertTrue(summary(doc).contains("could not check"), summary(doc));
    }

    @Test
    void aJvmCrashBeforeAnyCudnnCallIsUnknown() throws Exception {
        machine.install(9, "9.5.1");
        probeAnswers(new ProcessResult(134 + 5, JVM_CRASH, "", false, null));
        JsonNode doc = verify(host(), 9, "unknown");
        List<JsonNode> nc = findings(doc, "probe.not-checked");
        assertEquals(1, nc.size(), doc.toString());
        assertTrue(nc.get(0).get("message").asText().contains("SIGSEGV") && nc.get(0).get("message").asText().contains("libjvm.so"),
                nc.toString());
    }

    @Test
    void aCrashInsideCudnnStaysAProblem() throws Exception {
        machine.install(9, "9.5.1");
        probeAnswers(new ProcessResult(134, "{\"event\":\"loading\",\"path\":\"" + LIB + "/libcudnn.so.9\"}\n"
                + "{\"event\":\"mainLoaded\",\"path\":\"" + LIB + "/libcudnn.so.9\",\"loadedPath\":\"" + LIB + "/libcudnn.so.9\"}\n"
                + "{\"event\":\"calling\",\"function\":\"cudnnGetVersion\"}\n", "Could not load library libcudnn_ops.so.9\n", false, null));
        JsonNode doc = verify(host(), 1, "problems");
        assertFalse(findings(doc, "cudnn.load-failed").isEmpty(), doc.toString());
        assertTrue(findings(doc, "probe.not-checked").isEmpty(), doc.toString());
        assertTrue(summary(doc).contains("problem(s) found") && summary(doc).endsWith("(exit 1)"), summary(doc));
    }

    @Test
    void anErrorWinsOverWhatCouldNotBeChecked() throws Exception {
        machine.install(9, "9.5.1");
        probeAnswers(FakeRunner.timedOut());
        JsonNode doc = verify(host(), 1, "problems", "--expect", "9.1.0");
        assertEquals(1, findings(doc, "probe.not-checked").size(), doc.toString());
        assertFalse(findings(doc, "cudnn.expect-mismatch").isEmpty(), doc.toString());
    }

    @Test
    void aPackageRecordThatCannotBeReadIsUnknown() throws Exception {
        machine.install(9, "9.5.1");
        Files.createDirectories(machine.fs.getPath("/var/lib/dpkg/info"));
        Files.writeString(machine.fs.getPath("/var/lib/dpkg/info/libcudnn9-cuda-12.list"), LIB + "/libcudnn.so.9\n");
        probeAnswers(FakeRunner.ok(HEALTHY));
        Host denied = TestHosts.linux(DeniedFolders.wrap(machine.fs, "/var/lib/dpkg/info"),
                Map.of("PATH", "/usr/bin", "CUDA_PATH", TK, "LD_LIBRARY_PATH", LIB), machine.runner);
        JsonNode doc = verify(denied, 9, "unknown");
        List<JsonNode> nc = findings(doc, "owner.unreadable");
        assertEquals(1, nc.size(), doc.toString());
        assertEquals("warn", nc.get(0).get("severity").asText());
        assertTrue(nc.get(0).get("message").asText().contains("/var/lib/dpkg/info"), nc.toString());
        assertTrue(summary(doc).startsWith("verify: could not check which package owns"), summary(doc));
        // the same machine with the records readable: the owner is known and nothing is left unchecked
        JsonNode readable = verify(host(), 0, "ok");
        assertTrue(findings(readable, "owner.unreadable").isEmpty(), readable.toString());
        assertEquals("dpkg", readable.get("copies").get(0).get("owner").get("kind").asText(), readable.get("copies").toString());
    }
}
