package dev.cudnntool.diagnosis;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.cudnntool.Finding;
import dev.cudnntool.host.owner.Owner;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * One cuDNN main library found on the machine (JSON {@code copies}): where, which release, how it
 * got there, who answers for its files ({@code owner}: dpkg, rpm, pip, conda, this tool, or none),
 * and whether a program loading cuDNN by name gets it. {@code findings} only with {@code verify --all}.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record CudnnCopy(String path, @JsonIgnore int major, String version, Origin origin,
                        @JsonInclude(JsonInclude.Include.ALWAYS) boolean winsByName,
                        @JsonIgnore Path includeDir, List<Finding> findings,
                        @JsonInclude(JsonInclude.Include.ALWAYS) Owner owner) {

    /** A copy whose owner is not looked up yet ({@link Owner#NONE}). */
    public CudnnCopy(String path, int major, String version, Origin origin, boolean winsByName, Path includeDir,
                     List<Finding> findings) {
        this(path, major, version, origin, winsByName, includeDir, findings, Owner.NONE);
    }

    /** How the copy got onto the machine. */
    public enum Origin {
        /** LDCONFIG: a folder named only by /etc/ld.so.conf or a file of /etc/ld.so.conf.d (#33 item 2). */
        TOOLKIT, SYSTEM, PIP, CONDA, PATH, TARGET, INSTALLER, LDCONFIG;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public CudnnCopy withFindings(List<Finding> f) {
        return new CudnnCopy(path, major, version, origin, winsByName, includeDir, List.copyOf(f), owner);
    }

    public CudnnCopy withOwner(Owner o) {
        return new CudnnCopy(path, major, version, origin, winsByName, includeDir, findings, o);
    }
}
