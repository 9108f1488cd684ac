package dev.cudnntool.testing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Minimal but well-formed PE images: DOS header, PE signature, COFF header with the machine
 * type, an optional-header-sized gap, one .rsrc section holding a VS_FIXEDFILEINFO. Enough for
 * the tool's PE reader; real DLLs from NVIDIA are tested in the real-cudnn profile.
 */
public final class PeImages {
    public static final int X64 = 0x8664;
    public static final int I386 = 0x14c;
    public static final int ARM64 = 0xaa64;

    private PeImages() {
    }

    public static byte[] dll(int machine, String fileVersion) {
        int peOffset = 0x80;
        int optionalSize = 0xF0;
        int sectionTable = peOffset + 24 + optionalSize;
        int rsrcOffset = 0x400;
        int rsrcSize = 0x200;
        ByteBuffer b = ByteBuffer.allocate(rsrcOffset + rsrcSize).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(0, (short) 0x5A4D);
        b.putInt(0x3C, peOffset);
        b.putInt(peOffset, 0x00004550);
        b.putShort(peOffset + 4, (short) machine);
        b.putShort(peOffset + 6, (short) 1);
        b.putShort(peOffset + 20, (short) optionalSize);
        byte[] name = ".rsrc\0\0\0".getBytes(StandardCharsets.US_ASCII);
        b.put(sectionTable, name);
        b.putInt(sectionTable + 8, rsrcSize);
        b.putInt(sectionTable + 12, 0x1000);
        b.putInt(sectionTable + 16, rsrcSize);
        b.putInt(sectionTable + 20, rsrcOffset);
        if (fileVersion != null) {
            String[] v = fileVersion.split("\\.");
            int at = rsrcOffset + 0x40; // DWORD-aligned, after some resource directory bytes
            b.putInt(at, 0xFEEF04BD);
            b.putInt(at + 4, 0x00010000);
            b.putInt(at + 8, Integer.parseInt(v[0]) << 16 | Integer.parseInt(v[1]));
            b.putInt(at + 12, Integer.parseInt(v[2]) << 16 | Integer.parseInt(v[3]));
        }
        return b.array();
    }
}
