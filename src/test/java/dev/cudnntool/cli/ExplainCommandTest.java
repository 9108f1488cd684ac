package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.explain.ExplainInput;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TestHosts;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code cudnn explain} on the command line: its three inputs, their bounds, the exit codes, the JSON shape, escaping. */
class ExplainCommandTest {
    static final String OPS_INFER = "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared"
            + " object file: No such file or directory";

    static Host bare() {
        return TestHosts.linux(TestHosts.unixFs(), Map.of("PATH", "/usr/bin"), new FakeRunner());
    }

    /** Runs with {@code stdin} as standard input. */
    static Cli.Run withStdin(Host host, byte[] stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ToolContext(host, new PrintWriter(out), new PrintWriter(err), false)
                .withInput(new ByteArrayInputStream(stdin)), args);
        return new Cli.Run(code, out.toString(), err.toString());
    }

    @Test
    void fasterWhispersLineOnAMachineWithOnlyTorchsCuDnn9IsExit1WithTheFix() throws Exception {
        String site = "/srv/app/.venv/lib/python3.11/site-packages";
        try (Machine m = Machine.linux().env("VIRTUAL_ENV", "/srv/app/.venv").file(site + "/nvidia/cudnn/lib/libcudnn.so.9", "elf")
                .file(site + "/nvidia/cudnn/lib/libcudnn_ops.so.9", "elf").build()) {
            Cli.Run r = Cli.run(m.host(), "explain", OPS_INFER, "--json");
            assertEquals(1, r.exit(), r.out() + r.err());
            JsonNode j = r.json();
            assertEquals("explain", j.get("command").asText());
            assertEquals(1, j.get("exitCode").asInt());
            JsonNode line = j.get("lines").get(0);
            assertEquals("load-failure", line.get("kind").asText());
            assertEquals(8, line.get("major").asInt());
            assertEquals("ops_infer", line.get("subLibrary").asText());
            assertTrue(line.get("meaning").asText().contains("exist only in cuDNN 8"));
            JsonNode f = j.get("findings").get(0);
            assertEquals("explain.not-found", f.get("id").asText());
            assertTrue(f.get("fix").asText().contains("cudnn install --release 8.9.7 --prefix"), f.toString());
            Cli.Run text = Cli.run(m.host(), "explain", OPS_INFER);
            assertTrue(text.out().contains("ERROR explain.not-found") && text.out().endsWith(
                    "explain: the cause is on this machine (see the errors and their fixes above)\n"), text.out());
        }
    }

    @Test
    void aCauseRuledOutIsExit0AndSaysWhatWasChecked() throws Exception {
        try (Machine m = Machine.linux().env("LD_LIBRARY_PATH", "/opt/cudnn8/lib").file("/opt/cudnn8/lib/libcudnn_ops_infer.so.8", "elf")
                .build()) {
            Cli.Run r = Cli.run(m.host(), "explain", OPS_INFER);
            assertEquals(0, r.exit(), r.out());
            assertTrue(r.out().contains("ok    explain.ruled-out") || r.out().contains("info  explain.ruled-out"), r.out());
            assertTrue(r.out().contains("explain: the cause is not present here (1 check ruled it out, above)"), r.out());
        }
    }

    @Test
    void quietPrintsOnlyTheErrorsAndTheLastLine() {
        Cli.Run r = Cli.run(bare(), "explain", OPS_INFER, "-q");
        assertEquals(1, r.exit());
        assertEquals(List.of("findings", "ERROR explain.not-found", "fix:", "explain: the cause is on this machine"),
                r.out().lines().map(l -> l.strip().split("(?<=^(findings|ERROR explain.not-found|fix:|explain: the cause is on this machine))")[0])
                        .toList(), r.out());
    }

    @Test
    void standardInputIsRead() {
        String log = "Traceback (most recent call last):\r\n  File \"app.py\", line 3\r\n" + OPS_INFER + "\r\nAborted (core dumped)\r\n";
        Cli.Run r = withStdin(bare(), log.getBytes(StandardCharsets.UTF_8), "explain", "-", "--json");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertEquals("standard input", r.json().get("input").get("source").asText());
        assertEquals(3, r.json().get("lines").get(0).get("number").asInt());
    }

    @Test
    void aLogFileIsReadAndPowerShellsUtf16IsDecoded() throws Exception {
        try (Machine m = Machine.windows().build()) {
            Path log = m.path("C:\\logs\\run.log");
            Files.createDirectories(log.getParent());
            byte[] body = ("step 1\r\nCould not load library cudnn_cnn_infer64_8.dll. Error code 126\r\n").getBytes(StandardCharsets.UTF_16LE);
            byte[] withBom = new byte[body.length + 2];
            withBom[0] = (byte) 0xff;
            withBom[1] = (byte) 0xfe;
            System.arraycopy(body, 0, withBom, 2, body.length);
            Files.write(log, withBom);
            Cli.Run r = Cli.run(m.host(), "explain", "--file", log.toString(), "--json");
            assertEquals(1, r.exit(), r.out() + r.err());
            assertEquals(2, r.json().get("lines").get(0).get("number").asInt());
            assertEquals(126, r.json().get("lines").get(0).get("windowsError").asInt());
            assertEquals("explain.not-found", r.json().get("findings").get(0).get("id").asText());
        }
    }

    @Test
    void aHugeLogIsReadFromItsEndAndSaysSo() throws Exception {
        try (Machine m = Machine.linux().build()) {
            Path log = m.path("/tmp/train.log");
            Files.createDirectories(log.getParent());
            try (var out = Files.newOutputStream(log)) {
                byte[] noise = "epoch 1 step 1 loss 0.123456789 lr 0.0001 grad-norm 1.0\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
                for (long written = 0; written < ExplainInput.CAP + (2L << 20); written += noise.length) {
                    out.write(noise);
                }
                out.write((OPS_INFER + "\n").getBytes(StandardCharsets.UTF_8));
            }
            Cli.Run r = Cli.run(m.host(), "explain", "--file", log.toString());
            assertEquals(1, r.exit(), r.err());
            assertTrue(r.err().startsWith("explain: /tmp/train.log is larger than 16 MiB (") && r.err().contains("only its last 16 MiB"),
                    r.err());
            Cli.Run json = Cli.run(m.host(), "explain", "--file", log.toString(), "--json");
            assertTrue(json.json().get("input").get("truncated").asBoolean());
        }
    }

    @Test
    void standardInputPastTheCapIsCutAndSaysSo() {
        byte[] big = new byte[ExplainInput.CAP + 10];
        Arrays.fill(big, (byte) 'a');
        byte[] line = ("\n" + OPS_INFER + "\n").getBytes(StandardCharsets.UTF_8);
        System.arraycopy(line, 0, big, 100, line.length);
        Cli.Run r = withStdin(bare(), big, "explain", "-");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("standard input is larger than 16 MiB; only its first 16 MiB were read"), r.err());
    }

    @Test
    void usageErrorsAreExit2AndOneLine() throws Exception {
        Host host = bare();
        Cli.Run none = Cli.run(host, "explain", "Segmentation fault (core dumped)");
        assertEquals(2, none.exit());
        assertEquals("", none.out());
        assertEquals(1, none.err().strip().lines().count(), none.err());
        assertTrue(none.err().startsWith("explain: error: no cuDNN error line in the argument"), none.err());
        Cli.Run json = Cli.run(host, "explain", "nothing here", "--json");
        assertEquals(2, json.exit());
        assertEquals(2, json.json().get("exitCode").asInt());
        assertEquals(2, Cli.run(host, "explain").exit());
        assertEquals(2, Cli.run(host, "explain", "x", "--file", "/tmp/a.log").exit());
        Cli.Run missing = Cli.run(host, "explain", "--file", "/tmp/none.log");
        assertEquals(2, missing.exit());
        assertTrue(missing.err().contains("cannot read /tmp/none.log (no such file)"), missing.err());
        Files.createDirectories(host.path("/tmp/dir.log"));
        assertEquals(2, Cli.run(host, "explain", "--file", "/tmp/dir.log").exit());
        assertEquals(2, withStdin(host, new byte[0], "explain", "-").exit());
        Cli.Run typo = Cli.run(host, "explan", "x");
        assertTrue(typo.err().contains("did you mean 'cudnn explain'"), typo.err());
    }

    @Test
    void nothingFromThePastedTextReachesTheTerminalRaw() throws Exception {
        String hostile = "\u001B]0;pwned\u0007\u001B[2J" + OPS_INFER + " \u009b31m\u202Egnp.exe\u001B[8m";
        Cli.Run r = Cli.run(bare(), "explain", hostile);
        assertEquals(1, r.exit());
        for (String s : new String[] {r.out(), r.err()}) {
            for (char c : s.toCharArray()) {
                assertFalse(c == '\u001B' || c == '\u0007' || c >= '\u0080' && c <= '\u009f' || c >= '\u202A' && c <= '\u202E'
                        || c >= '\u2066' && c <= '\u2069', "raw U+" + Integer.toHexString(c) + " printed: " + s);
            }
        }
        assertTrue(r.out().contains("\\u009b31m\\u202egnp.exe"), r.out());
        Cli.Run json = Cli.run(bare(), "explain", hostile, "--json");
        String text = new ObjectMapper().readTree(json.out()).get("lines").get(0).get("text").asText();
        assertFalse(text.contains("\u001B") || text.contains("\u202E"), text);
    }
}
