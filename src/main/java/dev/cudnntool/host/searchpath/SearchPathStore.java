package dev.cudnntool.host.searchpath;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where the loader's search path is kept for good, as raw stored values: on Windows the
 * {@code Path} value of the user's or the machine's environment in the registry, on Linux a file
 * in {@code /etc/ld.so.conf.d}. The port does plain reads and writes of exact bytes; what an entry
 * is, and how one is added or taken out, is decided above it. Tests use an in-memory fake.
 */
public interface SearchPathStore {

    /** The user's search path, or the machine's (Windows; on Linux both mean /etc/ld.so.conf.d). */
    enum Scope {
        USER, MACHINE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A stored value byte for byte: the registry's data with its type (REG_SZ 1, REG_EXPAND_SZ 2),
     * or a file's contents (type 0).
     */
    record Raw(int type, byte[] data) {
        public static final int FILE = 0;
        public static final int REG_SZ = 1;
        public static final int REG_EXPAND_SZ = 2;

        @Override
        public boolean equals(Object o) {
            return o instanceof Raw r && r.type == type && Arrays.equals(r.data, data);
        }

        @Override
        public int hashCode() {
            return 31 * type + Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "Raw[type=" + type + ", " + data.length + " bytes]";
        }
    }

    /** Where the value lives, for messages and the install record: "HKCU\Environment\Path", a file path. */
    String location(Scope scope, String installId);

    /** The value now, or null when there is none. */
    Raw read(Scope scope, String installId) throws IOException;

    /** Stores {@code value} exactly; null removes it. */
    void write(Scope scope, String installId, Raw value) throws IOException;

    /**
     * Why this run may not write there (not root, not Administrator), as the first half of an
     * error message; null when it may.
     */
    String cannotWrite(Scope scope);

    /** Tells the system: WM_SETTINGCHANGE "Environment" on Windows, ldconfig on Linux. */
    void announce() throws IOException;

    /**
     * Whether something is stored under {@code installId} already (Linux: its ld.so.conf.d file
     * exists, as a file, a link or anything else); a new install then takes another id. Stores with
     * one shared value (the registry) have nothing per install.
     */
    default boolean holds(String installId) {
        return false;
    }

    /** Every folder already on the persistent search path (both scopes), variables expanded. */
    List<String> persistentEntries();
}
