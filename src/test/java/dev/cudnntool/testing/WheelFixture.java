package dev.cudnntool.testing;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes NVIDIA's pip wheel of cuDNN in its real layout (as nvidia_cudnn_cu13-9.24.0.43 has it):
 * {@code nvidia/cudnn/include/cudnn*.h}, {@code nvidia/cudnn/lib/libcudnn*.so.9} (Linux) or
 * {@code nvidia/cudnn/bin/cudnn*64_9.dll} (win_amd64), and {@code <dist>-<version>.dist-info/} with
 * METADATA, WHEEL, the licence and a RECORD computed from the files (urlsafe base64 sha256 without
 * padding, size). Tests change files, METADATA or RECORD's text to make every bad variant.
 */
public final class WheelFixture {
    private final String fileName;
    private final String distInfo;
    private final Map<String, byte[]> files = new LinkedHashMap<>();
    private UnaryOperator<String> recordEdit = UnaryOperator.identity();

    private WheelFixture(String fileName, String distInfo) {
        this.fileName = fileName;
        this.distInfo = distInfo;
    }

    /** {@code platform}: "manylinux2014_x86_64", "manylinux_2_27_x86_64" or "win_amd64". */
    public static WheelFixture of(String version, int cuda, String platform) {
        CudnnVersion v = CudnnVersion.parse(version);
        String dist = "nvidia_cudnn_cu" + cuda;
        WheelFixture w = new WheelFixture(dist + "-" + version + "-py3-none-" + platform + ".whl", dist + "-" + version + ".dist-info");
        boolean windows = platform.startsWith("win");
        for (String h : CudnnComponents.headers(v.major())) {
            w.file("nvidia/cudnn/include/" + h, h.equals("cudnn_version.h") ? ArchiveFixture.versionHeader(v)
                    : "/* " + h + " (fixture) */\n");
        }
        for (String base : CudnnComponents.libraries(v.major())) {
            if (windows) {
                w.file("nvidia/cudnn/bin/" + CudnnComponents.windowsDll(base, v.major()), ArchiveFixture.library(base, v, "dll"));
            } else {
                w.file("nvidia/cudnn/lib/" + CudnnComponents.linuxSoname(base, v.major()), ArchiveFixture.library(base, v, "so"));
            }
        }
        w.file(w.distInfo + "/licenses/License.txt", "NVIDIA Software License Agreement (fixture)\n");
        w.file(w.distInfo + "/METADATA", "Metadata-Version: 2.4\nName: nvidia-cudnn-cu" + cuda + "\nVersion: " + version
                + "\nSummary: cuDNN runtime libraries\nRequires-Dist: nvidia-cublas\n\ncuDNN runtime libraries (fixture)\n");
        w.file(w.distInfo + "/WHEEL", "Wheel-Version: 1.0\nGenerator: setuptools\nRoot-Is-Purelib: true\nTag: py3-none-" + platform + "\n");
        w.file(w.distInfo + "/top_level.txt", "nvidia\n");
        return w;
    }

    public String fileName() {
        return fileName;
    }

    public String distInfo() {
        return distInfo;
    }

    public WheelFixture file(String path, String text) {
        return file(path, text.getBytes(StandardCharsets.UTF_8));
    }

    public WheelFixture file(String path, byte[] bytes) {
        files.put(path, bytes);
        return this;
    }

    public WheelFixture remove(String path) {
        if (files.remove(path) == null) {
            throw new IllegalArgumentException("no " + path);
        }
        return this;
    }

    /** Changes RECORD's text after it is computed from the files. */
    public WheelFixture editRecord(UnaryOperator<String> edit) {
        recordEdit = edit;
        return this;
    }

    /** RECORD as computed from the files, before any edit. */
    public String record() {
        StringBuilder r = new StringBuilder();
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            r.append(e.getKey()).append(",sha256=").append(b64(e.getValue())).append(',').append(e.getValue().length).append('\n');
        }
        return r.append(distInfo).append("/RECORD,,\n").toString();
    }

    public static String b64(byte[] data) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public Path writeTo(Path dir) {
        Path p = dir.resolve(fileName);
        try (OutputStream out = Files.newOutputStream(p); ZipOutputStream zip = new ZipOutputStream(out)) {
            Map<String, byte[]> all = new LinkedHashMap<>(files);
            all.put(distInfo + "/RECORD", recordEdit.apply(record()).getBytes(StandardCharsets.UTF_8));
            for (Map.Entry<String, byte[]> e : all.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue());
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
