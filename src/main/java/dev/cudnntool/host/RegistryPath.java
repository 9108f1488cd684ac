package dev.cudnntool.host;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code Path} values of the Windows registry, each as its entries with variables expanded:
 * the user's ({@code HKCU\Environment}) and the machine's ({@code HKLM\SYSTEM\CurrentControlSet\Control\Session
 * Manager\Environment}). {@code SearchPathStores.systemHost()} reads them once on Windows; diagnosis uses them to
 * say which variable holds a PATH entry. A host without them (another OS, a test's) did not read
 * the registry.
 */
public record RegistryPath(List<String> user, List<String> machine) {
    public RegistryPath {
        user = List.copyOf(user);
        machine = List.copyOf(machine);
    }

    /** The machine's entries, then the user's: what Windows gives a new terminal after its own. */
    public List<String> persistentEntries() {
        List<String> out = new ArrayList<>(machine);
        out.addAll(user);
        return out;
    }
}
