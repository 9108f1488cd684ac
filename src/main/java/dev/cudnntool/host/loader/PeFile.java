package dev.cudnntool.host.loader;
import dev.cudnntool.BoundedFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the two things the tool needs from a Windows DLL, in pure Java and on any file system:
 * the machine type of its PE header, and FileVersion from its VS_FIXEDFILEINFO resource. Only
 * the headers and the .rsrc section are read, never the whole (often 500 MB) image.
 */
public final class PeFile {
    public static final int MACHINE_X64 = 0x8664;
    public static final int MACHINE_I386 = 0x14c;
    public static final int MACHINE_ARM64 = 0xaa64;
    private static final int FIXED_FILE_INFO_SIGNATURE = 0xFEEF04BD;
    private static final int MAX_RSRC = 16 << 20;

    /** @param fileVersion "8.9.7.29", or null when the image has no version resource */
    public record Info(int machine, String fileVersion) {
        public boolean x64() {
            return machine == MACHINE_X64;
        }

        public String machineName() {
            return switch (machine) {
                case MACHINE_X64 -> "x64";
                case MACHINE_I386 -> "x86 (32-bit)";
                case MACHINE_ARM64 -> "ARM64";
                default -> String.format("0x%04x", machine);
            };
        }
    }

    private PeFile() {
    }

    public static Info read(Path file) throws IOException {
        try (SeekableByteChannel ch = BoundedFiles.open(file)) {
            ByteBuffer dos = readAt(ch, 0, 64);
            if (dos.getShort(0) != 0x5A4D) { // "MZ"
                throw new IOException(file.getFileName() + " is not a Windows executable (no MZ header)");
            }
            long peOffset = Integer.toUnsignedLong(dos.getInt(0x3C));
            ByteBuffer coff = readAt(ch, peOffset, 24);
            if (coff.getInt(0) != 0x00004550) { // "PE\0\0"
                throw new IOException(file.getFileName() + " is not a PE image (no PE signature)");
            }
            int machine = Short.toUnsignedInt(coff.getShort(4));
            int sections = Short.toUnsignedInt(coff.getShort(6));
            int optionalSize = Short.toUnsignedInt(coff.getShort(20));
            long table = peOffset + 24 + optionalSize;
            String version = null;
            for (int i = 0; i < sections && i < 96; i++) {
                ByteBuffer s = readAt(ch, table + 40L * i, 40);
                byte[] nameBytes = new byte[8];
                s.get(0, nameBytes);
                String name = new String(nameBytes, StandardCharsets.US_ASCII).replace("\0", "");
                if (name.equals(".rsrc")) {
                    long rawSize = Integer.toUnsignedLong(s.getInt(16));
                    long rawPtr = Integer.toUnsignedLong(s.getInt(20));
                    version = fixedFileVersion(readAt(ch, rawPtr, (int) Math.min(rawSize, MAX_RSRC)));
                    break;
                }
            }
            return new Info(machine, version);
        }
    }

    /**
     * Why Windows cannot map this image, or empty when its headers, section table and every
     * section's raw data fit inside the file (a copy cut short fails otherwise).
     */
    public static Optional<String> damage(Path file) throws IOException {
        try (SeekableByteChannel ch = BoundedFiles.open(file)) {
            long size = ch.size();
            if (size < 64) {
                return Optional.of("it is only " + size + " bytes, too short for a DLL");
            }
            ByteBuffer dos = readAt(ch, 0, 64);
            if (dos.getShort(0) != 0x5A4D) {
                return Optional.of("it is not a Windows DLL (no MZ header)");
            }
            long peOffset = Integer.toUnsignedLong(dos.getInt(0x3C));
            if (peOffset + 24 > size) {
                return Optional.of("its PE header lies past the end of the file (cut short)");
            }
            ByteBuffer coff = readAt(ch, peOffset, 24);
            int sections = Short.toUnsignedInt(coff.getShort(6));
            long table = peOffset + 24 + Short.toUnsignedInt(coff.getShort(20));
            if (table + 40L * sections > size) {
                return Optional.of("its section table ends at byte " + (table + 40L * sections)
                        + " but the file has " + size + " bytes (cut short)");
            }
            for (int i = 0; i < sections; i++) {
                ByteBuffer s = readAt(ch, table + 40L * i, 40);
                long end = Integer.toUnsignedLong(s.getInt(20)) + Integer.toUnsignedLong(s.getInt(16));
                if (Integer.toUnsignedLong(s.getInt(16)) > 0 && end > size) {
                    return Optional.of("its section " + i + " ends at byte " + end + " but the file has " + size
                            + " bytes (cut short)");
                }
            }
            return Optional.empty();
        }
    }

    /** The names a DLL exports (its export directory's name table), as dumpbin /exports lists them. */
    public static Set<String> exports(Path file) throws IOException {
        try (SeekableByteChannel ch = BoundedFiles.open(file)) {
            ByteBuffer dos = readAt(ch, 0, 64);
            if (dos.getShort(0) != 0x5A4D) {
                throw new IOException(file.getFileName() + " is not a Windows executable (no MZ header)");
            }
            long peOffset = Integer.toUnsignedLong(dos.getInt(0x3C));
            ByteBuffer coff = readAt(ch, peOffset, 24);
            int sections = Short.toUnsignedInt(coff.getShort(6));
            int optionalSize = Short.toUnsignedInt(coff.getShort(20));
            if (optionalSize < 2) {
                // not even the optional header's magic: no data directories to read (a typed refusal, never an index error)
                throw new IOException(file.getFileName() + " has a truncated optional header (" + optionalSize + " bytes)");
            }
            ByteBuffer opt = readAt(ch, peOffset + 24, optionalSize);
            int dirStart = opt.getShort(0) == 0x20b ? 112 : 96; // PE32+ or PE32: the data directories
            if (optionalSize < dirStart + 8) {
                return Set.of();
            }
            long exportRva = Integer.toUnsignedLong(opt.getInt(dirStart));
            long table = peOffset + 24 + optionalSize;
            long[][] map = new long[Math.min(sections, 96)][];
            for (int i = 0; i < map.length; i++) {
                ByteBuffer s = readAt(ch, table + 40L * i, 40);
                map[i] = new long[] {Integer.toUnsignedLong(s.getInt(12)), Integer.toUnsignedLong(s.getInt(8)),
                        Integer.toUnsignedLong(s.getInt(20)), Integer.toUnsignedLong(s.getInt(16))};
            }
            Set<String> out = new LinkedHashSet<>();
            if (exportRva == 0) {
                return out;
            }
            ByteBuffer dir = readAt(ch, offset(map, exportRva), 40);
            int names = dir.getInt(24);
            long namePointers = offset(map, Integer.toUnsignedLong(dir.getInt(32)));
            if (names < 0 || names > 1 << 20) {
                throw new IOException("implausible export table");
            }
            ByteBuffer ptrs = readAt(ch, namePointers, names * 4);
            long decoded = 64L << 20; // paid per byte read for a name, however many pointers share one name
            for (int i = 0; i < names; i++) {
                long at = offset(map, Integer.toUnsignedLong(ptrs.getInt(i * 4)));
                if (at >= ch.size()) {
                    throw new IOException("an export name lies past the end of the file");
                }
                ByteBuffer n = readAt(ch, at, (int) Math.min(256, ch.size() - at));
                StringBuilder sb = new StringBuilder();
                while (n.hasRemaining()) {
                    byte b = n.get();
                    if (b == 0) {
                        break;
                    }
                    sb.append((char) b);
                }
                decoded -= n.limit(); // the bytes read for this name, shared or not
                if (decoded < 0) {
                    throw new IOException(file.getFileName() + "'s export names add up to more than any DLL's");
                }
                out.add(sb.toString());
            }
            return out;
        }
    }

    /** A relative virtual address to a file offset through the section table {va, vsize, raw, rawsize}. */
    private static long offset(long[][] map, long rva) throws IOException {
        for (long[] s : map) {
            if (rva >= s[0] && rva < s[0] + Math.max(s[1], s[3])) {
                return s[2] + (rva - s[0]);
            }
        }
        throw new IOException("an address outside every section");
    }

    /** Finds VS_FIXEDFILEINFO by its signature (DWORD-aligned) and decodes dwFileVersionMS/LS. */
    static String fixedFileVersion(ByteBuffer rsrc) {
        for (int i = 0; i + 16 <= rsrc.limit(); i += 4) {
            if (rsrc.getInt(i) == FIXED_FILE_INFO_SIGNATURE) {
                int ms = rsrc.getInt(i + 8);
                int ls = rsrc.getInt(i + 12);
                return (ms >>> 16) + "." + (ms & 0xffff) + "." + (ls >>> 16) + "." + (ls & 0xffff);
            }
        }
        return null;
    }

    private static ByteBuffer readAt(SeekableByteChannel ch, long pos, int len) throws IOException {
        if (len < 0 || !ElfFile.fits(pos, len, ch.size())) {
            throw new IOException("truncated PE image: " + len + " bytes at " + pos + " lie outside its " + ch.size() + " bytes");
        }
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
        ch.position(pos);
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("truncated PE image");
            }
        }
        b.flip();
        return b;
    }
}
