package dev.cudnntool.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The probe's child process. Prints one JSON object per line, flushed at once, so that whatever
 * it learned survives if cuDNN aborts the process halfway (a missing sub-library makes cuDNN call
 * abort()). Arguments: --library ABS_PATH --name BARE_NAME [--sub ABS_PATH]..., or --stdin and the
 * same arguments one per line on standard input.
 */
public final class ProbeMain {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static PrintStream out;

    private ProbeMain() {
    }

    public static void main(String[] args) throws java.io.IOException {
        out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
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
        List<String> subs = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--library" -> library = args[i + 1];
                case "--name" -> name = args[i + 1];
                case "--sub" -> subs.add(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (name != null) {
            byName(loader, name);
        }
        loadSubLibraries(loader, subs);
        announce(library);
        NativeLoader.Opened main = loader.open(library, true, false);
        if (!main.ok()) {
            ObjectNode e = event("mainLoadFailed").put("path", library).put("error", main.error());
            if (main.errorCode() != null) {
                e.put("errorCode", main.errorCode());
            }
            emit(e);
            emit(event("done"));
            return;
        }
        Pointer getVersion = loader.symbol(main.handle(), "cudnnGetVersion");
        emit(event("mainLoaded").put("path", library).put("loadedPath", loader.fileOf(main.handle(), getVersion)));
        if (getVersion == null) {
            emit(event("notCudnn").put("error", "the library has no cudnnGetVersion"));
            emit(event("done"));
            return;
        }
        emit(event("calling").put("function", "cudnnGetVersion"));
        long version = NativeLoader.function(getVersion).invokeLong(new Object[0]);
        emit(event("version").put("value", version));
        Pointer cudart = loader.symbol(main.handle(), "cudnnGetCudartVersion");
        if (cudart != null) {
            emit(event("cudartVersion").put("value", NativeLoader.function(cudart).invokeLong(new Object[0])));
        }
        Pointer prop = loader.symbol(main.handle(), "cudnnGetProperty");
        if (prop != null) {
            ObjectNode e = event("properties");
            String[] names = {"major", "minor", "patch"};
            for (int i = 0; i < 3; i++) {
                Memory value = new Memory(4);
                value.setInt(0, -1);
                int status = NativeLoader.function(prop).invokeInt(new Object[] {i, value});
                e.put(names[i], status == 0 ? value.getInt(0) : -1);
            }
            emit(e);
        }
        Pointer maxDev = loader.symbol(main.handle(), "cudnnGetMaxDeviceVersion");
        if (maxDev != null) {
            emit(event("maxDeviceVersion").put("value", NativeLoader.function(maxDev).invokeLong(new Object[0])));
        }
        Pointer create = loader.symbol(main.handle(), "cudnnCreate");
        if (create != null) {
            emit(event("calling").put("function", "cudnnCreate"));
            Memory handle = new Memory(8);
            handle.setLong(0, 0);
            int status = NativeLoader.function(create).invokeInt(new Object[] {handle});
            ObjectNode e = event("handle").put("status", status);
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
        }
        emit(event("done"));
    }

    /**
     * Loads each sub-library on its own with every symbol bound now. They need each other
     * (cnn_infer needs ops_infer) and only the main library carries RUNPATH $ORIGIN, so the loader
     * finds a sibling only once it is loaded: retry in passes until a pass loads nothing new.
     * What still fails then fails for a reason of its own (missing, wrong release, wrong arch).
     */
    private static void loadSubLibraries(NativeLoader loader, List<String> subs) {
        List<String> left = new ArrayList<>(subs);
        java.util.Map<String, NativeLoader.Opened> last = new java.util.HashMap<>();
        boolean progress = true;
        while (!left.isEmpty() && progress) {
            progress = false;
            for (java.util.Iterator<String> it = left.iterator(); it.hasNext(); ) {
                String sub = it.next();
                announce(sub);
                NativeLoader.Opened o = loader.open(sub, true, true);
                last.put(sub, o);
                if (o.ok()) {
                    emit(event("subLibrary").put("path", sub).put("loaded", true));
                    it.remove();
                    progress = true;
                }
            }
        }
        for (String sub : left) {
            NativeLoader.Opened o = last.get(sub);
            ObjectNode e = event("subLibrary").put("path", sub).put("loaded", false).put("error", o.error());
            if (o.errorCode() != null) {
                e.put("errorCode", o.errorCode());
            }
            emit(e);
        }
    }

    /** Loads by bare name through the ordinary search, notes which file won, and unloads it again. */
    private static void byName(NativeLoader loader, String name) {
        announce(name);
        NativeLoader.Opened o = loader.open(name, false, false);
        if (!o.ok()) {
            emit(event("byName").put("name", name).put("error", o.error()));
            return;
        }
        Pointer sym = loader.symbol(o.handle(), "cudnnGetVersion");
        emit(event("byName").put("name", name).put("loadedPath", loader.fileOf(o.handle(), sym)));
        loader.close(o.handle());
    }

    /**
     * Says which file the loader is about to map, before it does: a damaged file kills the process
     * inside the loader (SIGBUS), and this line is then the only word of which file it was.
     */
    private static void announce(String pathOrName) {
        emit(event("loading").put("path", pathOrName));
    }

    private static ObjectNode event(String type) {
        return JSON.createObjectNode().put("event", type);
    }

    private static void emit(ObjectNode e) {
        out.println(e.toString());
        out.flush();
    }
}
