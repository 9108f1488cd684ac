package dev.cudnntool;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** CPU architectures cuDNN is published for, spelled as in NVIDIA's archive names. */
public enum Arch {
    X86_64("x86_64"), SBSA("sbsa"), AARCH64("aarch64"), PPC64LE("ppc64le"), OTHER("other");

    private final String label;

    Arch(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }

    public static Arch fromLabel(String label) {
        for (Arch a : values()) {
            if (a.label.equals(label)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown arch: " + label);
    }

    /** Maps the JVM's {@code os.arch} to an archive arch; sbsa and aarch64 are both arm64 CPUs. */
    public static Arch fromJvm(String osArch) {
        String a = osArch == null ? "" : osArch.toLowerCase(Locale.ROOT);
        return switch (a) {
            case "amd64", "x86_64", "x64" -> X86_64;
            case "aarch64", "arm64" -> AARCH64;
            case "ppc64le" -> PPC64LE;
            default -> OTHER;
        };
    }

    /** True when a machine of this arch runs code built for {@code archive}. */
    public boolean runs(Arch archive) {
        if (this == archive) {
            return true;
        }
        // sbsa (servers) and aarch64 (Jetson) are both 64-bit ARM: the CPU runs either.
        return this == AARCH64 && archive == SBSA || this == SBSA && archive == AARCH64;
    }
}
