package dev.cudnntool.host.loader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cudnntool.Arch;
import dev.cudnntool.testing.ElfImages;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ElfFileTest {
    @TempDir
    Path tmp;

    @Test
    void readsTheDynamicSectionAndTheExportsOfAMadeUpLibrary() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Path lib = fs.getPath("/lib/libcudnn_graph.so.9");
        Files.createDirectories(lib.getParent());
        Files.write(lib, ElfImages.so("libcudnn_graph.so.9", List.of("libz.so.1", "libc.so.6"), "$ORIGIN",
                List.of("cudnnBackendCreateDescriptor", "cudnnGetVersion")));
        assertEquals(Optional.empty(), ElfFile.damage(lib));
        ElfFile.Info info = ElfFile.read(lib, true);
        assertEquals(List.of("libz.so.1", "libc.so.6"), info.needed());
        assertEquals("libcudnn_graph.so.9", info.soname());
        assertEquals(List.of("$ORIGIN"), info.runpath());
        assertEquals(Set.of("cudnnBackendCreateDescriptor", "cudnnGetVersion"), info.exports());
        assertEquals(List.of(fs.getPath("/lib")), ElfFile.expand(info.runpath(), lib));
    }

    @Test
    void aLibraryCutToHalfItsSizeIsDamaged() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Path lib = fs.getPath("/libcudnn.so.9");
        byte[] whole = ElfImages.cudnn("libcudnn.so.9");
        Files.write(lib, Arrays.copyOf(whole, whole.length / 2));
        String why = ElfFile.damage(lib).orElseThrow();
        assertTrue(why.contains("cut short") && why.contains("bytes"), why);
        Files.writeString(lib, "#!/bin/sh\n# not a library but a script that someone saved under the library's name\n");
        assertTrue(ElfFile.damage(lib).orElseThrow().contains("not an ELF"));
    }

    /** The same on a real shared object of this machine: the JVM's own libjava.so. */
    @Test
    void aRealSharedObjectReadsAndItsTruncatedCopyIsDamaged() throws Exception {
        Path real = Path.of(System.getProperty("java.home"), "lib", "libjava.so");
        assumeTrue(Files.isRegularFile(real), "not a Linux JVM: no libjava.so");
        assertEquals(Optional.empty(), ElfFile.damage(real));
        ElfFile.Info info = ElfFile.read(real, true);
        assertEquals("libjava.so", info.soname());
        assertTrue(info.exports().contains("JNU_ThrowNullPointerException"), info.exports().toString());
        Path cut = tmp.resolve("libjava.so");
        byte[] b = Files.readAllBytes(real);
        Files.write(cut, Arrays.copyOf(b, b.length / 2));
        assertTrue(ElfFile.damage(cut).isPresent());
    }

    /** #19 A3: the CPU an image is built for, from e_machine, little- and big-endian, 32- and 64-bit. */
    @Test
    void theMachineOfAnImageIsReadFromItsHeader() throws Exception {
        FileSystem fs = TestHosts.unixFs();
        Path lib = fs.getPath("/lib/libcudnn.so.9");
        Files.createDirectories(lib.getParent());
        byte[] x86 = ElfImages.cudnn("libcudnn.so.9");
        Files.write(lib, x86);
        assertEquals(Arch.X86_64, ElfFile.machine(lib).orElseThrow().arch());
        Files.write(lib, ElfImages.forMachine(x86, ElfImages.AARCH64));
        assertEquals(Arch.AARCH64, ElfFile.machine(lib).orElseThrow().arch());
        assertTrue(ElfFile.machine(lib).orElseThrow().name().startsWith("aarch64"));
        Files.write(lib, ElfImages.forMachine(x86, ElfImages.PPC64));
        assertEquals(Arch.PPC64LE, ElfFile.machine(lib).orElseThrow().arch());
        assertEquals("ppc64le", ElfFile.machine(lib).orElseThrow().name());
        byte[] big = ElfImages.forMachine(x86, 0);
        big[5] = 2; // ELFDATA2MSB
        big[18] = 0;
        big[19] = (byte) ElfImages.PPC64;
        Files.write(lib, big);
        assertEquals(Arch.OTHER, ElfFile.machine(lib).orElseThrow().arch());
        assertEquals("ppc64 (big-endian)", ElfFile.machine(lib).orElseThrow().name());
        byte[] i386 = ElfImages.forMachine(x86, ElfImages.I386);
        i386[4] = 1; // ELFCLASS32
        Files.write(lib, i386);
        assertEquals(Arch.OTHER, ElfFile.machine(lib).orElseThrow().arch());
        Files.write(lib, new byte[] {0x7f, 'E', 'L', 'F'});
        assertEquals(Optional.empty(), ElfFile.machine(lib));
        Files.writeString(lib, "not an ELF file at all, but long enough");
        assertEquals(Optional.empty(), ElfFile.machine(lib));
    }
}
