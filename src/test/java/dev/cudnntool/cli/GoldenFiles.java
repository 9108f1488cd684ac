package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Golden files under {@code src/test/resources/golden/}: what a command prints, normalised, compared
 * byte for byte. Run with {@code -Dgolden.update=true} to rewrite them from today's output (then
 * read the diff before committing it).
 *
 * <p>The normaliser replaces only what differs from run to run or machine to machine, nothing a
 * user or script relies on:
 * <ul>
 *   <li>line ends: {@code \r\n} becomes {@code \n} (picocli and println use the platform's);</li>
 *   <li>ANSI colour codes are removed (picocli colours help on some terminals);</li>
 *   <li>install ids ({@code 20261130T030000Z-0003-1a2b3c4d}, or the first form without the tag) become {@code <install-id>}, and the bare
 *       time stamps of quarantine folders ({@code 20261130T030000Z}) {@code <stamp>};</li>
 *   <li>ISO-8601 instants ({@code 2026-11-30T03:00:00.123Z}) become {@code <time>};</li>
 *   <li>the tool's version (from the jar's manifest, {@code dev} in tests) becomes
 *       {@code <tool-version>} and the JVM's {@code <java-version>};</li>
 *   <li>the JVM's temp folder becomes {@code <tmp>};</li>
 *   <li>values the test names, such as a fixture archive's own sha256 (its zip entries carry the
 *       time they were written), become the placeholder it gives.</li>
 * </ul>
 * Paths are otherwise left as they are: the fixtures live on jimfs, where they are the same on
 * every machine.
 */
final class GoldenFiles {
    static final boolean UPDATE = Boolean.getBoolean("golden.update");
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");
    private static final Pattern INSTALL_ID = Pattern.compile("\\d{8}T\\d{6}Z-\\d{4}(-[0-9a-f]{8})?");
    private static final Pattern STAMP = Pattern.compile("\\d{8}T\\d{6}Z");
    private static final Pattern INSTANT = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:\\d{2})");

    private GoldenFiles() {
    }

    /** The source folder of the golden files (surefire runs in the module's folder, {@code basedir}). */
    static Path root() {
        return Paths.get(System.getProperty("basedir", System.getProperty("user.dir")), "src", "test", "resources", "golden");
    }

    static String normalise(String text, Map<String, String> values) {
        String s = text.replace("\r\n", "\n");
        for (var e : values.entrySet()) {
            s = s.replace(e.getKey(), e.getValue());
        }
        s = ANSI.matcher(s).replaceAll("");
        s = INSTALL_ID.matcher(s).replaceAll("<install-id>");
        s = STAMP.matcher(s).replaceAll("<stamp>");
        s = INSTANT.matcher(s).replaceAll("<time>");
        String tool = VersionProvider.version();
        if (!tool.isEmpty()) {
            s = s.replace("cudnn-tool " + tool, "cudnn-tool <tool-version>");
        }
        s = s.replace("Java " + System.getProperty("java.version"), "Java <java-version>");
        String tmp = System.getProperty("java.io.tmpdir");
        if (tmp != null && tmp.length() > 1) {
            s = s.replace(Paths.get(tmp).toAbsolutePath().toString(), "<tmp>");
        }
        return s;
    }

    /** Compares {@code actual}, normalised, with the golden file {@code name}, or rewrites it with -Dgolden.update=true. */
    static void check(String name, String actual, Map<String, String> values) {
        Path file = root().resolve(name);
        String normal = normalise(actual, values);
        try {
            if (UPDATE) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, normal, StandardCharsets.UTF_8);
                return;
            }
            String expected = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
            assertEquals(expected, normal, "golden/" + name + " differs (rewrite with -Dgolden.update=true if intended)");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
