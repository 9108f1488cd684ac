package dev.cudnntool.archive.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.ArchiveReport;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.testing.ArchiveFixture;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * #32 item 9: a zip whose local headers disagree with its central directory, or with another archive
 * put in front of it, after it or in its comment, is refused (exit 3, one line): a reader of local
 * headers and a reader of the directory would install different bytes. Seeded over entries and kinds.
 */
class ZipReadersAgreeTest {
    private static final long SEED = 0x3209_2L;

    @TempDir
    Path dir;

    private record Cen(int at, int loc, String name, int flags) {
    }

    private static List<Cen> directory(byte[] z) {
        ByteBuffer b = ByteBuffer.wrap(z).order(ByteOrder.LITTLE_ENDIAN);
        int eocd = z.length - 22;
        assertEquals(0x06054b50, b.getInt(eocd));
        List<Cen> out = new ArrayList<>();
        for (int p = b.getInt(eocd + 16); p < eocd; ) {
            assertEquals(0x02014b50, b.getInt(p));
            int n = b.getShort(p + 28) & 0xffff;
            out.add(new Cen(p, b.getInt(p + 42), new String(z, p + 46, n), b.getShort(p + 8) & 0xffff));
            p += 46 + n + (b.getShort(p + 30) & 0xffff) + (b.getShort(p + 32) & 0xffff);
        }
        return out;
    }

    private Path write(String sub, byte[] bytes, Path like) throws Exception {
        Path p = Files.createDirectories(dir.resolve(sub)).resolve(like.getFileName());
        Files.write(p, bytes);
        return p;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(a, 0, a.length);
        out.write(b, 0, b.length);
        return out.toByteArray();
    }

    @Test
    void theUntouchedFixtureIsRead() throws Exception {
        Path zip = ArchiveFixture.windows("8.9.5.30", "12").writeTo(dir);
        ArchiveReport r = new ArchiveInspector().inspect(zip, ArchiveName.parse(zip.getFileName().toString()), null);
        assertTrue(r.acceptable(), r.findings().toString());
    }

    @TestFactory
    Stream<DynamicTest> disagreeingZipsAreRefused() throws Exception {
        Path clean = ArchiveFixture.windows("8.9.5.30", "12").writeTo(Files.createDirectories(dir.resolve("clean")));
        byte[] z = Files.readAllBytes(clean);
        List<Cen> cen = directory(z);
        List<Cen> files = cen.stream().filter(c -> !c.name().endsWith("/")).toList();
        Random rnd = new Random(SEED);
        List<DynamicTest> out = new ArrayList<>();
        String[] kinds = {"local name", "local method", "local crc", "descriptor crc", "appended archive", "prepended archive",
            "appended bytes", "archive in the comment", "gap between entries"};
        for (int round = 0; round < 3; round++) {
            for (String kind : kinds) {
                Cen c = files.get(rnd.nextInt(files.size()));
                int junk = 1 + rnd.nextInt(200);
                int n = out.size();
                out.add(DynamicTest.dynamicTest(kind + " (" + c.name().substring(c.name().lastIndexOf('/') + 1) + ")", () -> {
                    byte[] b = z.clone();
                    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
                    int loc = c.loc();
                    switch (kind) {
                        case "local name" -> b[loc + 30 + c.name().length() - 1] ^= 0x01; // the last letter of the name
                        case "local method" -> bb.putShort(loc + 8, (short) ((bb.getShort(loc + 8) & 0xffff) == 8 ? 0 : 8));
                        case "local crc" -> bb.putInt(loc + 14, bb.getInt(c.at() + 16) ^ 0x5a5a5a5a);
                        case "descriptor crc" -> {
                            if ((c.flags() & 8) == 0) { // no descriptor: its header's crc then
                                bb.putInt(loc + 14, bb.getInt(c.at() + 16) + 1);
                            } else {
                                int data = loc + 30 + (bb.getShort(loc + 26) & 0xffff) + (bb.getShort(loc + 28) & 0xffff);
                                int d = data + bb.getInt(c.at() + 20);
                                int crcAt = bb.getInt(d) == 0x08074b50 ? d + 4 : d;
                                bb.putInt(crcAt, bb.getInt(crcAt) + 1);
                            }
                        }
                        case "appended archive" -> b = concat(b, z);
                        case "prepended archive" -> b = concat(z, b);
                        case "appended bytes" -> b = concat(b, new byte[junk]);
                        case "archive in the comment" -> {
                            b = concat(b, z);
                            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(z.length - 22 + 20, (short) z.length);
                        }
                        case "gap between entries" -> { // junk before this entry, every later offset moved past it
                            ByteArrayOutputStream o = new ByteArrayOutputStream();
                            o.write(b, 0, loc);
                            o.write(new byte[junk], 0, junk);
                            o.write(b, loc, b.length - loc);
                            b = o.toByteArray();
                            ByteBuffer nb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
                            for (Cen x : cen) {
                                if (x.loc() >= loc) {
                                    nb.putInt(x.at() + junk + 42, x.loc() + junk);
                                }
                            }
                            int eocd = b.length - 22;
                            nb.putInt(eocd + 16, nb.getInt(eocd + 16) + junk);
                        }
                        default -> throw new AssertionError(kind);
                    }
                    Path bad = write("case" + n, b, clean);
                    String m = ZipReadingTest.refused(bad).getMessage();
                    assertTrue(m.contains("is damaged") || m.contains("not a") || m.contains("zip"), m);
                }));
            }
        }
        return out.stream();
    }
}
