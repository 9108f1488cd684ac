package dev.cudnntool.host.searchpath;

import dev.cudnntool.host.Host;
import java.util.List;
import java.util.Map;

/** The search-path store for a host: the registry on Windows, /etc/ld.so.conf.d elsewhere. */
public final class SearchPathStores {
    private SearchPathStores() {
    }

    public static SearchPathStore forHost(Host host) {
        if (!host.windows()) {
            return new LdSoConfPathStore(host);
        }
        return host.fs() == java.nio.file.FileSystems.getDefault() ? new WindowsRegistryPathStore(host.env()) : NO_REGISTRY;
    }

    /** A Windows host on another file system (a test's): there is no registry to write. */
    static final SearchPathStore NO_REGISTRY = new SearchPathStore() {
        @Override
        public String location(Scope scope, String installId) {
            return (scope == Scope.MACHINE ? "HKLM\\" + WindowsRegistryPathStore.MACHINE_KEY : "HKCU\\Environment") + "\\Path";
        }

        @Override
        public Raw read(Scope scope, String installId) {
            return null;
        }

        @Override
        public void write(Scope scope, String installId, Raw value) throws java.io.IOException {
            throw new java.io.IOException("there is no Windows registry on this machine");
        }

        @Override
        public String cannotWrite(Scope scope) {
            return "there is no Windows registry on this machine to write " + location(scope, null);
        }

        @Override
        public void announce() {
            // nobody to tell
        }

        @Override
        public List<String> persistentEntries() {
            return List.of();
        }
    };

    /**
     * This process's environment; on Windows with the user's and the machine's Path from the
     * registry appended (what a new terminal would get), since the running shell's may be stale.
     */
    /**
     * Keys of the host environment under which Windows hosts also carry the registry's user and
     * machine Path (expanded, ';'-separated, starting with ';' so that an empty value still says the
     * registry was read), so diagnosis can say which variable holds an entry.
     * Not real environment variables; nothing is ever passed on to a child under these names.
     */
    public static final String USER_PATH = "cudnn-tool:user-Path";
    public static final String MACHINE_PATH = "cudnn-tool:machine-Path";

    public static Map<String, String> systemEnvironment(boolean windows) {
        Map<String, String> env = System.getenv();
        if (!windows) {
            return env;
        }
        try {
            WindowsRegistryPathStore store = new WindowsRegistryPathStore(env);
            Map<String, String> out = new java.util.HashMap<>(SearchPathEntries.withPersistentPath(env, store.persistentEntries()));
            out.put(USER_PATH, ";" + String.join(";", store.entries(SearchPathStore.Scope.USER)));
            out.put(MACHINE_PATH, ";" + String.join(";", store.entries(SearchPathStore.Scope.MACHINE)));
            return out;
        } catch (RuntimeException | LinkageError e) {
            return env; // no registry to read: the process environment as it is
        }
    }
}
