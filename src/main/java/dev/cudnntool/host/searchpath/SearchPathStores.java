package dev.cudnntool.host.searchpath;
import dev.cudnntool.OsFamily;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.RegistryPath;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The search-path stores: the registry on Windows, /etc/ld.so.conf.d elsewhere. Which one a run
 * gets is decided by its wiring (the command line's {@link #system}), never by looking at the host.
 */
public final class SearchPathStores {
    private SearchPathStores() {
    }

    /** This machine's store, for the command line's wiring: the registry on Windows, ld.so.conf.d elsewhere. */
    public static SearchPathStore system(Host host) {
        return host.windows() ? new WindowsRegistryPathStore(host.env()) : new LdSoConfPathStore(host);
    }

    /**
     * The store of a host without a registry to write (a test's Windows machine): on Windows one
     * that reads nothing and refuses every write, elsewhere ld.so.conf.d.
     */
    public static SearchPathStore withoutRegistry(Host host) {
        return host.windows() ? NO_REGISTRY : new LdSoConfPathStore(host);
    }

    /** A Windows host with no registry: nothing to read, every write refused. */
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
        public void write(Scope scope, String installId, Raw value) throws IOException {
            throw new IOException("there is no Windows registry on this machine");
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
     * The registry's user and machine Path (entries expanded), read once for {@link #systemHost()}
     * on Windows; empty where there is no registry to read.
     */
    public static Optional<RegistryPath> readRegistryPath(Map<String, String> env) {
        try {
            WindowsRegistryPathStore store = new WindowsRegistryPathStore(env);
            return Optional.of(new RegistryPath(store.entries(SearchPathStore.Scope.USER),
                    store.entries(SearchPathStore.Scope.MACHINE)));
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty(); // no registry to read: the process environment as it is
        }
    }

    /**
     * This machine as the command line's entry point sees it. Windows: PATH as a new terminal gets it
     * (the registry's machine and user Path appended), and the registry's values kept on the host.
     */
    public static Host systemHost() {
        Map<String, String> env = System.getenv();
        Optional<RegistryPath> registry = Host.systemOs() == OsFamily.WINDOWS ? readRegistryPath(env) : Optional.empty();
        return Host.system(registry.map(r -> SearchPathEntries.withPersistentPath(env, r.persistentEntries())).orElse(env),
                registry);
    }
}
