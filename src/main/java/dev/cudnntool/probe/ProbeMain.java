package dev.cudnntool.probe;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Timer;
import java.util.TimerTask;

/**
 * The probe's child process. Prints one JSON object per line ({@link ProbeEvent}), flushed at once, so that
 * whatever it learned survives if cuDNN aborts the process halfway (a missing sub-library makes cuDNN call
 * abort()). Arguments: --library ABS_PATH --name BARE_NAME [--sub ABS_PATH]..., or --stdin and the
 * same arguments one per line on standard input.
 *
 * <p>The work is a list of {@link Step steps} ({@link #steps}), each with its own time limit: a step that
 * runs past it is said ({@link ProbeEvent#STEP_TIMED_OUT}) and the child ends at once
 * ({@link #EXIT_STEP_TIMED_OUT}), well before the parent's limit for the whole child ({@link ProbeRunner#TIMEOUT}).
 * A step that finds nothing more can follow (the library did not load, or is not cuDNN) ends the list.
 */
public final class ProbeMain {
    /** The child's exit status after a step ran past its time limit. */
    static final int EXIT_STEP_TIMED_OUT = 124;
    /** {@code --order}: the program-like order ({@link #steps}), the default. */
    static final String ORDER_PROGRAM = "program";
    /** {@code --order}: the sub-libraries by path first ({@link #subLibrariesFirst}). */
    static final String ORDER_SUBS_FIRST = "subs-first";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static PrintStream out;

    /** One step of the child: its name, its own time limit, and its work (false: nothing after it can run). */
    record Step(String name, Duration timeout, Work work) {
    }

    /** A step's work. */
    @FunctionalInterface
    interface Work {
        boolean run();
    }

    private final NativeLoader loader;
    private final String library;
    private final String name;
    private final List<String> subs;
    private NativeLoader.Opened main;
    private Set<String> mappedPaths = Set.of();

    ProbeMain(NativeLoader loader, String library, String name, List<String> subs) {
        this.loader = loader;
        this.library = library;
        this.name = name;
        this.subs = subs;
    }

    public static void main(String[] args) throws IOException {
        out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        NativeLoader loader = NativeLoader.forThisPlatform();
        if (args.length == 1 && args[0].equals("--stdin")) {
            // Started early and warmed up (JVM, JNA): the arguments follow on standard input,
            // one per line; nothing at all means the probe is not needed after all.
            String text = new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
            if (text.isBlank()) {
                return;
            }
            args = text.strip().split("\\R");
        }
        String library = null;
        String name = null;
        String order = ORDER_PROGRAM;
        List<String> subs = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--library" -> library = args[i + 1];
                case "--name" -> name = args[i + 1];
                case "--sub" -> subs.add(args[i + 1]);
                case "--order" -> order = args[i + 1];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        ProbeMain probe = new ProbeMain(loader, library, name, subs);
        boolean windows = System.getProperty("os.name", "").startsWith("Windows");
        run(ORDER_SUBS_FIRST.equals(order) ? probe.subLibrariesFirst() : windows ? probe.windowsSteps() : probe.steps());
        emit(event(ProbeEvent.DONE));
    }

    /**
     * cuDNN's own per-sub-library version checks, exported by the main library (nm -D of the real 9.5.1, 9.24
     * and 8.9.7); each makes the dispatcher load its sub-library by name, as a program's first call would.
     * Without a GPU a matching copy answers 0 to each (measured with 9.5.1, 9.24.0 and 8.9.7); 9.24's ops library
     * under 9.5.1's name makes ops, cnn and adv answer 1002 (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH).
     * A library that lacks one (9.5.1 has no cudnnSubquadraticOpsVersionCheck) is not asked.
     */
    static final List<String> VERSION_CHECKS = List.of("cudnnGraphVersionCheck", "cudnnOpsVersionCheck",
            "cudnnCnnVersionCheck", "cudnnAdvVersionCheck", "cudnnSubquadraticOpsVersionCheck",
            "cudnnOpsInferVersionCheck", "cudnnOpsTrainVersionCheck", "cudnnCnnInferVersionCheck",
            "cudnnCnnTrainVersionCheck", "cudnnAdvInferVersionCheck", "cudnnAdvTrainVersionCheck");

    /**
     * The child's steps in order; a cuDNN call that computes something would follow the handle. Only the main
     * library is loaded before cuDNN is called, by path as a program links it: its sub-libraries come the way a
     * program gets them (the dispatcher loads them by name: LD_LIBRARY_PATH, then its RUNPATH $ORIGIN), and the
     * files the loader then mapped are listed. The sub-libraries given by path are loaded last, each on its own,
     * only to name a loader error in one the calls did not reach.
     */
    List<Step> steps() {
        return List.of(
                new Step("byName", Duration.ofSeconds(10), this::byName),
                new Step("loadMain", Duration.ofSeconds(10), this::loadMain),
                new Step("version", Duration.ofSeconds(5), this::version),
                new Step("cudartVersion", Duration.ofSeconds(5), () -> value("cudnnGetCudartVersion", ProbeEvent.CUDART_VERSION)),
                new Step("properties", Duration.ofSeconds(5), this::properties),
                new Step("maxDeviceVersion", Duration.ofSeconds(5),
                        () -> value("cudnnGetMaxDeviceVersion", ProbeEvent.MAX_DEVICE_VERSION)),
                new Step("versionChecks", Duration.ofSeconds(15), this::versionChecks),
                new Step("mapped", Duration.ofSeconds(5), this::mapped),
                new Step("handle", Duration.ofSeconds(20), this::handle),
                new Step("subLibraries", Duration.ofSeconds(15), this::loadSubLibraries));
    }

    /**
     * Windows: {@link #steps}, with the main library's folder made a folder of the child's own PATH first
     * ({@link NativeLoader#searchFolder}: left as it is when already there, else appended, as
     * {@code cudnn install --add-to-path} puts it), after the load by name, which must see the user's PATH as it
     * is. The dispatcher then gets its sub-libraries through the DLL search order as a program on that PATH does
     * (System32 and the Windows folder before PATH; the child's own folder is java.exe's, not the program's), and
     * the mapped step lists the process's modules, so one from another folder is named
     * ({@code cudnn.sublibrary-elsewhere}).
     */
    List<Step> windowsSteps() {
        List<Step> out = new ArrayList<>(steps());
        out.add(1, new Step("searchPath", Duration.ofSeconds(5), this::searchPath));
        return out;
    }

    private boolean searchPath() {
        int slash = library == null ? -1 : Math.max(library.lastIndexOf('\\'), library.lastIndexOf('/'));
        if (slash > 0) {
            loader.searchFolder(library.substring(0, slash));
        }
        return true;
    }

    /**
     * The order before #33 item 1, for a second child after the program-like one died inside cuDNN (the dispatcher
     * aborts on a sub-library it cannot load, and a damaged one kills the process inside the loader): each
     * sub-library loaded by path first, each announced, so the loader's own error or the crash names the file.
     */
    List<Step> subLibrariesFirst() {
        List<Step> out = new ArrayList<>();
        out.add(new Step("byName", Duration.ofSeconds(10), this::byName));
        out.add(new Step("subLibraries", Duration.ofSeconds(15), this::loadSubLibraries));
        out.add(new Step("loadMain", Duration.ofSeconds(10), this::loadMain));
        out.add(new Step("version", Duration.ofSeconds(5), this::version));
        return out;
    }

    private boolean versionChecks() {
        Pointer errString = loader.symbol(main.handle(), "cudnnGetErrorString");
        for (String function : VERSION_CHECKS) {
            Pointer f = loader.symbol(main.handle(), function);
            if (f == null) {
                continue;
            }
            emit(event(ProbeEvent.CALLING).put("function", function));
            int status = NativeLoader.function(f).invokeInt(new Object[0]);
            ObjectNode e = event(ProbeEvent.VERSION_CHECK).put("function", function).put("status", status);
            if (errString != null) {
                e.put("statusName", NativeLoader.function(errString).invokeString(new Object[] {status}, false));
            }
            emit(e);
        }
        return true;
    }

    /** The cuDNN files the loader has mapped by now, each with its own version where it exports one. */
    private boolean mapped() {
        List<String> files = loader.mappedFiles();
        if (files == null) {
            return true;
        }
        mappedPaths = new HashSet<>();
        for (String f : files) {
            if (MappedFiles.isCudnn(f)) {
                mappedPaths.add(f);
                ObjectNode e = event(ProbeEvent.MAPPED).put("path", f);
                String own = loader.ownVersion(f);
                if (own != null) {
                    e.put("version", own);
                }
                emit(e);
            }
        }
        return true;
    }

    /**
     * Runs {@code steps} in order, each under a watchdog that, past the step's limit, says so and ends the
     * process (a native call cannot be interrupted).
     */
    static void run(List<Step> steps) {
        Timer watchdog = new Timer("probe-watchdog", true);
        try {
            for (Step step : steps) {
                TimerTask limit = new TimerTask() {
                    @Override
                    public void run() {
                        emit(event(ProbeEvent.STEP_TIMED_OUT).put("step", step.name())
                                .put("seconds", step.timeout().toSeconds()));
                        Runtime.getRuntime().halt(EXIT_STEP_TIMED_OUT);
                    }
                };
                watchdog.schedule(limit, step.timeout().toMillis());
                boolean more = step.work().run();
                limit.cancel();
                if (!more) {
                    return;
                }
            }
        } finally {
            watchdog.cancel();
        }
    }

    private boolean loadMain() {
        announce(library);
        main = loader.open(library, true, false);
        if (!main.ok()) {
            ObjectNode e = event(ProbeEvent.MAIN_LOAD_FAILED).put("path", library).put("error", main.error());
            if (main.errorCode() != null) {
                e.put("errorCode", main.errorCode());
            }
            emit(e);
            return false;
        }
        Pointer getVersion = loader.symbol(main.handle(), "cudnnGetVersion");
        emit(event(ProbeEvent.MAIN_LOADED).put("path", library).put("loadedPath", loader.fileOf(main.handle(), getVersion)));
        if (getVersion == null) {
            emit(event(ProbeEvent.NOT_CUDNN).put("error", "the library has no cudnnGetVersion"));
            return false;
        }
        return true;
    }

    private boolean version() {
        emit(event(ProbeEvent.CALLING).put("function", "cudnnGetVersion"));
        long version = NativeLoader.function(loader.symbol(main.handle(), "cudnnGetVersion")).invokeLong(new Object[0]);
        emit(event(ProbeEvent.VERSION).put("value", version));
        return true;
    }

    /** A function of no arguments answering a number, said as {@code event}; nothing when the library lacks it. */
    private boolean value(String function, ProbeEvent event) {
        Pointer f = loader.symbol(main.handle(), function);
        if (f != null) {
            emit(event(event).put("value", NativeLoader.function(f).invokeLong(new Object[0])));
        }
        return true;
    }

    private boolean properties() {
        Pointer prop = loader.symbol(main.handle(), "cudnnGetProperty");
        if (prop != null) {
            ObjectNode e = event(ProbeEvent.PROPERTIES);
            String[] names = {"major", "minor", "patch"};
            for (int i = 0; i < 3; i++) {
                Memory value = new Memory(4);
                value.setInt(0, -1);
                int status = NativeLoader.function(prop).invokeInt(new Object[] {i, value});
                e.put(names[i], status == 0 ? value.getInt(0) : -1);
            }
            emit(e);
        }
        return true;
    }

    private boolean handle() {
        Pointer create = loader.symbol(main.handle(), "cudnnCreate");
        if (create == null) {
            return true;
        }
        emit(event(ProbeEvent.CALLING).put("function", "cudnnCreate"));
        Memory handle = new Memory(8);
        handle.setLong(0, 0);
        int status = NativeLoader.function(create).invokeInt(new Object[] {handle});
        ObjectNode e = event(ProbeEvent.HANDLE).put("status", status);
        Pointer errString = loader.symbol(main.handle(), "cudnnGetErrorString");
        if (errString != null) {
            e.put("statusName", NativeLoader.function(errString).invokeString(new Object[] {status}, false));
        }
        if (status == 0) {
            Pointer destroy = loader.symbol(main.handle(), "cudnnDestroy");
            if (destroy != null) {
                e.put("destroyStatus", NativeLoader.function(destroy).invokeInt(new Object[] {handle.getPointer(0)}));
            }
        }
        emit(e);
        return true;
    }

    private static String realPath(String path) {
        try {
            return Path.of(path).toRealPath().toString();
        } catch (IOException | RuntimeException e) {
            return path;
        }
    }

    /**
     * Loads each sub-library not mapped yet on its own with every symbol bound now. They need each other
     * (cnn_infer needs ops_infer) and only the main library carries RUNPATH $ORIGIN, so the loader
     * finds a sibling only once it is loaded: retry in passes until a pass loads nothing new.
     * What still fails then fails for a reason of its own (missing, wrong release, wrong arch).
     */
    private boolean loadSubLibraries() {
        List<String> left = new ArrayList<>();
        for (String sub : subs) {
            String real = realPath(sub);
            if (mappedPaths.contains(real) || mappedPaths.stream().anyMatch(m -> m.indexOf('\\') >= 0 && m.equalsIgnoreCase(real))) {
                emit(event(ProbeEvent.SUB_LIBRARY).put("path", sub).put("loaded", true)); // the calls above loaded it
            } else {
                left.add(sub);
            }
        }
        Map<String, NativeLoader.Opened> last = new HashMap<>();
        boolean progress = true;
        while (!left.isEmpty() && progress) {
            progress = false;
            for (Iterator<String> it = left.iterator(); it.hasNext(); ) {
                String sub = it.next();
                announce(sub);
                NativeLoader.Opened o = loader.open(sub, true, true);
                last.put(sub, o);
                if (o.ok()) {
                    emit(event(ProbeEvent.SUB_LIBRARY).put("path", sub).put("loaded", true));
                    it.remove();
                    progress = true;
                }
            }
        }
        for (String sub : left) {
            NativeLoader.Opened o = last.get(sub);
            ObjectNode e = event(ProbeEvent.SUB_LIBRARY).put("path", sub).put("loaded", false).put("error", o.error());
            if (o.errorCode() != null) {
                e.put("errorCode", o.errorCode());
            }
            emit(e);
        }
        return true;
    }

    /** Loads by bare name through the ordinary search, notes which file won, and unloads it again. */
    private boolean byName() {
        if (name == null) {
            return true;
        }
        announce(name);
        NativeLoader.Opened o = loader.open(name, false, false);
        if (!o.ok()) {
            emit(event(ProbeEvent.BY_NAME).put("name", name).put("error", o.error()));
            return true;
        }
        Pointer sym = loader.symbol(o.handle(), "cudnnGetVersion");
        emit(event(ProbeEvent.BY_NAME).put("name", name).put("loadedPath", loader.fileOf(o.handle(), sym)));
        loader.close(o.handle());
        return true;
    }

    /**
     * Says which file the loader is about to map, before it does: a damaged file kills the process
     * inside the loader (SIGBUS), and this line is then the only word of which file it was.
     */
    private static void announce(String pathOrName) {
        emit(event(ProbeEvent.LOADING).put("path", pathOrName));
    }

    private static ObjectNode event(ProbeEvent type) {
        return JSON.createObjectNode().put("event", type.wire());
    }

    private static void emit(ObjectNode e) {
        PrintStream o = out != null ? out : System.out;
        o.println(e.toString());
        o.flush();
    }
}
