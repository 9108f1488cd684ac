package dev.cudnntool.diagnosis;

import dev.cudnntool.host.Host;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where a cuDNN header of one major is, as the scan and verify's header checks both look for it:
 * {@code include/}, {@code include/<multiarch>/} and Debian's {@code _vN} names in both.
 */
public final class HeaderLookup {
    private HeaderLookup() {
    }

    /** Where {@code header} may be, in order: include/, include/<multiarch>/ and Debian's _vN names in both. */
    public static List<Path> candidates(Host host, Path includeDir, String header, int major) {
        List<Path> out = new ArrayList<>();
        String debian = header.endsWith(".h") ? header.substring(0, header.length() - 2) + "_v" + major + ".h" : header;
        List<Path> dirs = new ArrayList<>(List.of(includeDir));
        multiarch(host).ifPresent(m -> dirs.add(includeDir.resolve(m)));
        for (Path d : dirs) {
            out.add(d.resolve(header));
            out.add(d.resolve(debian));
        }
        return out;
    }

    /** The first candidate that exists (links followed), or empty. */
    public static Optional<Path> find(Host host, Path includeDir, String header, int major) {
        for (Path p : candidates(host, includeDir, header, major)) {
            if (Files.isRegularFile(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** A header name that is only a dangling link (or a loop): present as a name, absent as a file. */
    public static boolean dangling(Path p) {
        return Files.isSymbolicLink(p) && !Files.exists(p);
    }

    private static Optional<String> multiarch(Host host) {
        if (host.windows()) {
            return Optional.empty();
        }
        return switch (host.arch()) {
            case X86_64 -> Optional.of("x86_64-linux-gnu");
            case AARCH64, SBSA -> Optional.of("aarch64-linux-gnu");
            case PPC64LE -> Optional.of("powerpc64le-linux-gnu");
            default -> Optional.empty();
        };
    }
}
