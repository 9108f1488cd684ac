package dev.cudnntool.archive;

import java.util.HexFormat;

public final class Hex {
    private Hex() {
    }

    public static String of(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
