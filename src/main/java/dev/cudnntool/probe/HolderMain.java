package dev.cudnntool.probe;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Structure;
import com.sun.jna.WString;
import com.sun.jna.ptr.IntByReference;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;

/**
 * Child process (Windows only): asks the Restart Manager which running programs hold the files
 * given as arguments open, and prints {"holders":[{"pid":…,"name":"…"}]}. It runs apart from the
 * tool, like the probe, so a mistake in the native call can only end this child.
 */
public final class HolderMain {
    private static final int CCH_RM_SESSION_KEY = 32;
    private static final int ERROR_MORE_DATA = 234;

    private HolderMain() {
    }

    /** rstrtmgr.dll, declared as documented for RmStartSession, RmRegisterResources, RmGetList, RmEndSession. */
    public interface RestartManager extends Library {
        int RmStartSession(IntByReference session, int flags, char[] sessionKey);

        int RmRegisterResources(int session, int nFiles, WString[] files, int nApplications, Structure[] apps,
                                int nServices, String[] services);

        int RmGetList(int session, IntByReference needed, IntByReference count, RmProcessInfo[] info,
                      IntByReference rebootReasons);

        int RmEndSession(int session);
    }

    /** RM_PROCESS_INFO: RM_UNIQUE_PROCESS (pid and FILETIME), names of 256 and 64 WCHARs, four DWORDs. */
    @Structure.FieldOrder({"dwProcessId", "startTimeLow", "startTimeHigh", "strAppName", "strServiceShortName",
            "applicationType", "appStatus", "tsSessionId", "bRestartable"})
    public static class RmProcessInfo extends Structure {
        public int dwProcessId;
        public int startTimeLow;
        public int startTimeHigh;
        public char[] strAppName = new char[256];
        public char[] strServiceShortName = new char[64];
        public int applicationType;
        public int appStatus;
        public int tsSessionId;
        public int bRestartable;
    }

    public static void main(String[] files) throws IOException {
        RestartManager rm = Native.load("rstrtmgr", RestartManager.class);
        IntByReference session = new IntByReference();
        char[] key = new char[CCH_RM_SESSION_KEY + 1];
        try (JsonGenerator out = new JsonFactory().createGenerator(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))) {
            out.writeStartObject();
            out.writeArrayFieldStart("holders");
            if (rm.RmStartSession(session, 0, key) == 0) {
                try {
                    WString[] names = new WString[files.length];
                    for (int i = 0; i < files.length; i++) {
                        names[i] = new WString(files[i]);
                    }
                    if (rm.RmRegisterResources(session.getValue(), names.length, names, 0, null, 0, null) == 0) {
                        IntByReference needed = new IntByReference();
                        IntByReference count = new IntByReference(0);
                        IntByReference reasons = new IntByReference();
                        int rc = rm.RmGetList(session.getValue(), needed, count, null, reasons);
                        if (rc == ERROR_MORE_DATA && needed.getValue() > 0) {
                            RmProcessInfo[] info = (RmProcessInfo[]) new RmProcessInfo().toArray(needed.getValue());
                            count.setValue(info.length);
                            if (rm.RmGetList(session.getValue(), needed, count, info, reasons) == 0) {
                                for (int i = 0; i < count.getValue(); i++) {
                                    info[i].read();
                                    out.writeStartObject();
                                    out.writeNumberField("pid", info[i].dwProcessId);
                                    out.writeStringField("name", Native.toString(info[i].strAppName));
                                    out.writeEndObject();
                                }
                            }
                        }
                    }
                } finally {
                    rm.RmEndSession(session.getValue());
                }
            }
            out.writeEndArray();
            out.writeEndObject();
        }
        System.out.println();
    }
}
