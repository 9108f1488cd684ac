package dev.cudnntool.target;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Paths in the tool's state (install records, journals) are written relative to the target, with
 * {@code /} between segments, so an absolute path cannot even be expressed; and every path read
 * back is proven to lie inside the target after following links (the real path of its nearest
 * existing folder) before anything acts on it. The target's own destination folders that are
 * links leading elsewhere ({@code lib64}, {@code include}, {@code bin}, {@code lib\x64}) count as
 * inside: the install said so out loud ({@code target.outside-link}) and put cuDNN there.
 *
 * <p>Records of the first format hold absolute paths; they are accepted only when they pass
 * the same proof.
 */
public final class StatePaths {
    /**
     * Install ids: "20261130T030000Z-0003-1a2b3c4d" (time, the target's own sequence, the target's
     * tag, see {@link History#newId}); the first form, without the tag, is still read. A journal's
     * id may end in "-rollback".
     */
    static final Pattern ID = Pattern.compile("\\d{8}T\\d{6}Z-\\d{4,9}(-[0-9a-f]{8})?");
    static final Pattern JOURNAL_ID = Pattern.compile("\\d{8}T\\d{6}Z-\\d{4,9}(-[0-9a-f]{8})?(-rollback)?");
    static final List<String> LINK_FOLDERS = List.of("lib64", "include", "bin", "lib/x64", "lib", "bin/x64"); // lib: a --prefix's

    private final Path root;
    private final Path state;
    private Path realRoot;
    private List<Path[]> outside; // {link folder, its real folder} for destination links that lead outside

    public StatePaths(Path root) {
        this.root = root.toAbsolutePath().normalize();
        this.state = StateFolder.of(this.root).dir();
    }

    public Path root() {
        return root;
    }

    public Path stateDir() {
        return state;
    }

    /** The stored form of a path this run made: relative to the target, "/" between segments. */
    public String store(Path p) {
        Path n = p.toAbsolutePath().normalize();
        if (n.equals(root) || n.equals(realRoot())) {
            return ".";
        }
        if (n.startsWith(root)) {
            return join(root.relativize(n));
        }
        if (n.startsWith(realRoot())) { // the real folder behind a target that is itself a link
            return join(realRoot().relativize(n));
        }
        if (root.startsWith(n)) { // the target itself or a parent that the install created
            int up = root.getNameCount() - n.getNameCount();
            return up == 0 ? "." : String.join("/", Collections.nCopies(up, ".."));
        }
        for (Path[] link : outsideLinks()) {
            if (n.startsWith(link[1])) {
                String rest = join(link[1].relativize(n));
                return join(root.relativize(link[0])) + (rest.isEmpty() ? "" : "/" + rest);
            }
        }
        throw new IllegalStateException("not inside the target " + root + ": " + p);
    }

    private static String join(Path rel) {
        List<String> parts = new ArrayList<>();
        for (Path s : rel) {
            if (!s.toString().isEmpty()) {
                parts.add(s.toString());
            }
        }
        return String.join("/", parts);
    }

    /** A stored path as a path of this file system, without proof (for journals this run wrote). */
    public Path resolve(String stored) {
        try {
            return parse(stored);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private Path parse(String stored) {
        if (stored == null || stored.isEmpty()) {
            throw new IllegalArgumentException("an empty path");
        }
        if (stored.indexOf('\0') >= 0 || stored.chars().anyMatch(c -> c < 0x20)) {
            throw new IllegalArgumentException("a path with control characters");
        }
        if (stored.equals(".")) {
            return root;
        }
        if (stored.matches("\\.\\.(/\\.\\.)*")) {
            Path p = root;
            for (int i = 0; i < (stored.length() + 1) / 3 && p != null; i++) {
                p = p.getParent();
            }
            if (p == null) {
                throw new IllegalArgumentException("a path above the file system's root");
            }
            return p;
        }
        Path asGiven;
        try {
            asGiven = root.getFileSystem().getPath(stored);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("not a valid path");
        }
        if (asGiven.isAbsolute()) {
            return asGiven.normalize(); // the first format: proven like any other below
        }
        Path p = root;
        for (String seg : stored.split("/", -1)) {
            if (seg.isEmpty() || seg.equals(".") || seg.equals("..") || seg.indexOf('\\') >= 0 || seg.indexOf(':') >= 0) {
                throw new IllegalArgumentException("a path with the segment '" + seg + "'");
            }
            p = p.resolve(seg);
        }
        return p;
    }

    /** Where the kind of a stored path is checked: in the target proper, or in one of the tool's folders. */
    enum Area { TARGET, TOOL }

    /**
     * Resolves a stored path and proves it lies inside the target after following links, and in
     * the area its kind demands: {@code TARGET} (cuDNN's files and folders, never the tool's own
     * folder) or under {@code within} (a folder of the tool's own, e.g. this record's backup).
     * Returns the path to act on; a failed proof is {@link DamagedState} naming {@code file}.
     */
    Path confined(String stored, Path file, String field, Area area, Path within, String repair) {
        Path p;
        try {
            p = parse(stored);
        } catch (IllegalArgumentException e) {
            throw new DamagedState(file, "is refused: its " + field + " '" + printable(stored) + "' is " + e.getMessage(), repair);
        }
        Path real;
        try {
            real = real(p);
        } catch (IOException e) {
            throw new DamagedState(file, "is refused: its " + field + " " + p + " cannot be resolved ("
                    + IoFailure.describe(e) + ")", repair);
        }
        Path realState = realState();
        boolean inState = real.startsWith(realState);
        if (area == Area.TOOL) {
            Path realWithin = realState.resolve(state.relativize(within));
            if (!real.startsWith(realWithin)) {
                throw new DamagedState(file, "is refused: its " + field + " " + p + " lies outside " + within, repair);
            }
            return p;
        }
        if (inState || !insideTarget(real) || real.equals(realRoot())) {
            throw new DamagedState(file, "is refused: its " + field + " " + p + (real.equals(p) ? "" : " (really " + real + ")")
                    + (inState ? " lies in the tool's own folder" : " lies outside the target " + root), repair);
        }
        return p;
    }

    /** A createdDirs entry: a folder inside the target, or the target itself and parents the install created. */
    Path createdDir(String stored, Path file, String repair) {
        if (stored != null && (stored.equals(".") || stored.matches("\\.\\.(/\\.\\.)*"))) {
            try {
                return parse(stored);
            } catch (IllegalArgumentException e) {
                // '../../..' climbing above the file system's root: no install created that folder
                throw new DamagedState(file, "is refused: its created folder '" + printable(stored) + "' is " + e.getMessage(), repair);
            }
        }
        if (stored != null) {
            try {
                Path p = parse(stored);
                if (p.isAbsolute() && root.startsWith(p)) {
                    return p; // the first format wrote the target and its created parents as absolute paths
                }
            } catch (IllegalArgumentException e) {
                // reported below with the field's name
            }
        }
        return confined(stored, file, "created folder", Area.TARGET, null, repair);
    }

    /** Whether a path lies in the tool's own folder, as written or once links are followed. */
    boolean inToolFolder(Path p) {
        if (p.startsWith(state)) {
            return true;
        }
        try {
            return real(p).startsWith(realState());
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether a path, links followed, lies under one of the tool's folders. */
    boolean realUnder(Path p, Path within) {
        try {
            return real(p).startsWith(realState().resolve(state.relativize(within)));
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    public boolean insideTarget(Path real) {
        if (real.startsWith(realRoot())) {
            return true;
        }
        for (Path[] link : outsideLinks()) {
            if (real.startsWith(link[1])) {
                return true;
            }
        }
        return false;
    }

    /** The path with every link above its last segment followed; the last segment itself is not followed. */
    public static Path real(Path p) throws IOException {
        Path parent = p.getParent();
        if (parent == null) {
            return p;
        }
        Deque<Path> rest = new ArrayDeque<>();
        Path e = parent;
        while (e != null && !Files.exists(e)) {
            rest.push(e.getFileName());
            e = e.getParent();
        }
        Path r = e == null ? parent.getRoot() : e.toRealPath();
        while (!rest.isEmpty()) {
            r = r.resolve(rest.pop().toString());
        }
        return r.resolve(p.getFileName().toString());
    }

    Path realRoot() {
        if (realRoot == null) {
            if (!Files.exists(root)) {
                return root; // not kept: one StatePaths lives as long as its target, which an install may create
            }
            try {
                realRoot = root.toRealPath();
            } catch (IOException e) {
                realRoot = root;
            }
        }
        return realRoot;
    }

    private Path realState() {
        return StateFolder.of(realRoot()).dir();
    }

    /**
     * The first link met going down from the tool's folder to {@code dir} ({@code dir} included),
     * or null. The tool's own folders (trash, kept, a record's removed slots) are plain folders:
     * a link there would carry what the tool moves into it out of the target.
     */
    public Path linkOnTheWay(Path dir) {
        if (!dir.startsWith(state) || dir.equals(state)) {
            return null;
        }
        Path cur = state;
        for (Path seg : state.relativize(dir)) {
            cur = cur.resolve(seg.toString());
            if (Files.isSymbolicLink(cur)) {
                return cur;
            }
            if (!Files.exists(cur, LinkOption.NOFOLLOW_LINKS)) {
                return null;
            }
        }
        return null;
    }

    /** Whether the tool's own folder is a plain folder (a link there would lead the state elsewhere). */
    boolean stateIsLink() {
        return Files.isSymbolicLink(state);
    }

    /** The target's destination folders that are links leading outside it: {link, real folder}. */
    public List<Path[]> outsideLinks() {
        if (outside == null) {
            if (!Files.exists(root)) {
                return List.of(); // not kept, as realRoot(): the target may be created later
            }
            outside = new ArrayList<>();
            for (String name : LINK_FOLDERS) {
                Path link = root;
                for (String s : name.split("/")) {
                    link = link.resolve(s);
                }
                if (!Files.isSymbolicLink(link) && !(link.getParent() != null && !link.getParent().equals(root)
                        && Files.isSymbolicLink(link.getParent()))) {
                    continue;
                }
                try {
                    Path real = link.toRealPath();
                    if (!real.startsWith(realRoot())) {
                        outside.add(new Path[] {link, real});
                    }
                } catch (IOException e) {
                    // dangling: nothing can be installed there, so nothing is inside it either
                }
            }
        }
        return outside;
    }

    public static String printable(String s) {
        if (s == null) {
            return "(missing)";
        }
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(Character.isISOControl(c) || c == 0x2028 || c == 0x2029 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.length() > 200 ? b.substring(0, 200) + "…" : b.toString();
    }

    /** Whether a path stays put when links are not followed (used to keep the last segment's own kind). */
    static boolean exists(Path p) {
        return Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }
}
