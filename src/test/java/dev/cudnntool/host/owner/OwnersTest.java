package dev.cudnntool.host.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.Host;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** #19 item 19: who owns each copy, read from dpkg's, rpm's, pip's and conda's own records. */
class OwnersTest {
    private final FileSystem unix = TestHosts.unixFs();
    private final FakeRunner runner = new FakeRunner();
    private final Host linux = TestHosts.linux(unix, Map.of(), runner);

    private Path write(FileSystem fs, String path, String text) throws IOException {
        Path p = fs.getPath(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void dpkgListsOfCudnnPackagesNameTheOwnerAndStatusItsVersion() throws IOException {
        Path lib = write(unix, "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.5.1", "\177ELF");
        Files.createSymbolicLink(unix.getPath("/usr/lib/x86_64-linux-gnu/libcudnn.so.9"), unix.getPath("libcudnn.so.9.5.1"));
        write(unix, "/var/lib/dpkg/info/libcudnn9-cuda-12:amd64.list", "/.\n/usr\n/usr/lib/x86_64-linux-gnu/libcudnn.so.9.5.1\n");
        write(unix, "/var/lib/dpkg/info/zlib1g:amd64.list", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9\n"); // not a cuDNN package: not read
        write(unix, "/var/lib/dpkg/status", "Package: zlib1g\nVersion: 1:1.3\n\nPackage: libcudnn9-cuda-12\nStatus: install ok installed\n"
                + "Version: 9.5.1.17-1\n\n");
        Owners owners = new Owners(linux);
        Owner o = owners.of(unix.getPath("/usr/lib/x86_64-linux-gnu/libcudnn.so.9")); // through the link: its real path is listed
        assertEquals(new Owner(Owner.Kind.DPKG, "libcudnn9-cuda-12", "9.5.1.17-1", null), o);
        assertEquals("sudo apt-get install --reinstall libcudnn9-cuda-12", o.reinstallCommand());
        assertEquals(o, owners.of(lib));
        assertEquals(Owner.NONE, owners.of(write(unix, "/usr/local/cuda/lib64/libcudnn.so.9", "x")));
    }

    @Test
    void pipRecordListingTheFileNamesTheWheelFromItsMetadata() throws IOException {
        String site = "/home/u/venv/lib/python3.11/site-packages";
        Path lib = write(unix, site + "/nvidia/cudnn/lib/libcudnn.so.9", "\177ELF");
        write(unix, site + "/numpy-2.1.3.dist-info/RECORD", "numpy/__init__.py,sha256=x,10\n");
        write(unix, site + "/nvidia_cudnn_cu12-9.5.1.17.dist-info/RECORD",
                "\"nvidia/cudnn/lib/odd,name.so\",sha256=a,1\nnvidia/cudnn/lib/libcudnn.so.9,sha256=abc,123\n\"unterminated\n");
        write(unix, site + "/nvidia_cudnn_cu12-9.5.1.17.dist-info/METADATA", "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\n"
                + "Version: 9.5.1.17\n\nName: not-this\n");
        Owner o = new Owners(linux).of(lib);
        assertEquals(Owner.Kind.PIP, o.kind());
        assertEquals("nvidia-cudnn-cu12", o.name());
        assertEquals("9.5.1.17", o.version());
        assertTrue(o.reinstallCommand().endsWith("pip install --force-reinstall --no-deps nvidia-cudnn-cu12==9.5.1.17"), o.reinstallCommand());
        assertTrue(o.reinstallCommand().contains(site), "names the environment");
        assertEquals("nvidia/cudnn/lib/odd,name.so", PythonRecords.firstField("\"nvidia/cudnn/lib/odd,name.so\",sha256=a,1"));
        assertNull(PythonRecords.firstField("\"unterminated"));
    }

    @Test
    void aHostileNameInARecordIsNotBelieved() throws IOException {
        String site = "/srv/site-packages";
        Path lib = write(unix, site + "/torch/lib/libcudnn.so.8", "\177ELF");
        write(unix, site + "/torch-2.1.dist-info/RECORD", "torch/lib/libcudnn.so.8,,\n");
        write(unix, site + "/torch-2.1.dist-info/METADATA", "Name: torch; rm -rf /\nVersion: 2.1.0\u001b[31m\n");
        Owner o = new Owners(linux).of(lib);
        assertEquals(Owner.Kind.PIP, o.kind());
        assertEquals("torch", o.name(), "the folder's name, since METADATA's is not a package name");
        assertEquals("2.1", o.version());
    }

    @Test
    void condaMetaJsonListingTheFileNamesThePackage() throws IOException {
        Path lib = write(unix, "/home/u/miniforge3/envs/ml/lib/libcudnn.so.9", "\177ELF");
        write(unix, "/home/u/miniforge3/envs/ml/conda-meta/python-3.11.json", "{\"name\":\"python\",\"files\":[\"bin/python\"]}");
        write(unix, "/home/u/miniforge3/envs/ml/conda-meta/libcudnn-9.3.0.75-h1234.json",
                "{\"build\":\"h1234\",\"extra\":{\"x\":[1,2,{\"y\":null}]},\"name\":\"libcudnn\",\"version\":\"9.3.0.75\","
                        + "\"files\":[\"lib/libcudnn.so.9\",7,\"lib/libcudnn_ops.so.9\"]}");
        Owner o = new Owners(linux).of(lib);
        assertEquals(new Owner(Owner.Kind.CONDA, "libcudnn", "9.3.0.75", "/home/u/miniforge3/envs/ml"), o);
        assertEquals("conda install --force-reinstall -p /home/u/miniforge3/envs/ml libcudnn=9.3.0.75", o.reinstallCommand());
    }

    @Test
    void windowsCondaAndPipLayouts() throws IOException {
        FileSystem win = TestHosts.windowsFs();
        Host host = TestHosts.windows(win, Map.of(), new FakeRunner());
        Path dll = write(win, "C:\\Users\\u\\miniconda3\\Library\\bin\\cudnn64_9.dll", "MZ");
        write(win, "C:\\Users\\u\\miniconda3\\conda-meta\\cudnn-9.1.json", "{\"name\":\"cudnn\",\"version\":\"9.1.1.17\","
                + "\"files\":[\"Library/bin/cudnn64_9.dll\"]}");
        assertEquals(Owner.Kind.CONDA, new Owners(host).of(dll).kind());
        Path wheel = write(win, "C:\\Python311\\Lib\\site-packages\\nvidia\\cudnn\\bin\\cudnn64_9.dll", "MZ");
        write(win, "C:\\Python311\\Lib\\site-packages\\nvidia_cudnn_cu12-9.5.1.17.dist-info\\RECORD",
                "nvidia/cudnn/bin/cudnn64_9.dll,sha256=x,1\n");
        Owner o = new Owners(host).of(wheel);
        assertEquals(Owner.Kind.PIP, o.kind());
        assertEquals("nvidia-cudnn-cu12", o.name());
    }

    @Test
    void rpmIsAskedOnlyFromATrustedFolderWhenItsDatabaseExists() throws IOException {
        Path lib = write(unix, "/usr/lib64/libcudnn.so.9", "\177ELF");
        runner.on("-- /usr/lib64/libcudnn.so.9", FakeRunner.ok("libcudnn9-cuda-12\t9.5.1.17-1\n"));
        assertEquals(Owner.NONE, new Owners(linux).of(lib), "no rpm database, rpm is not asked");
        Files.createDirectories(unix.getPath("/var/lib/rpm"));
        Path rpm = write(unix, "/usr/bin/rpm", "\177ELF");
        Files.setPosixFilePermissions(rpm, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertEquals(Owner.NONE, new Owners(linux).of(lib), "an rpm others may change is not run");
        assertTrue(runner.calls.isEmpty(), runner.calls.toString());
        Files.setPosixFilePermissions(rpm, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(new Owner(Owner.Kind.RPM, "libcudnn9-cuda-12", "9.5.1.17-1", null), new Owners(linux).of(lib));
        assertEquals("/usr/bin/rpm", runner.calls.get(0).get(0));
        runner.on("-- /usr/lib64/libcudnn.so.9", FakeRunner.ok("$(reboot)\tx\n"));
        assertEquals(Owner.NONE, new Owners(linux).of(lib), "output that is not a package name is refused");
    }
}
