package dev.cudnntool.install;

import dev.cudnntool.rollback.RollbackService;
import dev.cudnntool.target.DamagedState;
import dev.cudnntool.target.History;
import dev.cudnntool.target.InstallTarget;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TreeSnapshot;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A Linux machine on jimfs with CUDA 12.2, cuDNN 8.9.5 then 8.9.7 installed by the tool (two
 * records, the newest with backups), and a sentinel folder beside the toolkit that nothing may
 * ever touch. Helpers edit the state as an attacker or a broken disk would.
 */
public final class StateScene implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    final Machine m;
    final FileSystem fs;
    final Host host;
    public final Path tk;
    public final Path state;
    public final Path sentinel;
    public final InstallTarget target;
    public final InstallOutcome first;
    public final InstallOutcome second;
    final Path downloads;

    public StateScene(Path downloads) throws Exception {
        this.downloads = downloads;
        m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
                .file("/usr/local/sentinel/file", "keep me")
                .file("/usr/local/sentinel/sub/cudnn.h", "keep me too")
                .build();
        fs = m.fs();
        host = m.host();
        tk = m.toolkit();
        state = tk.resolve(".cudnn-tool");
        sentinel = fs.getPath("/usr/local/sentinel");
        first = install(ArchiveFixture.linux("8.9.5.30", "12"));
        second = install(ArchiveFixture.linux("8.9.7.29", "12"));
        target = m.toolkitTarget();
    }

    InstallOutcome install(ArchiveFixture a) throws IOException {
        Path archive = a.writeTo(Files.createTempDirectory(downloads, "a"));
        InstallOutcome o = m.install(archive);
        assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
        return o;
    }

    /** Every file under /usr/local (toolkit, its link, the sentinel). */
    Map<String, String> machine() {
        return TreeSnapshot.of(fs.getPath("/usr/local"));
    }

    public Path record(InstallOutcome o) {
        return History.dir(state).resolve(o.record().id()).resolve("install.json");
    }

    public ObjectNode read(Path json) throws IOException {
        return (ObjectNode) JSON.readTree(Files.readAllBytes(json));
    }

    public void write(Path json, ObjectNode node) throws IOException {
        Files.write(json, JSON.writeValueAsBytes(node));
    }

    public RollbackService rollbacks() {
        return m.rollbacks();
    }

    public RollbackOutcome rollback() {
        return rollbacks().rollback(target, null, false, false);
    }

    public InstallOutcome installAgain(boolean dryRun) throws IOException {
        Path archive = ArchiveFixture.linux("9.5.1.17", "12").writeTo(Files.createTempDirectory(downloads, "n"));
        return m.installer().run(
                new InstallRequest(archive, null, null, null, false, dryRun), ReadProgress.NONE);
    }

    /** Runs an action that must stop with exit 8 (damaged state) and change nothing on the machine. */
    public DamagedState refuses(Supplier<?> action) {
        Map<String, String> before = machine();
        try {
            Object o = action.get();
            throw new AssertionError("expected exit 8, got " + o);
        } catch (DamagedState e) {
            assertEquals(ExitCode.NOTHING_TO_ROLL_BACK, e.exitCode());
            assertEquals(before, machine(), "nothing changed: " + e.getMessage());
            oneLine(e);
            return e;
        } catch (ToolException e) {
            throw new AssertionError("expected exit 8, got " + e.exitCode() + ": " + e.getMessage(), e);
        }
    }

    static void oneLine(ToolException e) {
        String text = e.getMessage() + " " + e.fix();
        if (text.contains("\n") || text.contains("null") || text.contains("[Source")) {
            throw new AssertionError("not one clean line: " + text);
        }
    }

    @Override
    public void close() throws IOException {
        m.close();
    }
}
