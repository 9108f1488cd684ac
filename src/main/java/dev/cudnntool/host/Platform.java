package dev.cudnntool.host;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cudnntool.Arch;
import dev.cudnntool.BoundedFiles;
import dev.cudnntool.OsFamily;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The OS, CPU and JVM the tool runs on, and whether that is Linux inside WSL. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Platform(OsFamily os, Arch arch, int jvmBits, boolean wsl) {

    public static Platform detect(Host host) {
        return new Platform(host.os(), host.arch(), host.jvmBits(), host.os() == OsFamily.LINUX && isWsl(host));
    }

    /** WSL shows itself in /proc/version ("…-microsoft-standard-WSL2") or by WSL_DISTRO_NAME. */
    static boolean isWsl(Host host) {
        if (host.env("WSL_DISTRO_NAME") != null) {
            return true;
        }
        Path version = host.path("/proc/version");
        try {
            return Files.isRegularFile(version)
                    && BoundedFiles.readString(version, 64 << 10, StandardCharsets.UTF_8)
                    .toLowerCase(Locale.ROOT).contains("microsoft");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
