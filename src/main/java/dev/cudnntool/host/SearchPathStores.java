package dev.cudnntool.host;

import java.util.List;
import java.util.Map;

/** The search-path store for a host: the registry on Windows, /etc/ld.so.conf.d elsewhere. */
public final class SearchPathStores {
    private SearchPathStores() {
    }

    public static SearchPathStore forHost(Host host) {
        return host.windows() && host.fs() == java.nio.file.FileSystems.getDefault()
                ? new WindowsRegistryPathStore(host.env()) : new LdSoConfPathStore(host);
    }

    /**
     * This process's environment; on Windows with the user's and the machine's Path from the
     * registry appended (what a new terminal would get), since the running shell's may be stale.
     */
    public static Map<String, String> systemEnvironment(boolean windows) {
        Map<String, String> env = System.getenv();
        if (!windows) {
            return env;
        }
        try {
            List<String> persistent = new WindowsRegistryPathStore(env).persistentEntries();
            return SearchPathEntries.withPersistentPath(env, persistent);
        } catch (RuntimeException | LinkageError e) {
            return env; // no registry to read: the process environment as it is
        }
    }
}
