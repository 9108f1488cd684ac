package dev.cudnntool.testing;

import dev.cudnntool.host.searchpath.SearchPathEntries;
import dev.cudnntool.host.searchpath.SearchPathStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The registry's two Path values in memory, with a switch for "not Administrator". */
public final class FakeSearchPathStore implements SearchPathStore {
    public final Map<Scope, Raw> values = new HashMap<>();
    public final List<Scope> readOnly = new ArrayList<>();
    public int announced;

    public static Raw windows(int type, String text) {
        return new Raw(type, (text + "\0").getBytes(StandardCharsets.UTF_16LE));
    }

    public String text(Scope s) {
        return values.get(s) == null ? null : SearchPathEntries.windowsText(values.get(s));
    }

    @Override
    public String location(Scope scope, String installId) {
        return scope == Scope.MACHINE ? "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment\\Path"
                : "HKCU\\Environment\\Path";
    }

    @Override
    public Raw read(Scope scope, String installId) {
        Raw r = values.get(scope);
        return r == null ? null : new Raw(r.type(), r.data().clone());
    }

    @Override
    public void write(Scope scope, String installId, Raw value) {
        if (value == null) {
            values.remove(scope);
        } else {
            values.put(scope, new Raw(value.type(), value.data().clone()));
        }
    }

    @Override
    public String cannotWrite(Scope scope) {
        return readOnly.contains(scope) ? "writing " + location(scope, null) + " needs Administrator rights" : null;
    }

    @Override
    public void announce() {
        announced++;
    }

    @Override
    public List<String> persistentEntries() {
        List<String> out = new ArrayList<>();
        for (Scope s : List.of(Scope.MACHINE, Scope.USER)) {
            if (values.get(s) != null) {
                out.addAll(SearchPathEntries.windowsEntries(values.get(s)));
            }
        }
        return out;
    }
}
