package dev.cudnntool.host.loader;

import dev.cudnntool.BoundedFiles;
import dev.cudnntool.Text;
import dev.cudnntool.host.Host;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the Linux loader loads before anything a program asks for: the entries of LD_PRELOAD, then
 * those of /etc/ld.so.preload (ld.so(8)). Entries are separated by spaces, tabs, newlines or ':';
 * in the file, '#' starts a comment. An entry with a '/' is a file; a bare name is searched like a
 * program's own dependency. A preloaded object satisfies every later request for its soname, so it
 * wins over every folder. Both are hostile input: bounded in size and count, printed safely.
 */
public final class Preload {
    static final int MAX_ENTRIES = 256;
    static final long MAX_FILE_BYTES = 1 << 20;
    static final int MAX_VARIABLE = 64 * 1024;

    /**
     * One preloaded entry.
     *
     * @param raw    as written (printable)
     * @param source "LD_PRELOAD" or "/etc/ld.so.preload line N"
     * @param file   the file the loader opens, or null when it finds none (ld.so then ignores the entry)
     * @param soname the object's DT_SONAME, else its file name
     */
    public record Entry(String raw, String source, Path file, String soname) {
        /** The place it is loaded through, for messages. */
        public LoaderPath.Place place() {
            return new LoaderPath.Place(file == null ? null : file.getParent(), LoaderPath.Mechanism.PRELOAD, source);
        }

        /** The name as a library name (libcudnn.so.9), from the soname or the entry. */
        public String name() {
            if (soname != null) {
                return soname;
            }
            int slash = raw.lastIndexOf('/');
            return slash >= 0 ? raw.substring(slash + 1) : raw;
        }
    }

    private Preload() {
    }

    /** Every preloaded entry, LD_PRELOAD first, at most MAX_ENTRIES; empty on Windows. */
    public static List<Entry> entries(Host host) {
        List<Entry> out = new ArrayList<>();
        if (host.windows()) {
            return out;
        }
        String env = host.env("LD_PRELOAD");
        if (env != null && !env.isBlank()) {
            String v = env.length() > MAX_VARIABLE ? env.substring(0, MAX_VARIABLE) : env;
            for (String e : v.split("[\\s:]+")) {
                add(host, out, e, "LD_PRELOAD");
            }
        }
        Path conf = host.path("/etc/ld.so.preload");
        if (!BoundedFiles.isRegularFile(conf)) {
            return out;
        }
        List<String> lines;
        try {
            lines = BoundedFiles.readLines(conf, MAX_FILE_BYTES);
        } catch (IOException | RuntimeException e) {
            return out; // unreadable to this user: ld.so (running as this user) cannot read it either
        }
        for (int n = 0; n < lines.size() && out.size() < MAX_ENTRIES; n++) {
            String line = lines.get(n);
            int hash = line.indexOf('#');
            for (String e : (hash >= 0 ? line.substring(0, hash) : line).split("[\\s:]+")) {
                add(host, out, e, conf + " line " + (n + 1));
            }
        }
        return out;
    }

    private static void add(Host host, List<Entry> out, String entry, String source) {
        if (entry.isEmpty() || out.size() >= MAX_ENTRIES || entry.length() > ElfFile.MAX_NAME) {
            return;
        }
        String raw = Text.printable(entry);
        Path file = null;
        try {
            if (entry.contains("/")) {
                Path p = host.path(entry);
                file = p.isAbsolute() && Files.exists(p) ? p : null;
            } else {
                Optional<LoaderPath.Hit> hit = LoaderPath.find(host, LdSoCache.of(host), entry, List.of(), List.of());
                file = hit.map(LoaderPath.Hit::file).orElse(null);
            }
        } catch (RuntimeException e) {
            file = null; // a name no path can hold: the loader cannot open it either
        }
        String soname = null;
        if (file != null && Files.isRegularFile(file)) {
            try {
                String s = ElfFile.read(file, false).soname();
                soname = s == null || s.isEmpty() ? null : s;
            } catch (IOException | RuntimeException ignored) {
                // not an ELF object: the loader refuses it; named by its file name
            }
        }
        out.add(new Entry(raw, source, file, soname));
    }
}
