package dev.cudnntool.host.searchpath;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.platform.win32.Advapi32;
import com.sun.jna.platform.win32.Advapi32Util;
import com.sun.jna.platform.win32.User32;
import com.sun.jna.platform.win32.W32Errors;
import com.sun.jna.platform.win32.Win32Exception;
import com.sun.jna.platform.win32.WinDef;
import com.sun.jna.platform.win32.WinNT;
import com.sun.jna.platform.win32.WinReg;
import com.sun.jna.ptr.IntByReference;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Windows: the {@code Path} value of {@code HKCU\Environment} (user) or of
 * {@code HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment} (machine), read and
 * written as raw bytes with their type through the registry API (never {@code setx}, which cuts
 * PATH at 1,024 characters), then WM_SETTINGCHANGE "Environment" so new terminals see it.
 */
public final class WindowsRegistryPathStore implements SearchPathStore {
    static final String USER_KEY = "Environment";
    static final String MACHINE_KEY = "SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment";
    static final String VALUE = "Path";
    private static final int WM_SETTINGCHANGE = 0x001A;
    private static final int SMTO_ABORTIFHUNG = 0x0002;

    private final Map<String, String> env;

    /** @param env the process environment, to expand %VARIABLES% in REG_EXPAND_SZ entries */
    public WindowsRegistryPathStore(Map<String, String> env) {
        this.env = env;
    }

    private static WinReg.HKEY root(Scope scope) {
        return scope == Scope.MACHINE ? WinReg.HKEY_LOCAL_MACHINE : WinReg.HKEY_CURRENT_USER;
    }

    private static String key(Scope scope) {
        return scope == Scope.MACHINE ? MACHINE_KEY : USER_KEY;
    }

    @Override
    public String location(Scope scope, String installId) {
        return (scope == Scope.MACHINE ? "HKLM\\" : "HKCU\\") + key(scope) + "\\" + VALUE;
    }

    @Override
    public Raw read(Scope scope, String installId) throws IOException {
        WinReg.HKEY k = open(scope, WinNT.KEY_READ);
        try {
            IntByReference type = new IntByReference();
            IntByReference size = new IntByReference();
            int rc = Advapi32.INSTANCE.RegQueryValueEx(k, VALUE, 0, type, (byte[]) null, size);
            if (rc == W32Errors.ERROR_FILE_NOT_FOUND) {
                return null;
            }
            check(rc, "reading " + location(scope, null));
            byte[] data = new byte[size.getValue()];
            rc = Advapi32.INSTANCE.RegQueryValueEx(k, VALUE, 0, type, data, size);
            check(rc, "reading " + location(scope, null));
            return new Raw(type.getValue(), Arrays.copyOf(data, size.getValue()));
        } finally {
            Advapi32Util.registryCloseKey(k);
        }
    }

    @Override
    public void write(Scope scope, String installId, Raw value) throws IOException {
        WinReg.HKEY k = open(scope, WinNT.KEY_READ | WinNT.KEY_WRITE);
        try {
            int rc = value == null ? Advapi32.INSTANCE.RegDeleteValue(k, VALUE)
                    : Advapi32.INSTANCE.RegSetValueEx(k, VALUE, 0, value.type(), value.data(), value.data().length);
            if (!(value == null && rc == W32Errors.ERROR_FILE_NOT_FOUND)) {
                check(rc, "writing " + location(scope, null));
            }
        } finally {
            Advapi32Util.registryCloseKey(k);
        }
    }

    @Override
    public String cannotWrite(Scope scope) {
        try {
            Advapi32Util.registryCloseKey(open(scope, WinNT.KEY_READ | WinNT.KEY_WRITE));
            return null;
        } catch (IOException e) {
            return "writing " + location(scope, null) + " needs " + (scope == Scope.MACHINE ? "Administrator rights" : "access")
                    + " (" + e.getMessage() + ")";
        }
    }

    @Override
    public void announce() {
        Memory text = new Memory(("Environment".length() + 1) * 2L);
        text.setWideString(0, "Environment");
        User32.INSTANCE.SendMessageTimeout(new WinDef.HWND(Pointer.createConstant(0xFFFF)), WM_SETTINGCHANGE,
                new WinDef.WPARAM(0), new WinDef.LPARAM(Pointer.nativeValue(text)), SMTO_ABORTIFHUNG, 5000,
                new WinDef.DWORDByReference());
    }

    @Override
    public List<String> persistentEntries() {
        List<String> out = new ArrayList<>(entries(Scope.MACHINE));
        out.addAll(entries(Scope.USER));
        return out;
    }

    /** One scope's Path entries, variables expanded; empty when the value is missing or unreadable. */
    public List<String> entries(Scope s) {
        List<String> out = new ArrayList<>();
        try {
            Raw r = read(s, null);
            if (r != null) {
                for (String e : SearchPathEntries.windowsEntries(r)) {
                    out.add(r.type() == Raw.REG_EXPAND_SZ ? SearchPathEntries.expand(e, env) : e);
                }
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable value adds nothing
        }
        return out;
    }

    private static WinReg.HKEY open(Scope scope, int access) throws IOException {
        try {
            return Advapi32Util.registryGetKey(root(scope), key(scope), access).getValue();
        } catch (Win32Exception e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private static void check(int rc, String what) throws IOException {
        if (rc != W32Errors.ERROR_SUCCESS) {
            throw new IOException(what + " failed: " + new Win32Exception(rc).getMessage());
        }
    }
}
