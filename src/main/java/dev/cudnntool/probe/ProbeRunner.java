package dev.cudnntool.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.archive.CudnnVersion;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.host.ProcessRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts the probe in a child JVM (the tool's own class path) and reads its event lines. The
 * parent survives whatever happens to the child: an abort inside cuDNN, a hang (30 s), garbage.
 */
public final class ProbeRunner {
    public static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ProcessRunner runner;
    private final List<String> javaCommand;

    /** @param javaCommand how to start a JVM with the tool on its class path, e.g. [java, -cp, jar] */
    public ProbeRunner(ProcessRunner runner, List<String> javaCommand) {
        this.runner = runner;
        this.javaCommand = List.copyOf(javaCommand);
    }

    /** This JVM's own java executable and class path: works from the jar and from the tests. */
    public static List<String> currentJava() {
        String sep = java.io.File.separator;
        String exe = ProcessHandle.current().info().command()
                .orElse(System.getProperty("java.home") + sep + "bin" + sep + "java");
        return List.of(exe, "-Xss1m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"));
    }

    /**
     * @param library the main library by absolute path
     * @param bareName the name programs load it by (libcudnn.so.9, cudnn64_9.dll)
     * @param subLibraries each sub-library by absolute path
     */
    public ProbeResult probe(Path library, String bareName, List<Path> subLibraries) {
        List<String> cmd = new ArrayList<>(javaCommand);
        cmd.add(ProbeMain.class.getName());
        cmd.add("--library");
        cmd.add(library.toString());
        if (bareName != null) {
            cmd.add("--name");
            cmd.add(bareName);
        }
        for (Path s : subLibraries) {
            cmd.add("--sub");
            cmd.add(s.toString());
        }
        return parse(library.toString(), runner.run(cmd, TIMEOUT));
    }

    static ProbeResult parse(String library, ProcessResult r) {
        String loaded = null;
        String byName = null;
        String byNameError = null;
        Long version = null;
        Long cudart = null;
        List<Integer> props = null;
        Long maxDev = null;
        Integer handle = null;
        String handleName = null;
        String loadError = null;
        String lastCall = null;
        boolean done = false;
        List<ProbeResult.SubLibrary> subs = new ArrayList<>();
        for (String line : r.out().split("\\R")) {
            if (!line.startsWith("{")) {
                continue;
            }
            JsonNode e;
            try {
                e = JSON.readTree(line);
            } catch (Exception ex) {
                continue; // garbage from a dying process is not evidence
            }
            switch (e.path("event").asText()) {
                case "byName" -> {
                    byName = text(e, "loadedPath");
                    byNameError = text(e, "error");
                }
                case "subLibrary" -> subs.add(new ProbeResult.SubLibrary(text(e, "path"), e.path("loaded").asBoolean(),
                        text(e, "error"), e.has("errorCode") ? e.get("errorCode").asInt() : null));
                case "mainLoadFailed" -> loadError = text(e, "error");
                case "notCudnn" -> loadError = text(e, "error");
                case "mainLoaded" -> loaded = text(e, "loadedPath");
                case "calling" -> lastCall = text(e, "function");
                case "version" -> version = e.get("value").asLong();
                case "cudartVersion" -> cudart = e.get("value").asLong();
                case "properties" -> props = List.of(e.path("major").asInt(), e.path("minor").asInt(), e.path("patch").asInt());
                case "maxDeviceVersion" -> maxDev = e.get("value").asLong();
                case "handle" -> {
                    handle = e.get("status").asInt();
                    handleName = text(e, "statusName");
                }
                case "done" -> done = true;
                default -> { }
            }
        }
        String versionString = version == null || version <= 0 ? null : CudnnVersion.fromApiNumber(version).toString();
        String cudartString = cudart == null || cudart <= 0 ? null : CudaVersion.fromCudartNumber(cudart).toString();
        boolean crashed = !r.timedOut() && (!r.started() || !done || r.exitCode() != 0);
        String tail = r.started() ? r.tail(4) : r.startFailure();
        return new ProbeResult(library, loaded, byName, byNameError, version, versionString, cudart, cudartString, props,
                maxDev, handle, handleName, subs, loadError, r.started() && !r.timedOut() ? r.exitCode() : null, crashed,
                r.timedOut(), done ? null : lastCall, crashed || r.timedOut() ? tail : null);
    }

    private static String text(JsonNode e, String field) {
        JsonNode n = e.get(field);
        return n == null || n.isNull() ? null : n.asText();
    }
}
