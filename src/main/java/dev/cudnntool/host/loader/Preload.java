package dev.cudnntool.host.loader;

import dev.cudnntool.host.RealPaths;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
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

    /**
     * {@code cudnn.preloaded}: each preloaded cuDNN library. A preloaded object wins over every
     * folder and every program's own DT_RPATH/DT_RUNPATH. An error when it is of the verified major
     * but not from the verified copy (every program gets that one instead); info when it is the
     * verified copy itself; a warning otherwise (no copy verified, another major, or an entry the
     * loader cannot open, which it skips with a message in every program).
     *
     * @param target the verified copy's main library, or null
     * @param major  its major, 0 when none
     */
    public static List<Finding> findings(Host host, Path target, int major) {
        List<Finding> out = new ArrayList<>();
        for (Entry e : entries(host)) {
            String name = e.name();
            if (!name.startsWith("libcudnn")) {
                continue;
            }
            String fix = e.source().equals("LD_PRELOAD")
                    ? "remove " + e.raw() + " from LD_PRELOAD where your shell profile or job script sets it (unset LD_PRELOAD)"
                    : "remove " + e.raw() + " from " + e.source() + " (sudoedit /etc/ld.so.preload)";
            if (e.file() == null) {
                out.add(Finding.warn(FindingId.CUDNN_PRELOADED, e.raw() + " is preloaded through " + e.source() + " but the loader"
                        + " finds no such file: every program starts with \"ERROR: ld.so: object ... cannot be preloaded\"", fix));
                continue;
            }
            String what = e.file() + (e.raw().equals(e.file().toString()) ? "" : " (" + e.raw() + ")") + " is preloaded through "
                    + e.source() + ": every program gets it before any folder is searched, whatever its own DT_RPATH or"
                    + " DT_RUNPATH says";
            Path dir = e.file().getParent();
            if (target != null && sameFile(e.file(), target.getParent().resolve(name))) {
                out.add(Finding.info(FindingId.CUDNN_PRELOADED, what + "; it is the verified copy"));
            } else if (target != null && name.matches("libcudnn[a-z_]*\\.so\\." + major + "(\\..*)?")
                    && !(dir != null && sameFile(dir, target.getParent()))) {
                out.add(Finding.error(FindingId.CUDNN_PRELOADED, what + ", so programs load it instead of the copy in "
                        + target.getParent() + " (and a framework gets it instead of its own wheel's)", fix));
            } else {
                out.add(Finding.warn(FindingId.CUDNN_PRELOADED, what + (target == null ? "" : "; it is not the verified cuDNN "
                        + major + " in " + target.getParent()), fix));
            }
        }
        return out;
    }

    private static boolean sameFile(Path a, Path b) {
        return RealPaths.sameFile(a, b, false);
    }
}
