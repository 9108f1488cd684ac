package dev.cudnntool.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.owner.Owner;
import dev.cudnntool.host.owner.Owners;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * Package records, read to tell who owns a cuDNN file: pip's dist-info (RECORD, METADATA), conda's
 * conda-meta JSON, dpkg's lists and status, and rpm's answer, each through {@link Owners#of}.
 */
class PackageRecordsFuzzTest {
    private static final String LIB = "nvidia/cudnn/lib/libcudnn.so.9";

    @FuzzTest
    void pip(FuzzedDataProvider data) throws IOException {
        String metadata = data.consumeString(2048);
        String record = data.consumeRemainingAsString();
        try (FileSystem fs = TestHosts.unixFs()) {
            Path site = fs.getPath("/venv/lib/python3.12/site-packages");
            Path info = site.resolve("nvidia_cudnn_cu12-9.5.1.17.dist-info");
            Files.createDirectories(info);
            Path lib = site.resolve(LIB);
            Files.createDirectories(lib.getParent());
            Files.writeString(lib, "\u007fELF");
            FuzzFiles.writeText(info.resolve("METADATA"), metadata, StandardCharsets.UTF_8);
            FuzzFiles.writeText(info.resolve("RECORD"), record, StandardCharsets.UTF_8);
            owner(fs, lib, metadata.length() + record.length(), Owner.Kind.PIP);
        }
    }

    @FuzzTest
    void conda(byte[] data) throws IOException {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path env = fs.getPath("/opt/conda/envs/torch");
            Files.createDirectories(env.resolve("conda-meta"));
            Path lib = env.resolve("lib/libcudnn.so.9");
            Files.createDirectories(lib.getParent());
            Files.writeString(lib, "\u007fELF");
            Files.write(env.resolve("conda-meta/cudnn-9.5.1.17-h0.json"), data);
            owner(fs, lib, data.length, Owner.Kind.CONDA);
        }
    }

    @FuzzTest
    void dpkg(FuzzedDataProvider data) throws IOException {
        String list = data.consumeString(4096);
        String status = data.consumeRemainingAsString();
        try (FileSystem fs = TestHosts.unixFs()) {
            Path lib = fs.getPath("/usr/lib/x86_64-linux-gnu/libcudnn.so.9");
            Files.createDirectories(lib.getParent());
            Files.writeString(lib, "\u007fELF");
            Files.createDirectories(fs.getPath("/var/lib/dpkg/info"));
            FuzzFiles.writeText(fs.getPath("/var/lib/dpkg/info/libcudnn9-cuda-12.list"), list, StandardCharsets.UTF_8);
            FuzzFiles.writeText(fs.getPath("/var/lib/dpkg/status"), status, StandardCharsets.UTF_8);
            owner(fs, lib, list.length() + status.length(), Owner.Kind.DPKG);
        }
    }

    /** rpm -qf's answer (the process output), from a trusted /usr/bin/rpm the fake runner answers for. */
    @FuzzTest
    void rpm(byte[] data) throws IOException {
        String answer = new String(data, StandardCharsets.UTF_8);
        try (FileSystem fs = TestHosts.unixFs()) {
            Path lib = fs.getPath("/usr/lib64/libcudnn.so.9");
            Files.createDirectories(lib.getParent());
            Files.writeString(lib, "\u007fELF");
            Files.createDirectories(fs.getPath("/var/lib/rpm"));
            Path rpm = fs.getPath("/usr/bin/rpm");
            Files.createDirectories(rpm.getParent());
            Files.writeString(rpm, "\u007fELF");
            Files.setPosixFilePermissions(rpm, PosixFilePermissions.fromString("rwxr-xr-x"));
            Host host = TestHosts.linux(fs, Map.of(), new FakeRunner().on(lib.toString(), answer));
            claims(Contract.holds(data.length, () -> new Owners(host).of(lib)), Owner.Kind.RPM);
        }
    }

    private static void owner(FileSystem fs, Path lib, long size, Owner.Kind only) {
        Host host = TestHosts.linux(fs, Map.of(), new FakeRunner());
        claims(Contract.holds(size, () -> new Owners(host).of(lib)), only);
    }

    /** Records of one kind can make a file that kind's or nobody's, never another's, and an owner has a name. */
    private static void claims(Object answer, Owner.Kind only) {
        if (answer instanceof Owner o) {
            assertTrue(o.kind() == Owner.Kind.NONE || o.kind() == only && o.name() != null && !o.name().isEmpty(),
                    () -> only + " records made the owner " + o);
        }
    }
}
