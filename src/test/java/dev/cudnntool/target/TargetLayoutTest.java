package dev.cudnntool.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.EntryRole;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.RealPaths;
import dev.cudnntool.testing.Seeds;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link TargetLayout}: the one answer to "which folders of this target hold libraries, headers and import
 * libraries" (#29 item 2). The property below is the reason it is one type: what install puts into a
 * target, verify looks for in the same folders.
 */
class TargetLayoutTest {
    private static final ArchiveName LINUX_9 = ArchiveName.parse("cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz");
    private static final ArchiveName LINUX_LEGACY = ArchiveName.parse("cudnn-11.4-linux-x64-v8.2.4.15.tgz");
    private static final ArchiveName WINDOWS_9_5 = ArchiveName.parse("cudnn-windows-x86_64-9.5.1.17_cuda12-archive.zip");
    private static final ArchiveName WINDOWS_9_18 = ArchiveName.parse("cudnn-windows-x86_64-9.18.0.77_cuda13-archive.zip");
    private static final ArchiveName WINDOWS_WHEEL = ArchiveName.parse("nvidia_cudnn_cu12-9.5.1.17-py3-none-win_amd64.whl");

    @Test
    void aToolkitSpreadsCudnnIntoItsOwnFolders() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path root = Files.createDirectories(fs.getPath("/usr/local/cuda-12.6"));
        TargetLayout linux = TargetLayout.toolkit(root, OsFamily.LINUX);
        assertEquals(root.resolve("lib64"), linux.runtimeDir(LINUX_9));
        assertEquals(Optional.of(root.resolve("include/cudnn_version.h")),
                linux.destination(LINUX_9, EntryRole.HEADER, "include/cudnn_version.h"));
        assertEquals(Optional.of(root.resolve("lib64/libcudnn.so.9")),
                linux.destination(LINUX_9, EntryRole.RUNTIME_LIBRARY, "lib/libcudnn.so.9"), "lib/** is flattened into lib64");
        assertEquals(Optional.empty(), linux.destination(LINUX_9, EntryRole.LICENSE, "LICENSE"));
        assertEquals(List.of(root.resolve("lib64"), root.resolve("include")), linux.destinationDirs(LINUX_9));

        TargetLayout windows = TargetLayout.toolkit(root, OsFamily.WINDOWS);
        assertEquals(root.resolve("bin"), windows.runtimeDir(WINDOWS_9_18), "a toolkit's DLLs go to bin, whatever the archive's");
        assertEquals(Optional.of(root.resolve("lib/x64/cudnn.lib")),
                windows.destination(WINDOWS_9_18, EntryRole.IMPORT_LIBRARY, "lib/x64/cudnn.lib"));
        assertEquals(Optional.empty(), windows.destination(WINDOWS_9_18, EntryRole.STATIC_LIBRARY, "lib/x64/cudnn_static.lib"));
        assertEquals(List.of(root.resolve("bin"), root.resolve("include"), root.resolve("lib/x64")), windows.destinationDirs(WINDOWS_9_18));
    }

    @Test
    void aToolkitsLib64LinkIsFollowedSoFilesLandInTheRealFolder() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path root = fs.getPath("/usr/local/cuda-12.6");
        Path real = Files.createDirectories(root.resolve("targets/x86_64-linux/lib"));
        Files.createSymbolicLink(root.resolve("lib64"), fs.getPath("targets/x86_64-linux/lib"));
        TargetLayout.Toolkit t = new TargetLayout.Toolkit(root, OsFamily.LINUX);
        assertEquals(real, t.linuxLibDir());
        assertEquals(List.of(real), t.search(Arch.X86_64).runtime(), "the link and targets/…/lib are one folder, searched once");
        assertEquals(List.of(new TargetLayout.Folder(root.resolve("lib64"), root.resolve("include")),
                new TargetLayout.Folder(real, root.resolve("targets/x86_64-linux/include"))), t.libraryFolders(Arch.X86_64),
                "the copy scan names lib64 as programs are given it, and targets/…/lib beside it");
    }

    @Test
    void aPrefixKeepsTheArchivesLayout() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path root = fs.getPath("/opt/cudnn");
        TargetLayout p = TargetLayout.prefix(root, OsFamily.LINUX);
        assertEquals(root.resolve("lib"), p.runtimeDir(LINUX_9));
        assertEquals(root.resolve("lib64"), p.runtimeDir(LINUX_LEGACY), "cuda/lib64 in a legacy archive");
        assertEquals(Optional.of(root.resolve("lib/libcudnn.so.9")), p.destination(LINUX_9, EntryRole.RUNTIME_LIBRARY, "lib/libcudnn.so.9"));
        assertEquals(Optional.of(root.resolve("LICENSE")), p.destination(LINUX_9, EntryRole.LICENSE, "LICENSE"));
        TargetLayout w = TargetLayout.prefix(root, OsFamily.WINDOWS);
        assertEquals(root.resolve("bin"), w.runtimeDir(WINDOWS_9_5));
        assertEquals(root.resolve("bin/x64"), w.runtimeDir(WINDOWS_9_18), "9.18 and later keep DLLs in bin\\x64");
        assertEquals(root.resolve("bin"), w.runtimeDir(WINDOWS_WHEEL), "a wheel keeps its DLLs in nvidia/cudnn/bin");
    }

    @Test
    void verifySearchesEachOsOwnFolders() throws IOException {
        FileSystem unix = TestHosts.unixFs();
        Path usr = unix.getPath("/usr");
        TargetLayout.Search plain = TargetLayout.prefix(usr, OsFamily.LINUX).search(Arch.X86_64);
        assertEquals(List.of(usr.resolve("lib"), usr.resolve("lib64")), plain.runtime());
        Files.createDirectories(usr.resolve("lib/x86_64-linux-gnu"));
        assertEquals(List.of(usr.resolve("lib"), usr.resolve("lib64"), usr.resolve("lib/x86_64-linux-gnu")),
                TargetLayout.prefix(usr, OsFamily.LINUX).search(Arch.X86_64).runtime(), "--prefix /usr on Debian: the multiarch folder");

        FileSystem win = TestHosts.windowsFs();
        Path root = win.getPath("C:\\cudnn");
        TargetLayout.Search w = TargetLayout.prefix(root, OsFamily.WINDOWS).search(Arch.X86_64);
        assertEquals(List.of(root.resolve("bin\\x64"), root.resolve("bin")), w.runtime());
        assertEquals(root.resolve("lib"), w.imports(), "no lib\\x64: the archive's lib");
        Files.createDirectories(root.resolve("lib\\x64"));
        assertEquals(root.resolve("lib\\x64"), TargetLayout.prefix(root, OsFamily.WINDOWS).search(Arch.X86_64).imports());
        assertNull(TargetLayout.toolkit(unix.getPath("/usr/local/cuda"), OsFamily.LINUX).search(Arch.X86_64).imports(),
                "a Linux toolkit has no import libraries");
    }

    @Test
    void aHandCopyIntoTargetsLibIsFoundWithItsHeaders() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path root = fs.getPath("/usr/local/cuda");
        Files.createDirectories(root.resolve("lib64"));
        Files.createDirectories(root.resolve("include"));
        Path sbsa = Files.createDirectories(root.resolve("targets/sbsa-linux/lib"));
        Files.createDirectories(root.resolve("targets/sbsa-linux/include"));
        Files.writeString(root.resolve("targets/sbsa-linux/include/cudnn_version.h"), "#define CUDNN_MAJOR 9\n");
        TargetLayout.Search arm = TargetLayout.toolkit(root, OsFamily.LINUX).search(Arch.AARCH64);
        assertEquals(List.of(root.resolve("lib64"), sbsa), arm.runtime());
        assertEquals(root.resolve("targets/sbsa-linux/include"), arm.include(), "the headers beside the copy, include/ has none");
        assertEquals(List.of(root.resolve("lib64")), TargetLayout.toolkit(root, OsFamily.LINUX).search(Arch.X86_64).runtime(),
                "an x86_64 machine does not run targets/sbsa-linux");
    }

    /**
     * The property: for any archive, target kind and toolkit shape, the folder install puts the runtime libraries
     * in is one verify searches (same file), its headers are where verify reads them, and a Windows import
     * library is in verify's import folder. Before #29 item 2 install (archive OS, scheme) and verify (host OS)
     * each answered this in code of their own.
     */
    @TestFactory
    Stream<DynamicTest> whatInstallPutsVerifyFinds() {
        long seed = Seeds.seed(29_2);
        return IntStream.range(0, Seeds.tries(120, 3000)).mapToObj(i -> {
            Random r = new Random(Seeds.caseSeed(seed, i));
            ArchiveName n = archive(r);
            boolean prefix = r.nextBoolean();
            int lib64 = r.nextInt(3); // 0 absent, 1 a folder, 2 a link to targets/x86_64-linux/lib
            return DynamicTest.dynamicTest("seed " + seed + " try " + i + ": " + n.fileName() + (prefix ? " --prefix" : " toolkit")
                    + " lib64=" + lib64, () -> check(n, prefix, lib64));
        });
    }

    private static void check(ArchiveName n, boolean prefix, int lib64) throws IOException {
        boolean windows = n.os() == OsFamily.WINDOWS;
        FileSystem fs = windows ? TestHosts.windowsFs() : TestHosts.unixFs();
        Path root = fs.getPath(windows ? "C:\\target" : "/target");
        Files.createDirectories(root);
        if (!prefix && !windows && lib64 > 0) {
            if (lib64 == 1) {
                Files.createDirectories(root.resolve("lib64"));
            } else {
                Files.createDirectories(root.resolve("targets/x86_64-linux/lib"));
                Files.createSymbolicLink(root.resolve("lib64"), fs.getPath("targets/x86_64-linux/lib"));
            }
        }
        TargetLayout installs = prefix ? TargetLayout.prefix(root, n.os()) : TargetLayout.toolkit(root, n.os());
        List<String[]> files = new ArrayList<>();
        String runtimeRel = runtimeRel(n);
        files.add(new String[] {EntryRole.RUNTIME_LIBRARY.name(), runtimeRel});
        files.add(new String[] {EntryRole.HEADER.name(), "include/cudnn_version.h"});
        if (windows) {
            files.add(new String[] {EntryRole.IMPORT_LIBRARY.name(), "lib/x64/cudnn.lib"});
        }
        Path placedRuntime = null;
        Path placedHeader = null;
        Path placedImport = null;
        for (String[] f : files) {
            EntryRole role = EntryRole.valueOf(f[0]);
            Path dest = installs.destination(n, role, f[1]).orElseThrow();
            Files.createDirectories(dest.getParent());
            Files.writeString(dest, f[1]);
            switch (role) {
                case RUNTIME_LIBRARY -> placedRuntime = dest;
                case HEADER -> placedHeader = dest;
                default -> placedImport = dest;
            }
        }
        Path runtimeDir = installs.runtimeDir(n);
        assertTrue(RealPaths.sameFile(placedRuntime.getParent(), runtimeDir, windows),
                placedRuntime + " is not in the runtime folder install names, " + runtimeDir);
        Path placedFolder = placedRuntime.getParent();
        assertTrue(installs.destinationDirs(n).stream().anyMatch(d -> RealPaths.sameFile(d, placedFolder, windows)),
                "destinationDirs misses " + placedFolder);
        // verify, on a host of the archive's OS, looking at the same root
        TargetLayout verifies = prefix ? TargetLayout.prefix(root, n.os()) : TargetLayout.toolkit(root, n.os());
        TargetLayout.Search s = verifies.search(Arch.X86_64);
        Path lib = placedRuntime;
        assertTrue(s.runtime().stream().anyMatch(d -> Files.exists(d.resolve(lib.getFileName().toString()))
                        && RealPaths.sameFile(d.resolve(lib.getFileName().toString()), lib, windows)),
                "verify searches " + s.runtime() + " but install put " + lib);
        assertEquals(s.include().resolve("cudnn_version.h"), placedHeader, "headers");
        if (windows) {
            assertEquals(s.imports().resolve("cudnn.lib"), placedImport, "import library");
        }
    }

    private static String runtimeRel(ArchiveName n) {
        if (n.os() == OsFamily.WINDOWS) {
            boolean x64 = n.major() == 9 && n.version().minor() >= 18 && n.fileName().startsWith("cudnn-");
            return (x64 ? "bin/x64/" : "bin/") + "cudnn64_" + n.major() + ".dll";
        }
        return (n.fileName().contains("-linux-x64-v") ? "lib64/" : "lib/") + "libcudnn.so." + n.major();
    }

    private static ArchiveName archive(Random r) {
        int minor = r.nextInt(26);
        String v = (r.nextBoolean() ? "9." + minor : "8." + Math.min(minor, 9)) + "." + r.nextInt(3) + "." + (10 + r.nextInt(80));
        int major = v.charAt(0) - '0';
        String cuda = major == 9 && r.nextBoolean() ? "13" : "12";
        return ArchiveName.parse(switch (r.nextInt(5)) {
            case 0 -> "cudnn-linux-x86_64-" + v + "_cuda" + cuda + "-archive.tar.xz";
            case 1 -> "cudnn-windows-x86_64-" + v + "_cuda" + cuda + "-archive.zip";
            case 2 -> "cudnn-11.4-linux-x64-v8.2." + r.nextInt(5) + ".15.tgz";
            case 3 -> "nvidia_cudnn_cu" + cuda + "-" + v + "-py3-none-manylinux_2_27_x86_64.whl";
            default -> "nvidia_cudnn_cu" + cuda + "-" + v + "-py3-none-win_amd64.whl";
        });
    }

    @Test
    void anInstallTargetCarriesItsLayoutAndStateBuiltOnce() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path root = Files.createDirectories(fs.getPath("/usr/local/cuda"));
        InstallTarget t = InstallTarget.prefix(root, OsFamily.LINUX);
        assertSame(t.paths(), t.paths());
        assertSame(t.state(), t.state());
        assertEquals(root.resolve(StateFolder.NAME), t.stateDir());
        assertEquals(TargetLayout.prefix(root, OsFamily.LINUX), t.layout());
        assertEquals(InstallTarget.Kind.PREFIX, t.kind());
        assertEquals(InstallTarget.prefix(root, OsFamily.LINUX), t, "equal by layout");
        assertEquals("{\"kind\":\"prefix\",\"path\":\"/usr/local/cuda\"}", new ObjectMapper().writeValueAsString(t),
                "the JSON shape of target stays {kind, path}");
    }

    @Test
    void statePathsKeptByATargetLearnItsRealFolderOnceItExists() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Files.createDirectories(fs.getPath("/data/home"));
        Files.createSymbolicLink(fs.getPath("/home"), fs.getPath("/data/home"));
        Path root = fs.getPath("/home/ana/cudnn");
        InstallTarget t = InstallTarget.prefix(root, OsFamily.LINUX); // made before the install creates the folder
        assertEquals("lib/libcudnn.so.9", t.paths().store(root.resolve("lib/libcudnn.so.9")));
        Files.createDirectories(fs.getPath("/data/home/ana/cudnn/lib"));
        assertEquals("lib/libcudnn.so.9", t.paths().store(fs.getPath("/data/home/ana/cudnn/lib/libcudnn.so.9")),
                "a real path under the created folder is inside the target");
        assertThrows(IllegalStateException.class, () -> t.paths().store(fs.getPath("/data/home/bob/x")));
    }
}
