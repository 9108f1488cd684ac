package dev.cudnntool.host.loader;
import dev.cudnntool.Arch;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.host.Host;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the Linux dynamic loader really knows beyond LD_LIBRARY_PATH: the entries of
 * /etc/ld.so.cache, as ldconfig last wrote them. A folder named in /etc/ld.so.conf.d but not
 * cached yet (ldconfig never run) is not searched. Reads glibc's formats from the file itself:
 * the new one ("glibc-ld.so.cache1.1", the default since glibc 2.32), and the old one
 * ("ld.so-1.7.0") with the new one appended. String offsets of new-format entries count from the
 * new header's start. Entries are in the loader's priority order.
 */
public final class LdSoCache {
    static final String OLD_MAGIC = "ld.so-1.7.0";
    static final String NEW_MAGIC = "glibc-ld.so.cache1.1";
    private static final int NEW_HEADER = 48;
    private static final int NEW_ENTRY = 24;
    private static final int FLAG_TYPE_MASK = 0x00ff;
    private static final int FLAG_ELF_LIBC6 = 0x0003;
    private static final int FLAG_REQUIRED_MASK = 0xff00;
    static final int FLAG_X8664_LIB64 = 0x0300;
    static final int FLAG_AARCH64_LIB64 = 0x0a00;
    private static final int MAX_SIZE = 64 << 20;
    /** A name or path longer than PATH_MAX is no library's. */
    private static final int MAX_STRING = 4096;
    /** Bytes scanned for all names together: 50 times a large real cache, and linear in the work. */
    private static final long SCAN_BUDGET = 16L << 20;

    /** One cached library: the name programs ask for and the file the loader maps. */
    public record Entry(String name, Path path, int flags) {
    }

    private final List<Entry> entries;

    private LdSoCache(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    public static LdSoCache empty() {
        return new LdSoCache(List.of());
    }

    /** /etc/ld.so.cache of this host; empty when there is none or it cannot be read. */
    public static LdSoCache of(Host host) {
        Path file = host.path("/etc/ld.so.cache");
        try {
            if (!BoundedFiles.isRegularFile(file)) {
                return empty();
            }
            return parse(host, BoundedFiles.read(file, MAX_SIZE));
        } catch (IOException | RuntimeException e) {
            return empty();
        }
    }

    public List<Entry> entries() {
        return entries;
    }

    /** The file the loader takes for {@code soname} from the cache, for this CPU. */
    public Optional<Entry> lookup(String soname, Arch arch) {
        int want = requiredFlag(arch);
        for (Entry e : entries) {
            if (e.name().equals(soname) && (e.flags() & FLAG_TYPE_MASK) == FLAG_ELF_LIBC6
                    && (want < 0 || (e.flags() & FLAG_REQUIRED_MASK) == want)) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /** Whether any cached library lives in {@code dir}. */
    public boolean hasFolder(Host host, Path dir) {
        for (Entry e : entries) {
            if (e.path().getParent() != null && host.samePath(e.path().getParent(), dir)) {
                return true;
            }
        }
        return false;
    }

    private static int requiredFlag(Arch arch) {
        return switch (arch) {
            case X86_64 -> FLAG_X8664_LIB64;
            case SBSA, AARCH64 -> FLAG_AARCH64_LIB64;
            default -> -1;
        };
    }

    static LdSoCache parse(Host host, byte[] data) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN
                ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        long start = 0;
        if (startsWith(data, 0, OLD_MAGIC)) {
            // Old format first: 12 bytes of magic, the count, 12-byte entries; the new format
            // follows, aligned to 8 bytes. All in 64 bits: a count near 2^32 must not wrap.
            if (data.length < 16) {
                throw new IOException("a cut-short ld.so.cache");
            }
            long n = Integer.toUnsignedLong(b.getInt(12));
            long after = 16 + n * 12;
            start = (after + 7) & ~7L;
            if (start >= data.length || !startsWith(data, (int) start, NEW_MAGIC)) {
                throw new IOException("an old-format-only ld.so.cache");
            }
        } else if (!startsWith(data, 0, NEW_MAGIC)) {
            throw new IOException("not an ld.so.cache");
        }
        if (start + NEW_HEADER > data.length) {
            throw new IOException("a cut-short ld.so.cache");
        }
        int base = (int) start;
        long n = Integer.toUnsignedLong(b.getInt(base + 20));
        if (n > (data.length - start - NEW_HEADER) / NEW_ENTRY) {
            throw new IOException("ld.so.cache entry count exceeds the file");
        }
        long[] budget = {SCAN_BUDGET};
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int at = base + NEW_HEADER + i * NEW_ENTRY;
            int flags = b.getInt(at);
            String key = string(data, start + Integer.toUnsignedLong(b.getInt(at + 4)), budget);
            String value = string(data, start + Integer.toUnsignedLong(b.getInt(at + 8)), budget);
            if (key == null || value == null || !value.startsWith("/")) {
                continue;
            }
            try {
                Path file = host.path(value).normalize();
                if (file.getFileName() == null || file.getParent() == null || key.isEmpty()) {
                    continue; // '/' or '/..': a folder root is no library file, and no loader opens it as one
                }
                out.add(new Entry(key, file, flags));
            } catch (InvalidPathException e) {
                // a path no loader could open either
            }
        }
        return new LdSoCache(out);
    }

    /**
     * The NUL-terminated string at {@code offset}, or null when it is outside the file,
     * unterminated or longer than any path. Every byte looked at is paid from {@code budget}, so
     * entries pointing one byte apart into one long run cost linear work, not quadratic.
     */
    private static String string(byte[] data, long offset, long[] budget) throws IOException {
        if (offset < 0 || offset >= data.length) {
            return null;
        }
        int from = (int) offset;
        int stop = (int) Math.min(data.length, offset + MAX_STRING + 1);
        int end = from;
        while (end < stop && data[end] != 0) {
            end++;
        }
        budget[0] -= end - from + 1;
        if (budget[0] < 0) {
            throw new IOException("ld.so.cache names add up to more than any real cache holds");
        }
        return end == stop ? null : new String(data, from, end - from, StandardCharsets.UTF_8);
    }

    private static boolean startsWith(byte[] data, int at, String magic) {
        byte[] m = magic.getBytes(StandardCharsets.US_ASCII);
        if (at + m.length > data.length) {
            return false;
        }
        for (int i = 0; i < m.length; i++) {
            if (data[at + i] != m[i]) {
                return false;
            }
        }
        return true;
    }

    /** Writes a new-format cache (little-endian) of these entries: for tests and fakes. */
    public static byte[] write(List<String[]> nameAndPath, int flags) {
        ByteArrayOutputStream strings = new ByteArrayOutputStream();
        int tableEnd = NEW_HEADER + nameAndPath.size() * NEW_ENTRY;
        ByteBuffer head = ByteBuffer.allocate(tableEnd).order(ByteOrder.LITTLE_ENDIAN);
        head.put(NEW_MAGIC.getBytes(StandardCharsets.US_ASCII));
        head.putInt(nameAndPath.size());
        int[] offsets = new int[nameAndPath.size() * 2];
        for (int i = 0; i < nameAndPath.size(); i++) {
            for (int j = 0; j < 2; j++) {
                offsets[2 * i + j] = tableEnd + strings.size();
                byte[] s = nameAndPath.get(i)[j].getBytes(StandardCharsets.UTF_8);
                strings.write(s, 0, s.length);
                strings.write(0);
            }
        }
        head.putInt(strings.size());
        head.position(NEW_HEADER);
        for (int i = 0; i < nameAndPath.size(); i++) {
            head.putInt(flags).putInt(offsets[2 * i]).putInt(offsets[2 * i + 1]).putInt(0).putLong(0);
        }
        byte[] out = new byte[tableEnd + strings.size()];
        System.arraycopy(head.array(), 0, out, 0, tableEnd);
        System.arraycopy(strings.toByteArray(), 0, out, tableEnd, strings.size());
        return out;
    }

    /** The flags of a 64-bit x86 glibc library entry. */
    public static int x8664Flags() {
        return FLAG_ELF_LIBC6 | FLAG_X8664_LIB64;
    }
}
