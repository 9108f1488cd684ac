package dev.cudnntool.real;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;

/** Test helper, run in a child JVM (cuDNN 8 aborts a process that cannot load a sub-library): prints "N NAME" lines. */
public final class StatusNamesMain {
    private StatusNamesMain() {
    }

    public static void main(String[] args) {
        Function f = NativeLibrary.getInstance(args[0]).getFunction("cudnnGetErrorString");
        for (int i = 1; i < args.length; i++) {
            int code = Integer.parseInt(args[i]);
            System.out.println(code + " " + f.invokeString(new Object[] {code}, false));
        }
    }
}
