package dev.cudnntool.probe;
import com.sun.jna.Function;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.WString;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The operating system's own loader, called directly (dlopen/dlsym/dladdr on Linux,
 * LoadLibraryExW/GetProcAddress/GetModuleFileNameW on Windows) so the probe sees the loader's
 * real error text and the absolute file it chose. Runs only in the probe's child process.
 */
interface NativeLoader {
    /** A loaded module, or the loader's error (with the Windows error code where there is one). */
    record Opened(Pointer handle, String error, Integer errorCode) {
        boolean ok() {
            return handle != null;
        }
    }

    /** @param resolveNow bind every symbol now (RTLD_NOW), so a missing one fails here, not later */
    Opened open(String pathOrName, boolean byPath, boolean resolveNow);

    Pointer symbol(Pointer handle, String name);

    /** The absolute file the loaded module came from. */
    String fileOf(Pointer handle, Pointer someSymbol);

    void close(Pointer handle);

    /**
     * The files the loader has mapped into this process, as the operating system lists them (Linux:
     * {@code /proc/self/maps}; Windows: the process's modules, {@code EnumProcessModules} and each module's
     * file), or null where this loader cannot list them (the probe then says nothing of what was mapped).
     */
    default List<String> mappedFiles() {
        return null;
    }

    /**
     * A mapped library's own version, read from the version symbol it exports ({@link SubLibraryVersion}), or
     * null when it exports none or is not mapped.
     */
    default String ownVersion(String path) {
        return null;
    }

    /**
     * Makes {@code folder} a folder of this process's own library search path, as a program started with it on
     * its search path would have it; answers whether the path was changed. Only Windows needs it (below).
     */
    default boolean searchFolder(String folder) {
        return false;
    }

    static NativeLoader forThisPlatform() {
        return Platform.isWindows() ? new Windows() : new Posix();
    }

    /**
     * Whether two names the loader gave are one file: a library found through an empty search-path entry is
     * named relative to the current folder ("libcudnn_ops.so.9.5.1") where /proc/self/maps names it absolutely.
     */
    static boolean sameFile(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        try {
            return a.equals(b) || Files.isSameFile(Path.of(a), Path.of(b));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    static Function function(Pointer p) {
        return Function.getFunction(p);
    }

    final class Posix implements NativeLoader {
        static final int RTLD_LAZY = 1;
        static final int RTLD_NOW = 2;
        static final int RTLD_NOLOAD = 4;
        /** At most this much of /proc/self/maps is read (a JVM's maps is some hundred KiB). */
        static final int MAPS_LIMIT = 16 << 20;

        public interface Dl extends Library {
            Pointer dlopen(String file, int mode);

            Pointer dlsym(Pointer handle, String name);

            String dlerror();

            int dlclose(Pointer handle);

            int dladdr(Pointer addr, DlInfo info);
        }

        @Structure.FieldOrder({"dli_fname", "dli_fbase", "dli_sname", "dli_saddr"})
        public static class DlInfo extends Structure {
            public String dli_fname;
            public Pointer dli_fbase;
            public String dli_sname;
            public Pointer dli_saddr;
        }

        private final Dl dl = load();

        Posix() {
            // JNA binds each function on its first call, and that binding clobbers the message of
            // the dlerror that follows the first dlopen. One throw-away failure gets it over with.
            // Measured with JNA 5.15 on glibc: the first two failures read garbage, later ones are clean.
            for (int i = 0; i < 2; i++) {
                dl.dlopen("libcudnn-tool-warm-up.so.0", RTLD_LAZY);
                dl.dlerror();
            }
        }

        /** dlerror's text, or a plain statement when what came back is not readable text. */
        private String lastError() {
            String e = dl.dlerror();
            if (e == null || e.isBlank() || !e.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
                return "the loader refused it (no readable reason given)";
            }
            return e;
        }

        private static Dl load() {
            try {
                return Native.load("c", Dl.class);
            } catch (UnsatisfiedLinkError e) {
                return Native.load("dl", Dl.class); // glibc before 2.34 keeps dlopen in libdl
            }
        }

        @Override
        public Opened open(String pathOrName, boolean byPath, boolean resolveNow) {
            dl.dlerror();
            Pointer h = dl.dlopen(pathOrName, resolveNow ? RTLD_NOW : RTLD_LAZY);
            return h == null ? new Opened(null, lastError(), null) : new Opened(h, null, null);
        }

        @Override
        public Pointer symbol(Pointer handle, String name) {
            return dl.dlsym(handle, name);
        }

        @Override
        public String fileOf(Pointer handle, Pointer someSymbol) {
            DlInfo info = new DlInfo();
            return someSymbol != null && dl.dladdr(someSymbol, info) != 0 ? info.dli_fname : null;
        }

        @Override
        public void close(Pointer handle) {
            dl.dlclose(handle);
        }

        @Override
        public List<String> mappedFiles() {
            try (InputStream in = Files.newInputStream(Path.of("/proc/self/maps"))) {
                return MappedFiles.parse(new String(in.readNBytes(MAPS_LIMIT), StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                return null; // no /proc: nothing can be said of what was mapped
            }
        }

        @Override
        public String ownVersion(String path) {
            Pointer h = dl.dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
            if (h == null) {
                dl.dlerror();
                return null;
            }
            try {
                for (String symbol : SubLibraryVersion.SYMBOLS) {
                    Pointer p = dl.dlsym(h, symbol);
                    // dlsym with a handle searches the library's dependencies too: the symbol must be this file's own
                    if (p != null && sameFile(path, fileOf(h, p))) {
                        return SubLibraryVersion.decode(p.getInt(0));
                    }
                }
                return null;
            } finally {
                dl.dlclose(h);
            }
        }
    }

    final class Windows implements NativeLoader {
        static final int LOAD_WITH_ALTERED_SEARCH_PATH = 0x8;
        /** At most this many modules are listed (a JVM with cuDNN loaded has some 60). */
        static final int MODULES_LIMIT = 4096;
        /** The longest path Windows has (UNICODE_STRING's limit), in UTF-16 units. */
        static final int PATH_LIMIT = 32767;

        public interface Kernel32 extends Library {
            Pointer LoadLibraryExW(WString name, Pointer reserved, int flags);

            Pointer GetProcAddress(Pointer module, String name);

            int GetModuleFileNameW(Pointer module, char[] buffer, int size);

            boolean GetModuleHandleExW(int flags, Pointer address, PointerByReference module);

            boolean FreeLibrary(Pointer module);

            Pointer GetCurrentProcess();

            Pointer GetModuleHandleW(WString name);

            int GetEnvironmentVariableW(WString name, char[] buffer, int size);

            boolean SetEnvironmentVariableW(WString name, WString value);
        }

        /** The process's module list (psapi.dll; kernel32's K32EnumProcessModules behind it on Windows 7 and later). */
        public interface Psapi extends Library {
            boolean EnumProcessModules(Pointer process, Pointer modules, int bytes, IntByReference needed);

            int GetModuleFileNameExW(Pointer process, Pointer module, char[] buffer, int size);
        }

        private static final Map<String, Object> OPTIONS = Map.of(Library.OPTION_CALLING_CONVENTION, Function.C_CONVENTION);
        private final Kernel32 k = Native.load("kernel32", Kernel32.class, OPTIONS);
        private Psapi psapi;

        @Override
        public Opened open(String pathOrName, boolean byPath, boolean resolveNow) {
            Pointer h = k.LoadLibraryExW(new WString(pathOrName), null, byPath ? LOAD_WITH_ALTERED_SEARCH_PATH : 0);
            if (h != null) {
                return new Opened(h, null, null);
            }
            int code = Native.getLastError();
            return new Opened(null, windowsError(code), code);
        }

        static String windowsError(int code) {
            return switch (code) {
                case 126 -> "error 126: the module or one of its dependencies was not found";
                case 127 -> "error 127: a procedure was not found (DLLs from different cuDNN releases mixed)";
                case 193 -> "error 193: not a valid Win32 application (wrong architecture, e.g. a 32-bit DLL)";
                default -> "error " + code;
            };
        }

        @Override
        public Pointer symbol(Pointer handle, String name) {
            return k.GetProcAddress(handle, name);
        }

        @Override
        public String fileOf(Pointer handle, Pointer someSymbol) {
            char[] buf = new char[32768];
            int n = k.GetModuleFileNameW(handle, buf, buf.length);
            return n > 0 ? new String(buf, 0, n) : null;
        }

        @Override
        public void close(Pointer handle) {
            k.FreeLibrary(handle);
        }

        /**
         * The files of this process's modules, in the loader's order, through EnumProcessModules and
         * GetModuleFileNameExW: at most {@link #MODULES_LIMIT}, each name checked ({@link MappedFiles#windowsPath}).
         */
        @Override
        public List<String> mappedFiles() {
            try {
                if (psapi == null) {
                    psapi = Native.load("psapi", Psapi.class, OPTIONS);
                }
                Pointer self = k.GetCurrentProcess();
                Memory modules = new Memory((long) MODULES_LIMIT * Native.POINTER_SIZE);
                IntByReference needed = new IntByReference();
                if (!psapi.EnumProcessModules(self, modules, (int) modules.size(), needed)) {
                    return null;
                }
                int count = Math.min(Math.max(needed.getValue(), 0) / Native.POINTER_SIZE, MODULES_LIMIT);
                List<String> names = new ArrayList<>();
                char[] buf = new char[PATH_LIMIT + 1];
                for (int i = 0; i < count; i++) {
                    Pointer module = modules.getPointer((long) i * Native.POINTER_SIZE);
                    int n = module == null ? 0 : psapi.GetModuleFileNameExW(self, module, buf, buf.length);
                    if (n > 0 && n < buf.length) {
                        names.add(new String(buf, 0, n));
                    }
                }
                return MappedFiles.windowsModules(names);
            } catch (UnsatisfiedLinkError | RuntimeException e) {
                return null; // no psapi: nothing can be said of what was mapped
            }
        }

        /** The module's own version symbol: GetProcAddress looks in that module's exports only. */
        @Override
        public String ownVersion(String path) {
            Pointer h = k.GetModuleHandleW(new WString(path));
            if (h == null) {
                return null;
            }
            for (String symbol : SubLibraryVersion.SYMBOLS) {
                Pointer p = k.GetProcAddress(h, symbol);
                if (p != null) {
                    return SubLibraryVersion.decode(p.getInt(0));
                }
            }
            return null;
        }

        /**
         * A program loading cudnn64_9.dll by name gets its sub-libraries through the DLL search order (the
         * program's folder, System32, the Windows folder, the current folder, then PATH), not from the main DLL's
         * folder. With the folder already on PATH, PATH stays as it is: the child sees what the user's programs
         * see. Without, the folder is appended to this process's PATH, as {@code cudnn install --add-to-path} and
         * NVIDIA's guide put it: the child sees what programs will get once it is on PATH (a sub-library in
         * System32, or in a PATH folder, still wins), and cuDNN 8's dispatcher, which finds nothing from a folder
         * off PATH (seen under Wine), can answer.
         */
        @Override
        public boolean searchFolder(String folder) {
            char[] buf = new char[PATH_LIMIT + 1];
            int n = k.GetEnvironmentVariableW(new WString("PATH"), buf, buf.length);
            String path = n > 0 && n < buf.length ? new String(buf, 0, n) : "";
            if (MappedFiles.onWindowsPath(path, folder)) {
                return false;
            }
            String changed = path.isEmpty() ? folder : path.endsWith(";") ? path + folder : path + ";" + folder;
            return changed.length() <= PATH_LIMIT && k.SetEnvironmentVariableW(new WString("PATH"), new WString(changed));
        }
    }

}
