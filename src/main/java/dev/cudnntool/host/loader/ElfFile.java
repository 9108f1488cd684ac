package dev.cudnntool.host.loader;
import dev.cudnntool.Arch;
import dev.cudnntool.BoundedFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads what the tool needs from a Linux shared object, in pure Java, without loading it: whether
 * its headers and tables fit the file (a copy cut short makes the loader die with SIGBUS), its
 * DT_NEEDED, DT_SONAME, DT_RPATH and DT_RUNPATH entries, and the names of the functions it exports
 * (the dynamic symbol table, as {@code nm -D --defined-only} would list them). ELF64 little-endian.
 */
public final class ElfFile {
    private static final int SHT_DYNAMIC = 6;
    private static final int SHT_DYNSYM = 11;
    private static final int PT_LOAD = 1;
    private static final long DT_NEEDED = 1;
    private static final long DT_SONAME = 14;
    private static final long DT_RPATH = 15;
    private static final long DT_RUNPATH = 29;
    private static final int MAX_TABLE = 64 << 20;
    /** All tables read for one file together: more than any real library's dynamic tables. */
    private static final long MAX_TABLES_TOTAL = 256L << 20;
    /** Longer than any symbol or library name the tool compares (PATH_MAX). */
    static final int MAX_NAME = 4096;
    /**
     * A DT_RPATH/DT_RUNPATH string is a list of folders, longer than one name may be: read whole up to
     * this (the loader has no limit of its own), longer is an error naming it, never "no search path".
     */
    static final int MAX_PATH_LIST = 1 << 20;
    private static final int MAX_SYMBOLS = 1 << 20;
    private static final int MAX_DYNAMIC_NAMES = 4096;
    /**
     * Work paid for what is decoded, not only for bytes read: every byte looked at while decoding a
     * name, and every table entry visited, however many section headers share one table (a half-MiB
     * file whose headers all named one table took 78 s under a byte-read budget alone).
     */
    static final long MAX_DECODED = 256L << 20;
    private static final long MAX_ENTRIES_VISITED = 4L << 20;

    /** The dynamic section's names, and the exported symbols (empty when not asked for). */
    public record Info(List<String> needed, String soname, List<String> rpath, List<String> runpath, Set<String> exports) {
    }

    private ElfFile() {
    }

    /**
     * The CPU an ELF file is built for, from its identification bytes and {@code e_machine}.
     *
     * @param code e_machine (62 x86-64, 183 AArch64, 21 PowerPC 64, 3 i386, 40 ARM)
     */
    public record Machine(int code, boolean bits64, boolean littleEndian) {
        public static final int X86_64 = 62;
        public static final int AARCH64 = 183;
        public static final int PPC64 = 21;
        public static final int I386 = 3;
        public static final int ARM = 40;

        /** The archive architecture this machine code runs, or OTHER (32-bit, big-endian, anything cuDNN is not built for). */
        public Arch arch() {
            if (!bits64 || !littleEndian) {
                return Arch.OTHER;
            }
            return switch (code) {
                case X86_64 -> Arch.X86_64;
                case AARCH64 -> Arch.AARCH64;
                case PPC64 -> Arch.PPC64LE;
                default -> Arch.OTHER;
            };
        }

        /** "x86_64", "aarch64 (64-bit ARM)", "ppc64le", "i386 (32-bit x86)", or the number. */
        public String name() {
            String base = switch (code) {
                case X86_64 -> "x86_64";
                case AARCH64 -> "aarch64 (64-bit ARM)";
                case PPC64 -> littleEndian ? "ppc64le" : "ppc64 (big-endian)";
                case I386 -> "i386 (32-bit x86)";
                case ARM -> "arm (32-bit)";
                default -> "ELF machine " + code;
            };
            return base + (!bits64 && (code == X86_64 || code == AARCH64 || code == PPC64) ? " (32-bit ELF)" : "");
        }
    }

    /** The machine an ELF file is built for; empty when it is not an ELF file (or too short to say). */
    public static Optional<Machine> machine(Path file) {
        try (SeekableByteChannel ch = BoundedFiles.open(file)) {
            if (ch.size() < 20) {
                return Optional.empty();
            }
            ByteBuffer h = readAt(ch, 0, 20);
            if (!(h.get(0) == 0x7f && h.get(1) == 'E' && h.get(2) == 'L' && h.get(3) == 'F')) {
                return Optional.empty();
            }
            boolean le = h.get(5) != 2;
            h.order(le ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
            return Optional.of(new Machine(Short.toUnsignedInt(h.getShort(18)), h.get(4) == 2, le));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Why the loader cannot map this file, or empty when its ELF header, program header table,
     * loadable segments and section header table all fit inside it.
     */
    public static Optional<String> damage(Path file) throws IOException {
        try (SeekableByteChannel ch = BoundedFiles.open(file)) {
            long size = ch.size();
            if (size < 64) {
                return Optional.of("it is only " + size + " bytes, too short for an ELF header");
            }
            ByteBuffer h = readAt(ch, 0, 64);
            if (!(h.get(0) == 0x7f && h.get(1) == 'E' && h.get(2) == 'L' && h.get(3) == 'F')) {
                return Optional.of("it is not an ELF shared object (no ELF magic at its start)");
            }
            if (h.get(4) != 2 || h.get(5) != 1) {
                return Optional.of("it is not a 64-bit little-endian ELF file (class " + h.get(4) + ", data " + h.get(5) + ")");
            }
            long phoff = h.getLong(32);
            long shoff = h.getLong(40);
            int phentsize = Short.toUnsignedInt(h.getShort(54));
            int phnum = Short.toUnsignedInt(h.getShort(56));
            int shentsize = Short.toUnsignedInt(h.getShort(58));
            int shnum = Short.toUnsignedInt(h.getShort(60));
            // Every offset is unsigned and every sum is checked: a sum that wraps is damage, not a fit.
            if (!fits(phoff, (long) phentsize * phnum, size)) {
                return Optional.of("its program header table (at byte " + Long.toUnsignedString(phoff) + ", "
                        + (long) phentsize * phnum + " bytes) does not fit the file's " + size + " bytes (cut short or damaged)");
            }
            for (int i = 0; i < phnum && phentsize >= 56; i++) {
                ByteBuffer ph = readAt(ch, phoff + (long) i * phentsize, 56);
                if (ph.getInt(0) == PT_LOAD && !fits(ph.getLong(8), ph.getLong(32), size)) {
                    return Optional.of("its loadable segment " + i + " (at byte " + Long.toUnsignedString(ph.getLong(8)) + ", "
                            + Long.toUnsignedString(ph.getLong(32)) + " bytes) does not fit the file's " + size
                            + " bytes (cut short or damaged)");
                }
            }
            if (shoff != 0 && !fits(shoff, (long) shentsize * shnum, size)) {
                return Optional.of("its section header table (at byte " + Long.toUnsignedString(shoff) + ", "
                        + (long) shentsize * shnum + " bytes) does not fit the file's " + size + " bytes (cut short or damaged)");
            }
            return Optional.empty();
        }
    }

    /** Whether {@code length} bytes at {@code offset} (both unsigned 64-bit) lie inside a file of {@code size} bytes. */
    static boolean fits(long offset, long length, long size) {
        if (offset < 0 || length < 0) {
            return false; // 2^63 or more, unsigned: past any file
        }
        try {
            return Math.addExact(offset, length) <= size;
        } catch (ArithmeticException e) {
            return false;
        }
    }

    /** Reads the dynamic section, and with {@code exports} the defined dynamic symbols. */
    public static Info read(Path file, boolean exports) throws IOException {
        try (SeekableByteChannel ch = BoundedFiles.open(file)) {
            ByteBuffer h = readAt(ch, 0, 64);
            if (!(h.get(0) == 0x7f && h.get(1) == 'E' && h.get(2) == 'L' && h.get(3) == 'F') || h.get(4) != 2 || h.get(5) != 1) {
                throw new IOException(file.getFileName() + " is not a 64-bit little-endian ELF file");
            }
            long shoff = h.getLong(40);
            int shentsize = Short.toUnsignedInt(h.getShort(58));
            int shnum = Short.toUnsignedInt(h.getShort(60));
            if (shoff == 0 || shentsize < 64) {
                throw new IOException(file.getFileName() + " has no section headers");
            }
            if (!fits(shoff, (long) shentsize * shnum, ch.size())) {
                throw new IOException(file.getFileName() + "'s section header table lies outside the file");
            }
            long[] budget = {MAX_TABLES_TOTAL};
            long[] decoded = {MAX_DECODED, MAX_ENTRIES_VISITED};
            Set<List<Long>> seen = new HashSet<>();
            List<ByteBuffer> sections = new ArrayList<>();
            for (int i = 0; i < shnum; i++) {
                sections.add(readAt(ch, shoff + (long) i * shentsize, 64));
            }
            List<String> needed = new ArrayList<>();
            List<String> rpath = new ArrayList<>();
            List<String> runpath = new ArrayList<>();
            String soname = null;
            Set<String> symbols = new LinkedHashSet<>();
            for (ByteBuffer s : sections) {
                int type = s.getInt(4);
                if (type != SHT_DYNAMIC && !(exports && type == SHT_DYNSYM)) {
                    continue;
                }
                int link = s.getInt(40);
                if (link <= 0 || link >= sections.size()) {
                    continue;
                }
                ByteBuffer linked = sections.get(link);
                if (!seen.add(List.of((long) type, s.getLong(24), s.getLong(32), linked.getLong(24), linked.getLong(32)))) {
                    continue; // a second header naming the same table and names: nothing new to decode
                }
                byte[] strtab = table(ch, sections.get(link), budget);
                ByteBuffer body = ByteBuffer.wrap(table(ch, s, budget)).order(ByteOrder.LITTLE_ENDIAN);
                if (type == SHT_DYNAMIC) {
                    for (int at = 0; at + 16 <= body.limit(); at += 16) {
                        long tag = body.getLong(at);
                        long val = body.getLong(at + 8);
                        if (tag == 0) {
                            break;
                        }
                        visit(decoded, file);
                        if (needed.size() + rpath.size() + runpath.size() > MAX_DYNAMIC_NAMES) {
                            throw new IOException(file.getFileName() + " names more than " + MAX_DYNAMIC_NAMES
                                    + " libraries and folders in its dynamic section");
                        }
                        if (tag == DT_NEEDED) {
                            needed.add(string(strtab, val, decoded, file));
                        } else if (tag == DT_SONAME) {
                            soname = string(strtab, val, decoded, file);
                        } else if (tag == DT_RPATH) {
                            rpath.addAll(List.of(pathList(file, "DT_RPATH", strtab, val, decoded).split(":")));
                        } else if (tag == DT_RUNPATH) {
                            runpath.addAll(List.of(pathList(file, "DT_RUNPATH", strtab, val, decoded).split(":")));
                        }
                    }
                } else {
                    for (int at = 24; at + 24 <= body.limit(); at += 24) { // entry 0 is the null symbol
                        visit(decoded, file);
                        int bind = (body.get(at + 4) & 0xff) >>> 4;
                        int shndx = Short.toUnsignedInt(body.getShort(at + 6));
                        if (shndx != 0 && (bind == 1 || bind == 2)) {
                            String name = string(strtab, Integer.toUnsignedLong(body.getInt(at)), decoded, file);
                            if (!name.isEmpty() && symbols.add(name)) {
                                budget[0] -= name.length();
                            }
                            if (symbols.size() > MAX_SYMBOLS || budget[0] < 0) {
                                throw new IOException(file.getFileName() + " exports more names than any library could");
                            }
                        }
                    }
                }
            }
            return new Info(needed, soname, rpath, runpath, symbols);
        }
    }

    /** DT_RPATH/DT_RUNPATH entries as folders, $ORIGIN replaced by the library's folder. */
    public static List<Path> expand(List<String> entries, Path library) {
        List<Path> out = new ArrayList<>();
        Path origin = library.toAbsolutePath().getParent();
        for (String e : entries) {
            if (e.isBlank()) {
                continue;
            }
            String v = e.replace("${ORIGIN}", "$ORIGIN");
            try {
                out.add(v.startsWith("$ORIGIN") ? origin.resolve("." + v.substring("$ORIGIN".length())).normalize()
                        : library.getFileSystem().getPath(v));
            } catch (RuntimeException ignored) {
                // an entry no loader could use either
            }
        }
        return out;
    }

    private static byte[] table(SeekableByteChannel ch, ByteBuffer section, long[] budget) throws IOException {
        long offset = section.getLong(24);
        long size = section.getLong(32);
        if (size < 0 || size > MAX_TABLE || !fits(offset, size, ch.size())) {
            throw new IOException("a section lies outside the file");
        }
        budget[0] -= size;
        if (budget[0] < 0) {
            throw new IOException("its dynamic tables add up to more than " + (MAX_TABLES_TOTAL >> 20) + " MiB");
        }
        ByteBuffer b = readAt(ch, offset, (int) size);
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /**
     * The DT_RPATH/DT_RUNPATH string at {@code offset}, whole, up to {@link #MAX_PATH_LIST} bytes: one the
     * loader would read but the tool cannot (longer, unterminated, outside the string table) is an
     * error that names it, so a search path is never taken as absent. The bytes looked at are paid from
     * {@code decoded[0]} like any name's.
     */
    private static String pathList(Path file, String tag, byte[] tab, long offset, long[] decoded) throws IOException {
        if (offset < 0 || offset >= tab.length) {
            throw new IOException(file.getFileName() + "'s " + tag + " lies outside its string table");
        }
        int end = (int) offset;
        int stop = (int) Math.min(tab.length, offset + MAX_PATH_LIST + 1L);
        while (end < stop && tab[end] != 0) {
            end++;
        }
        if (end == stop) {
            throw new IOException(file.getFileName() + "'s " + tag + (stop == tab.length ? " is not terminated"
                    : " is longer than " + (MAX_PATH_LIST >> 10) + " KiB, too long to read"));
        }
        decoded[0] -= end - offset + 1;
        if (decoded[0] < 0) {
            throw new IOException(file.getFileName() + " has more names than any library could");
        }
        return new String(tab, (int) offset, end - (int) offset, StandardCharsets.UTF_8);
    }

    /** One more table entry visited; past {@link #MAX_ENTRIES_VISITED} the file is refused. */
    private static void visit(long[] decoded, Path file) throws IOException {
        if (--decoded[1] < 0) {
            throw new IOException(file.getFileName() + " has more dynamic entries and symbols than any library could");
        }
    }

    /**
     * The NUL-terminated name at {@code offset}; "" when it is outside the table, unterminated or over
     * MAX_NAME bytes. Every byte looked at is paid from {@code decoded[0]}.
     */
    private static String string(byte[] tab, long offset, long[] decoded, Path file) throws IOException {
        if (offset < 0 || offset >= tab.length) {
            return "";
        }
        int end = (int) offset;
        int stop = (int) Math.min(tab.length, offset + MAX_NAME + 1);
        while (end < stop && tab[end] != 0) {
            end++;
        }
        decoded[0] -= end - offset + 1;
        if (decoded[0] < 0) {
            throw new IOException(file.getFileName() + "'s names add up to more than " + (MAX_DECODED >> 20)
                    + " MiB decoded, more than any library's");
        }
        if (end == stop) {
            return "";
        }
        return new String(tab, (int) offset, end - (int) offset, StandardCharsets.UTF_8);
    }

    private static ByteBuffer readAt(SeekableByteChannel ch, long pos, int len) throws IOException {
        if (len < 0 || !fits(pos, len, ch.size())) {
            throw new IOException("truncated ELF file");
        }
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
        ch.position(pos);
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("truncated ELF file");
            }
        }
        b.flip();
        return b;
    }
}
