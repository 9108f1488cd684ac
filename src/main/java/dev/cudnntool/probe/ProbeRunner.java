package dev.cudnntool.probe;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.diagnosis.Prober;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.host.ProcessRunner;
import java.io.File;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts the probe in a child JVM (the tool's own class path) and reads its event lines. The
 * parent survives whatever happens to the child: an abort inside cuDNN, a hang (30 s), garbage.
 */
public final class ProbeRunner implements Prober {
    public static final Duration TIMEOUT = Prober.TIMEOUT;
    /** The streaming parser only: an ObjectMapper would cost cudnn verify a tenth of a second to start. */
    private static final JsonFactory JSON = new JsonFactory();

    /**
     * Loads the parser's classes while the caller would otherwise only wait for the child (verify
     * calls it just before it joins the probe): the answer is then read without that cost.
     */
    public static void warmUpParser() {
        try (JsonParser p = JSON.createParser("{\"event\":\"x\",\"value\":1}")) {
            while (p.nextToken() != null) {
                p.getText();
            }
        } catch (IOException ignored) {
            // only a warm-up
        }
    }

    private final ProcessRunner runner;
    private final List<String> javaCommand;
    private ProcessRunner.Started warm;

    /** @param javaCommand how to start a JVM with the tool on its class path, e.g. [java, -cp, jar] */
    public ProbeRunner(ProcessRunner runner, List<String> javaCommand) {
        this.runner = runner;
        this.javaCommand = List.copyOf(javaCommand);
    }

    /** This JVM's own java executable and class path: works from the jar and from the tests. */
    public static List<String> currentJava() {
        String sep = File.separator;
        String exe = ProcessHandle.current().info().command()
                .orElse(System.getProperty("java.home") + sep + "bin" + sep + "java");
        String cp = System.getProperty("java.class.path");
        List<String> cmd = new ArrayList<>(List.of(exe, "-Xss1m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        cmd.addAll(crashOptions(CrashFolder.forThisProcess()));
        // The build leaves a class-data archive of the probe next to the jar: a faster start.
        if (cp.endsWith(".jar") && !cp.contains(File.pathSeparator)) {
            Path jsa = FileSystems.getDefault().getPath(cp).resolveSibling("cudnn-probe.jsa");
            if (Files.isRegularFile(jsa)) {
                cmd.addAll(List.of("-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
            }
        }
        cmd.addAll(List.of("-cp", cp));
        return cmd;
    }

    /**
     * #32 item 3: the report goes into the tool's private folder ({@link CrashFolder}); with none safe to
     * use (null) it is turned off: the JVM writes it to the child's standard error, which is read, not kept.
     */
    static List<String> crashOptions(Path privateFolder) {
        return privateFolder == null ? List.of("-XX:+ErrorFileToStderr", "-XX:-CreateCoredumpOnCrash")
                : crashOptions(privateFolder.toString());
    }

    /**
     * A crash inside a native library must leave nothing in the user's current folder: the JVM's
     * hs_err report goes to the given folder and no core file is written.
     */
    static List<String> crashOptions(String tempDir) {
        String sep = File.separator;
        String dir = tempDir == null || tempDir.isBlank() ? "." : tempDir;
        return List.of("-XX:ErrorFile=" + (dir.endsWith(sep) ? dir : dir + sep) + "cudnn-probe-hs_err_pid%p.log",
                "-XX:-CreateCoredumpOnCrash");
    }

    /**
     * Starts the child now, so its JVM and JNA start-up overlap the caller's own; the next
     * {@link #probe} hands it the arguments. {@link #close} ends it if it was not needed.
     */
    public synchronized void warmUp() {
        if (warm == null) {
            List<String> cmd = new ArrayList<>(javaCommand);
            cmd.add(ProbeMain.class.getName());
            cmd.add("--stdin");
            warm = runner.start(cmd);
        }
    }

    public synchronized void close() {
        if (warm != null) {
            warm.cancel();
            warm = null;
        }
    }

    @Override
    public void beforeJoin() {
        warmUpParser();
    }

    /**
     * @param library the main library by absolute path
     * @param bareName the name programs load it by (libcudnn.so.9, cudnn64_9.dll)
     * @param subLibraries each sub-library by absolute path
     */
    @Override
    public ProbeResult probe(Path library, String bareName, List<Path> subLibraries) {
        List<String> args = new ArrayList<>();
        args.add("--library");
        args.add(library.toString());
        if (bareName != null) {
            args.add("--name");
            args.add(bareName);
        }
        for (Path s : subLibraries) {
            args.add("--sub");
            args.add(s.toString());
        }
        ProcessRunner.Started started;
        synchronized (this) {
            started = warm;
            warm = null;
        }
        ProbeResult first = started != null
                ? parse(library.toString(), started.finish(String.join("\n", args) + "\n", TIMEOUT))
                : parse(library.toString(), runner.run(command(args), TIMEOUT));
        if (!first.crashed() || subLibraries.isEmpty()) {
            return first;
        }
        // The program-like child died inside cuDNN or the loader: the dispatcher aborts on a sub-library it cannot
        // load without naming why, and a damaged file kills the child while mapped unannounced. A second child
        // loads each sub-library by path first, so the loader's own error or the crash names the file.
        List<String> again = new ArrayList<>(args);
        again.addAll(List.of("--order", ProbeMain.ORDER_SUBS_FIRST));
        ProbeResult second = parse(library.toString(), runner.run(command(again), TIMEOUT));
        boolean names = second.subLibraries().stream().anyMatch(s -> !s.loaded())
                || second.crash() != null && second.crash().loading() != null;
        return names ? second : first;
    }

    private List<String> command(List<String> args) {
        List<String> cmd = new ArrayList<>(javaCommand);
        cmd.add(ProbeMain.class.getName());
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Which running programs hold these files open (Windows Restart Manager, in a child process).
     * Returns "name (pid N)" texts; empty when none are named or the child fails.
     */
    public List<String> holders(List<Path> files) {
        List<String> cmd = new ArrayList<>(javaCommand);
        cmd.add(HolderMain.class.getName());
        files.forEach(f -> cmd.add(f.toString()));
        ProcessResult r = runner.run(cmd, Duration.ofSeconds(15));
        List<String> out = new ArrayList<>();
        if (!r.ok()) {
            return out;
        }
        try (JsonParser p = JSON.createParser(r.out().strip())) {
            String name = null;
            Long pid = null;
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.FIELD_NAME && p.currentName().equals("name")) {
                    p.nextToken();
                    name = p.getText();
                } else if (t == JsonToken.FIELD_NAME && p.currentName().equals("pid")) {
                    p.nextToken();
                    pid = p.getLongValue();
                } else if (t == JsonToken.END_OBJECT && pid != null) {
                    out.add((name == null || name.isBlank() ? "a program" : name) + " (pid " + pid + ")");
                    name = null;
                    pid = null;
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of(); // a garbled answer names nobody; the files are still named
        }
        return out;
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
        boolean stepTimedOut = false;
        String loading = null;
        List<ProbeResult.SubLibrary> subs = new ArrayList<>();
        List<ProbeResult.VersionCheck> checks = new ArrayList<>();
        List<ProbeResult.Mapped> mapped = new ArrayList<>();
        for (String line : r.out().split("\\R")) {
            if (!line.startsWith("{")) {
                continue;
            }
            Event e = Event.parse(line);
            if (e == null) {
                continue; // garbage from a dying process is not evidence
            }
            ProbeEvent type = ProbeEvent.fromWire(e.text("event"));
            if (type != ProbeEvent.LOADING && type != ProbeEvent.CALLING) {
                loading = null; // any answer after a "loading" line means the mapping itself survived
            }
            if (type == null) {
                continue; // an event this side does not know
            }
            switch (type) {
                case LOADING -> loading = text(e, "path");
                case BY_NAME -> {
                    byName = text(e, "loadedPath");
                    byNameError = text(e, "error");
                }
                case SUB_LIBRARY -> subs.add(new ProbeResult.SubLibrary(text(e, "path"), e.bool("loaded"),
                        text(e, "error"), e.number("errorCode") == null ? null : e.number("errorCode").intValue()));
                case MAIN_LOAD_FAILED, NOT_CUDNN -> loadError = text(e, "error");
                case MAIN_LOADED -> loaded = text(e, "loadedPath");
                case CALLING -> lastCall = text(e, "function");
                case VERSION -> version = e.number("value");
                case CUDART_VERSION -> cudart = e.number("value");
                case PROPERTIES -> props = List.of(e.integer("major"), e.integer("minor"), e.integer("patch"));
                case MAX_DEVICE_VERSION -> maxDev = e.number("value");
                case HANDLE -> {
                    handle = e.number("status") == null ? null : e.number("status").intValue();
                    handleName = text(e, "statusName");
                }
                case VERSION_CHECK -> {
                    if (text(e, "function") != null && e.number("status") != null) {
                        checks.add(new ProbeResult.VersionCheck(text(e, "function"), e.number("status").intValue(),
                                text(e, "statusName")));
                    }
                }
                case MAPPED -> {
                    if (text(e, "path") != null) {
                        mapped.add(new ProbeResult.Mapped(text(e, "path"), text(e, "version")));
                    }
                }
                case STEP_TIMED_OUT -> stepTimedOut = true;
                case DONE -> done = true;
            }
        }
        String versionString = version == null || version <= 0 ? null : CudnnVersion.fromApiNumber(version).toString();
        String cudartString = cudart == null || cudart <= 0 ? null : CudaVersion.fromCudartNumber(cudart).toString();
        boolean timedOut = r.timedOut() || stepTimedOut && !done; // the whole child, or one step past its own limit
        boolean crashed = !timedOut && (!r.started() || !done || r.exitCode() != 0);
        String tail = r.started() ? r.tail(4) : r.startFailure();
        ProbeResult.Crash crash = crashed && r.started() ? crash(r, loading) : null;
        if (crash != null && crash.frame() != null) {
            tail = crash.signal() + " in " + crash.frame(); // not the JVM's crash boilerplate
        }
        return new ProbeResult(new ProbeResult.Load(library, loaded, byName, byNameError, subs, loadError),
                new ProbeResult.Versions(version, versionString, cudart, cudartString, props, maxDev),
                new ProbeResult.Handle(handle, handleName),
                new ProbeResult.Ending(r.started() && !timedOut ? r.exitCode() : null, crashed, timedOut,
                        done ? null : lastCall, crashed || timedOut ? tail : null, crash),
                new ProbeResult.Program(checks, mapped));
    }

    private static final Pattern SIGNAL = Pattern.compile(
            "#\\s+(SIG[A-Z]+|EXCEPTION_[A-Z_]+) \\(0x[0-9a-fA-F]+\\)");
    private static final Pattern FRAME = Pattern.compile(
            "# Problematic frame:\\R#\\s*(.+)");
    private static final Pattern LOG = Pattern.compile(
            "# An error report file with more information is saved as:\\R#\\s*(\\S.*)");

    /**
     * Reads the JVM's fatal-error banner (it goes to standard output): the signal and the
     * problematic frame. No banner and exit 134 means a plain abort() (cuDNN's own, with its
     * message on standard error): signal SIGABRT, no frame.
     */
    static ProbeResult.Crash crash(ProcessResult r, String loading) {
        String text = r.out() + "\n" + r.err();
        Matcher s = SIGNAL.matcher(text);
        Matcher f = FRAME.matcher(text);
        Matcher l = LOG.matcher(text);
        String signal = s.find() ? s.group(1) : r.exitCode() == 134 ? "SIGABRT" : r.exitCode() == 139 ? "SIGSEGV"
                : r.exitCode() == 135 ? "SIGBUS" : null;
        String frame = f.find() ? f.group(1).strip() : null;
        String log = l.find() ? l.group(1).strip() : null;
        if (signal == null && loading == null) {
            return null;
        }
        return new ProbeResult.Crash(signal, frame, loading, log);
    }

    private static String text(Event e, String field) {
        return e.text(field);
    }

    /** One flat event object: string, number and boolean fields. */
    private record Event(Map<String, Object> fields) {
        static Event parse(String line) {
            Map<String, Object> m = new HashMap<>();
            try (JsonParser p = JSON.createParser(line)) {
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    return null;
                }
                JsonToken t;
                while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken v = p.nextToken();
                    switch (v) {
                        case VALUE_STRING -> m.put(name, p.getText());
                        case VALUE_NUMBER_INT -> m.put(name, p.getLongValue());
                        case VALUE_TRUE, VALUE_FALSE -> m.put(name, v == JsonToken.VALUE_TRUE);
                        case VALUE_NULL -> m.put(name, null);
                        default -> p.skipChildren();
                    }
                }
                return t == JsonToken.END_OBJECT ? new Event(m) : null;
            } catch (IOException | RuntimeException ex) {
                return null;
            }
        }

        String text(String f) {
            Object v = fields.get(f);
            return v == null ? null : v.toString();
        }

        Long number(String f) {
            return fields.get(f) instanceof Long l ? l : null;
        }

        int integer(String f) {
            Long l = number(f);
            return l == null ? -1 : l.intValue();
        }

        boolean bool(String f) {
            return Boolean.TRUE.equals(fields.get(f));
        }
    }
}
