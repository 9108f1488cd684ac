package dev.cudnntool.host.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.PeImages;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * #35: ELF and PE work is bounded by what is decoded (names decoded, table entries visited), not
 * only by bytes read; a PE image with a truncated optional header is a typed refusal. The time
 * limits are hang guards only (the shared-table ELF took 78 s before).
 */
class DecodeBoundTest {
    @TempDir
    Path dir;

    /** The image with {@code copies} more section headers, each a copy of header {@code which}, appended at its end. */
    static byte[] withSharedHeaders(byte[] elf, int which, int copies, int sizeStep) {
        ByteBuffer in = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
        long shoff = in.getLong(40);
        int shnum = Short.toUnsignedInt(in.getShort(60));
        byte[] proto = new byte[64];
        System.arraycopy(elf, (int) shoff + 64 * which, proto, 0, 64);
        int total = Math.min(65535, shnum + copies);
        ByteBuffer out = ByteBuffer.allocate(elf.length + 64 * (total - shnum)).order(ByteOrder.LITTLE_ENDIAN);
        out.put(elf);
        for (int i = shnum; i < total; i++) {
            int at = elf.length + 64 * (i - shnum);
            out.put(at, proto);
            long size = out.getLong(at + 32);
            out.putLong(at + 32, Math.max(24, size - (long) sizeStep * (i - shnum) / 24 * 24));
        }
        // the original headers move to the end too, so the header table is one run
        ByteBuffer table = ByteBuffer.allocate(64 * total).order(ByteOrder.LITTLE_ENDIAN);
        table.put(0, elf, (int) shoff, 64 * shnum);
        table.put(64 * shnum, out.array(), elf.length, 64 * (total - shnum));
        ByteBuffer whole = ByteBuffer.allocate(elf.length + 64 * total).order(ByteOrder.LITTLE_ENDIAN);
        whole.put(0, elf);
        whole.put(elf.length, table.array());
        whole.putLong(40, elf.length);
        whole.putShort(60, (short) total);
        whole.putLong(64 + 32, whole.capacity()).putLong(64 + 40, whole.capacity()); // the one PT_LOAD covers it all
        return whole.array();
    }

    private static List<String> names(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(String.format("cudnnExportedName_%012d", i));
        }
        return out;
    }

    @Test
    void sectionHeadersSharingOneTableDecodeItOnce() throws Exception {
        byte[] elf = ElfImages.so("libcudnn.so.9", List.of("libc.so.6"), null, names(20_000));
        Path f = dir.resolve("libcudnn.so.9");
        Files.write(f, withSharedHeaders(elf, 2, 8_000, 0));
        ElfFile.Info info = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> ElfFile.read(f, true));
        assertEquals(20_000, info.exports().size());
        assertEquals(List.of("libc.so.6"), info.needed());
    }

    @Test
    void headersNamingEverShorterViewsOfOneTableStopAtTheDecodeBudget() throws Exception {
        byte[] elf = ElfImages.so("libcudnn.so.9", List.of(), null, names(20_000));
        Path f = dir.resolve("libcudnn.so.9");
        Files.write(f, withSharedHeaders(elf, 2, 8_000, 24));
        IOException e = assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> assertThrows(IOException.class, () -> ElfFile.read(f, true)));
        assertTrue(e.getMessage().contains("more"), e.getMessage());
    }

    @Test
    void aTruncatedOptionalHeaderIsATypedRefusal() throws Exception {
        for (int optionalSize : new int[] {0, 1}) {
            byte[] dll = PeImages.dll(PeImages.X64, "9.5.1.17");
            ByteBuffer.wrap(dll).order(ByteOrder.LITTLE_ENDIAN).putShort(0x80 + 20, (short) optionalSize);
            Path f = dir.resolve("cudnn64_9.dll");
            Files.write(f, dll);
            IOException e = assertThrows(IOException.class, () -> PeFile.exports(f));
            assertTrue(e.getMessage().contains("optional header"), e.getMessage());
        }
    }
}
