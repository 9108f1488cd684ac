package dev.cudnntool.testing;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Minimal but well-formed ELF64 shared objects for jimfs tests: an ELF header, one PT_LOAD
 * segment covering the file, and .dynstr, .dynsym and .dynamic sections with the given soname,
 * DT_NEEDED, DT_RUNPATH and exported functions; the section header table at the end, as ld puts it.
 */
public final class ElfImages {
    private ElfImages() {
    }

    public static byte[] so(String soname, List<String> needed, String runpath, List<String> exports) {
        return so(soname, needed, RUNPATH, runpath, exports);
    }

    /** DT_RPATH and DT_RUNPATH, the tags {@link #so(String, List, int, String, List)} writes the folders under. */
    public static final int RPATH = 15;
    public static final int RUNPATH = 29;

    /** As {@link #so(String, List, String, List)}, the folders written under {@code pathTag} (RPATH or RUNPATH). */
    public static byte[] so(String soname, List<String> needed, int pathTag, String runpath, List<String> exports) {
        ByteArrayOutputStream strs = new ByteArrayOutputStream();
        strs.write(0);
        int sonameOff = add(strs, soname);
        int[] neededOff = needed.stream().mapToInt(n -> add(strs, n)).toArray();
        int runpathOff = runpath == null ? -1 : add(strs, runpath);
        int[] symOff = exports.stream().mapToInt(n -> add(strs, n)).toArray();
        byte[] dynstr = strs.toByteArray();

        ByteBuffer dynsym = le(24 * (exports.size() + 1));
        for (int i = 0; i < exports.size(); i++) {
            int at = 24 * (i + 1);
            dynsym.putInt(at, symOff[i]);
            dynsym.put(at + 4, (byte) 0x12); // GLOBAL FUNC
            dynsym.putShort(at + 6, (short) 5); // defined in section 5 (any non-zero)
            dynsym.putLong(at + 8, 0x1000 + i * 16L);
        }
        int dynCount = needed.size() + 1 + (runpath == null ? 0 : 1) + 1;
        ByteBuffer dynamic = le(16 * dynCount);
        int d = 0;
        for (int off : neededOff) {
            dynamic.putLong(d, 1).putLong(d + 8, off);
            d += 16;
        }
        dynamic.putLong(d, 14).putLong(d + 8, sonameOff);
        d += 16;
        if (runpath != null) {
            dynamic.putLong(d, pathTag).putLong(d + 8, runpathOff);
            d += 16;
        }
        dynamic.putLong(d, 0).putLong(d + 8, 0);

        int phoff = 64;
        int dynstrOff = phoff + 56;
        int dynsymOff = align(dynstrOff + dynstr.length);
        int dynamicOff = align(dynsymOff + dynsym.capacity());
        int shoff = align(dynamicOff + dynamic.capacity());
        int shnum = 4;
        int size = shoff + 64 * shnum;
        ByteBuffer f = le(size);
        f.put(0, (byte) 0x7f).put(1, (byte) 'E').put(2, (byte) 'L').put(3, (byte) 'F');
        f.put(4, (byte) 2).put(5, (byte) 1).put(6, (byte) 1);
        f.putShort(16, (short) 3).putShort(18, (short) 62).putInt(20, 1);
        f.putLong(32, phoff).putLong(40, shoff);
        f.putShort(52, (short) 64).putShort(54, (short) 56).putShort(56, (short) 1);
        f.putShort(58, (short) 64).putShort(60, (short) shnum).putShort(62, (short) 0);
        f.putInt(phoff, 1).putInt(phoff + 4, 5).putLong(phoff + 8, 0).putLong(phoff + 32, size).putLong(phoff + 40, size);
        f.put(dynstrOff, dynstr);
        f.put(dynsymOff, dynsym.array());
        f.put(dynamicOff, dynamic.array());
        section(f, shoff + 64, 3, dynstrOff, dynstr.length, 0, 0);
        section(f, shoff + 128, 11, dynsymOff, dynsym.capacity(), 1, 24);
        section(f, shoff + 192, 6, dynamicOff, dynamic.capacity(), 1, 16);
        return f.array();
    }

    /** EM_X86_64, EM_AARCH64, EM_PPC64 (ppc64le when little-endian), EM_386. */
    public static final int X86_64 = 62;
    public static final int AARCH64 = 183;
    public static final int PPC64 = 21;
    public static final int I386 = 3;

    /** The same image built for another CPU: its {@code e_machine} set (little-endian, as x86_64, aarch64 and ppc64le are). */
    public static byte[] forMachine(byte[] elf, int machine) {
        byte[] out = elf.clone();
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putShort(18, (short) machine);
        return out;
    }

    /** A library exporting cuDNN's version functions, needing nothing. */
    public static byte[] cudnn(String soname) {
        return so(soname, List.of("libc.so.6"), "$ORIGIN", List.of("cudnnGetVersion", "cudnnCreate"));
    }

    private static void section(ByteBuffer f, int at, int type, long offset, long size, int link, int entsize) {
        f.putInt(at + 4, type).putLong(at + 24, offset).putLong(at + 32, size).putInt(at + 40, link).putLong(at + 56, entsize);
    }

    private static int add(ByteArrayOutputStream strs, String s) {
        int off = strs.size();
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        strs.write(b, 0, b.length);
        strs.write(0);
        return off;
    }

    private static int align(int n) {
        return (n + 7) & ~7;
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }
}
