package dev.cudnntool.install;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Arch;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.OsFamily;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.ArchiveFormat;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.NamingScheme;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.TreeSnapshot;
import dev.cudnntool.testing.WheelFixture;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 20 item 7: NVIDIA's pip wheel is a source like an archive. Every file is checked against
 * RECORD, the name against METADATA, then the same inspection and the same transaction; on Linux
 * the development links libcudnn*.so -> libcudnn*.so.9 are added beside the soname files.
 */
class WheelInstallTest {
    @TempDir
    Path downloads;

    @Test
    void aLinuxWheelInstallsItsSonameFilesAndTheDevelopmentLinksIntoTheToolkit() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.6.20240801").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64").build()) {
            Path wheel = WheelFixture.of("9.5.1.17", 12, "manylinux2014_x86_64").writeTo(downloads);
            InstallOutcome o = m.install(wheel);
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            assertTrue(has(o, FindingId.WHEEL_RECORD_OK), o.findings().toString());
            Path lib = m.toolkit().resolve("targets/x86_64-linux/lib");
            assertTrue(Files.isRegularFile(lib.resolve("libcudnn.so.9"), LinkOption.NOFOLLOW_LINKS));
            assertTrue(Files.isRegularFile(lib.resolve("libcudnn_graph.so.9"), LinkOption.NOFOLLOW_LINKS));
            assertEquals("libcudnn.so.9", Files.readSymbolicLink(lib.resolve("libcudnn.so")).toString());
            assertEquals("libcudnn_ops.so.9", Files.readSymbolicLink(lib.resolve("libcudnn_ops.so")).toString());
            assertTrue(Files.isRegularFile(m.toolkit().resolve("include/cudnn_version.h")));
            assertFalse(Files.exists(m.toolkit().resolve("include/__init__.py")));
            try (var s = Files.list(m.toolkit())) {
                assertTrue(s.noneMatch(p -> p.getFileName().toString().contains("dist-info")), "no wheel metadata installed");
            }
        }
    }

    @Test
    void aWindowsWheelInstallsItsDllsIntoTheToolkitsBinOnJimfsWindows() throws Exception {
        try (Machine m = Machine.windows().toolkit("12.6.20240801").build()) {
            Path d = Files.createDirectories(m.path("C:\\Users\\me\\Downloads"));
            Path wheel = WheelFixture.of("9.5.1.17", 12, "win_amd64").writeTo(d);
            InstallOutcome o = m.install(wheel);
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            assertTrue(Files.isRegularFile(m.toolkit().resolve("bin").resolve("cudnn64_9.dll")));
            assertTrue(Files.isRegularFile(m.toolkit().resolve("bin").resolve("cudnn_graph64_9.dll")));
            assertTrue(Files.isRegularFile(m.toolkit().resolve("include").resolve("cudnn.h")));
            assertTrue(has(o, FindingId.WHEEL_RECORD_OK), o.findings().toString());
        }
    }

    @Test
    void inspectReadsAWheelAndNamesItsFormat() throws Exception {
        try (Machine m = Machine.linux().build()) {
            Path d = Files.createDirectories(m.path("/home/me/Downloads"));
            Path wheel = WheelFixture.of("9.5.1.17", 12, "manylinux2014_x86_64").writeTo(d);
            Cli.Run json = Cli.run(m.host(), "inspect", wheel.toString(), "--json");
            assertEquals(0, json.exit(), json.out() + json.err());
            assertEquals("whl", json.json().get("archive").get("format").asText());
            assertEquals("wheel", json.json().get("archive").get("scheme").asText());
            assertEquals("nvidia/cudnn", json.json().get("topFolder").asText());
            assertTrue(json.out().contains("wheel.record-ok"), json.out());
            Cli.Run text = Cli.run(m.host(), "inspect", wheel.toString());
            assertEquals(0, text.exit(), text.err());
            assertTrue(text.out().contains("9.5.1.17"), text.out());
        }
    }

    @Test
    void theNameGivesVersionCudaAndPlatform() {
        ArchiveName cu13 = ArchiveName.parse("nvidia_cudnn_cu13-9.24.0.43-py3-none-manylinux_2_27_x86_64.whl");
        assertEquals("9.24.0.43", cu13.version().toString());
        assertEquals(13, cu13.cudaVariant().major());
        assertEquals(ArchiveFormat.WHEEL, cu13.format());
        assertEquals(NamingScheme.WHEEL, cu13.scheme());
        assertEquals(OsFamily.LINUX, cu13.os());
        ArchiveName win = ArchiveName.parse("nvidia_cudnn_cu12-9.5.1.17-py3-none-win_amd64.whl");
        assertEquals(OsFamily.WINDOWS, win.os());
        assertEquals(Arch.SBSA,
                ArchiveName.parse("nvidia_cudnn_cu12-9.5.1.17-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl").arch());
        ToolException mixed = assertThrows(ToolException.class,
                () -> ArchiveName.parse("nvidia_cudnn_cu12-9.5.1.17-py3-none-manylinux2014_x86_64.win_amd64.whl"));
        assertEquals(ExitCode.ARCHIVE_REJECTED, mixed.exitCode());
        assertThrows(ToolException.class, () -> ArchiveName.parse("nvidia_cudnn_cu12-9.5.1.17-py3-none-macosx_11_0_arm64.whl"));
    }

    @Test
    void aDryRunReadsTheWheelAndChangesNothing() throws Exception {
        try (Machine m = Machine.linux().toolkit("12.6.20240801").build()) {
            Map<String, String> before = TreeSnapshot.of(m.toolkit());
            InstallOutcome o = m.dryRun(WheelFixture.of("9.5.1.17", 12, "manylinux2014_x86_64").writeTo(downloads));
            assertEquals(ExitCode.OK, o.exit(), o.summary() + o.findings());
            assertTrue(o.summary().startsWith("dry run: would install cuDNN 9.5.1.17"), o.summary());
            assertTrue(o.plan().steps().stream().anyMatch(s -> s.destination().endsWith("/libcudnn.so")), o.plan().steps().toString());
            assertEquals(before, TreeSnapshot.of(m.toolkit()));
        }
    }

    /** A file changed, added or dropped after RECORD was written: error finding, exit 3, nothing installed. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "changed | is in the wheel but not in RECORD",
        "unlisted | is in the wheel but not in RECORD",
        "dropped | is listed in RECORD but not in the wheel",
        "size | RECORD says",
        "hash | RECORD says",
    })
    void aWheelThatDoesNotMatchItsRecordIsRefusedAndNothingIsInstalled(String how, String says) throws Exception {
        WheelFixture w = WheelFixture.of("9.5.1.17", 12, "manylinux2014_x86_64");
        String ops = "nvidia/cudnn/lib/libcudnn_ops.so.9";
        switch (how) {
            case "changed" -> w.editRecord(r -> r.replace(ops + ",", "nvidia/cudnn/lib/libcudnn_opz.so.9,"));
            case "unlisted" -> w.editRecord(r -> r.lines().filter(l -> !l.startsWith(ops)).reduce("", (a, b) -> a + b + "\n"));
            case "dropped" -> w.editRecord(r -> r + "nvidia/cudnn/lib/libcudnn_extra.so.9,sha256=" + WheelFixture.b64(new byte[1]) + ",1\n");
            case "size" -> w.editRecord(r -> r.replaceAll("(" + ops.replace(".", "\\.") + ",sha256=[^,]+,)\\d+", "$17"));
            default -> w.editRecord(r -> r.replaceAll("(" + ops.replace(".", "\\.") + ",sha256=)[^,]+", "$1" + WheelFixture.b64(new byte[2])));
        }
        try (Machine m = Machine.linux().toolkit("12.6.20240801").build()) {
            Map<String, String> before = TreeSnapshot.of(m.toolkit());
            InstallOutcome o = m.install(w.writeTo(downloads));
            assertEquals(ExitCode.ARCHIVE_REJECTED, o.exit(), o.summary() + o.findings());
            Finding f = o.findings().stream().filter(x -> x.id().equals(FindingId.WHEEL_RECORD_MISMATCH.id())).findFirst().orElseThrow();
            assertTrue(f.message().contains(says), f.message());
            assertEquals(before, TreeSnapshot.of(m.toolkit()));
        }
    }

    /** A hostile RECORD line stops the read before anything is staged (exit 3, one line). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "../../etc/passwd,sha256=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,3 | has an empty, '.' or '..' part",
        "/etc/passwd,sha256=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,3 | is absolute",
        "C:/x.dll,sha256=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,3 | is absolute",
        "nvidia/x,sha256=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,99999999999999999999 | a size too large to be true",
        "nvidia/x,sha256=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,999999999999999 | more than a wheel may expand to",
        "nvidia/x,sha256=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,-1 | not a plain number",
        "nvidia/x,md5=AAAAAAAAAAAAAAAAAAAAAA,3 | not sha256",
        "nvidia/x,sha256=AAAA==,3 | not 32 bytes",
        "nvidia/x,3 | not path,hash,size",
        "\"nvidia/x,y\",sha256=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,3 | a quoted field",
        "nvidia/cudnn/include/cudnn.h,sha256=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA,3 | listed twice",
    })
    void aHostileRecordLineIsRejected(String line, String says) throws Exception {
        WheelFixture w = WheelFixture.of("9.5.1.17", 12, "manylinux2014_x86_64").editRecord(r -> r + line + "\n");
        try (Machine m = Machine.linux().toolkit("12.6.20240801").build()) {
            Map<String, String> before = TreeSnapshot.of(m.toolkit());
            ToolException e = assertThrows(ToolException.class, () -> m.install(w.writeTo(downloads)));
            assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode());
            assertTrue(e.getMessage().contains("RECORD that cannot be trusted") && e.getMessage().contains(says), e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
            assertEquals(before, TreeSnapshot.of(m.toolkit()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "name | METADATA's Name: is 'nvidia-cudnn-cu13'",
        "version | METADATA's Version: is '9.5.0.50'",
        "folder | its metadata folder is",
        "norecord | has no nvidia_cudnn_cu12-9.5.1.17.dist-info/RECORD",
        "nometadata | has no nvidia_cudnn_cu12-9.5.1.17.dist-info/METADATA",
        "outside | lies outside nvidia/cudnn/",
        "unsafe | unsafe archive entry",
    })
    void aWheelWhoseNameMetadataOrLayoutDisagreeIsRejected(String how, String says) throws Exception {
        WheelFixture w = WheelFixture.of("9.5.1.17", 12, "manylinux2014_x86_64");
        String md = w.distInfo() + "/METADATA";
        UnaryOperator<String> none = UnaryOperator.identity();
        switch (how) {
            case "name" -> w.file(md, "Metadata-Version: 2.4\nName: nvidia-cudnn-cu13\nVersion: 9.5.1.17\n\n");
            case "version" -> w.file(md, "Metadata-Version: 2.4\nName: nvidia_cudnn_cu12\nVersion: 9.5.0.50\n\n");
            case "folder" -> {
                WheelFixture other = WheelFixture.of("9.5.0.50", 12, "manylinux2014_x86_64");
                w = other;
                Path p = other.writeTo(downloads);
                Files.move(p, downloads.resolve("nvidia_cudnn_cu12-9.5.1.17-py3-none-manylinux2014_x86_64.whl"));
            }
            case "norecord" -> w.editRecord(r -> "").file("x", "y").remove("x");
            case "nometadata" -> w.remove(md);
            case "outside" -> w.file("nvidia/cublas/lib/libcublas.so.12", "ELF");
            default -> w.file("nvidia/cudnn/lib/../../../../evil.so", "ELF");
        }
        Path wheel = how.equals("folder") ? downloads.resolve("nvidia_cudnn_cu12-9.5.1.17-py3-none-manylinux2014_x86_64.whl")
                : w.writeTo(downloads);
        if (how.equals("norecord")) {
            wheel = rewriteWithout(wheel, w.distInfo() + "/RECORD");
        }
        try (Machine m = Machine.linux().toolkit("12.6.20240801").build()) {
            Path fin = wheel;
            ToolException e = assertThrows(ToolException.class, () -> m.install(fin));
            assertEquals(ExitCode.ARCHIVE_REJECTED, e.exitCode(), e.getMessage());
            assertTrue(e.getMessage().contains(says), e.getMessage());
        }
        assertTrue(none != null);
    }

    private static Path rewriteWithout(Path zip, String entry) throws Exception {
        Path tmp = zip.resolveSibling("tmp.zip");
        try (var in = new ZipFile(zip.toFile());
             var out = new ZipOutputStream(Files.newOutputStream(tmp))) {
            for (var e : Collections.list(in.entries())) {
                if (!e.getName().equals(entry)) {
                    out.putNextEntry(new ZipEntry(e.getName()));
                    in.getInputStream(e).transferTo(out);
                    out.closeEntry();
                }
            }
        }
        return Files.move(tmp, zip, StandardCopyOption.REPLACE_EXISTING);
    }

    private static boolean has(InstallOutcome o, FindingId id) {
        return o.findings().stream().anyMatch(f -> f.id().equals(id.id()));
    }
}
