package dev.cudnntool.testing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Every path below a root with what it is: a folder, a link and its target, or a file and its sha256. */
public final class TreeSnapshot {
    private TreeSnapshot() {
    }

    public static Map<String, String> of(Path root) {
        Map<String, String> out = new TreeMap<>();
        if (!Files.exists(root)) {
            return out;
        }
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String rel = root.relativize(p).toString().replace('\\', '/');
                if (Files.isSymbolicLink(p)) {
                    out.put(rel, "link:" + Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    out.put(rel, "dir");
                } else {
                    out.put(rel, "file:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(Files.readAllBytes(p))));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    /** The same without the tool's own .cudnn-tool folder. */
    public static Map<String, String> withoutState(Path root) {
        Map<String, String> m = of(root);
        m.keySet().removeIf(k -> k.equals(".cudnn-tool") || k.startsWith(".cudnn-tool/"));
        return m;
    }
}
