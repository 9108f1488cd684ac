package dev.cudnntool.install;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A --prefix folder is often a folder of the user's own (a project, {@code /opt}) whose
 * {@code LICENSE} is not cuDNN's. cuDNN's licence goes there only when nothing is there, or
 * what is there is cuDNN's (it names cuDNN); else it is kept in the install record, as in a
 * toolkit, and the file in the folder is never moved, replaced or removed.
 */
final class PrefixLicence {
    private PrefixLicence() {
    }

    static boolean someoneElses(Path dest) {
        if (!Files.exists(dest, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        if (!Files.isRegularFile(dest, LinkOption.NOFOLLOW_LINKS)) {
            return true;
        }
        try (InputStream in = Files.newInputStream(dest)) {
            String head = new String(in.readNBytes(1 << 16), StandardCharsets.ISO_8859_1);
            return !head.toLowerCase(Locale.ROOT).contains("cudnn");
        } catch (IOException e) {
            return true; // unreadable: not touched
        }
    }
}
