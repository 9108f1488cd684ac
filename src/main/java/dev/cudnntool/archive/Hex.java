package dev.cudnntool.archive;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

/** Hex text of digests, and the sha256 of a whole file (read once, in 1 MiB pieces). */
public final class Hex {
    private Hex() {
    }

    public static String sha256(Path file) throws IOException {
        MessageDigest md = EntryCursor.sha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 20];
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
        }
        return of(md.digest());
    }

    public static String of(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
