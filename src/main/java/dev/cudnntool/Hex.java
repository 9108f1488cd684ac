package dev.cudnntool;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Hex text of digests, and the sha256 of a whole file (read once, in 1 MiB pieces). */
public final class Hex {
    private Hex() {
    }

    public static String sha256(Path file) throws IOException {
        MessageDigest md = newSha256();
        BoundedFiles.requireRegularFile(file); // a FIFO or a device would block or never end
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 20];
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
        }
        return of(md.digest());
    }

    public static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    public static String of(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
