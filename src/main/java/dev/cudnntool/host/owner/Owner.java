package dev.cudnntool.host.owner;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.cudnntool.Fix;
import java.util.Locale;

/**
 * Who put a cuDNN copy on the machine (JSON {@code copies[].owner}): a package manager, this tool, or
 * nobody known. {@code name} and {@code version} are the package's (absent for {@code tool} and
 * {@code none}); {@code env} is where the package manager keeps it (a site-packages or a conda
 * environment), used by the fix it suggests.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Owner(Kind kind, String name, String version, @com.fasterxml.jackson.annotation.JsonIgnore String env) {
    public static final Owner NONE = new Owner(Kind.NONE, null, null, null);
    public static final Owner TOOL = new Owner(Kind.TOOL, null, null, null);

    /** The kinds, as JSON writes them. */
    public enum Kind {
        DPKG, RPM, PIP, CONDA, TOOL, NONE;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** dpkg, rpm, pip or conda: files another program answers for. */
    public boolean packageManager() {
        return kind == Kind.DPKG || kind == Kind.RPM || kind == Kind.PIP || kind == Kind.CONDA;
    }

    /** "the pip package nvidia-cudnn-cu12 9.5.1.17", for messages. */
    public String describe() {
        return switch (kind) {
            case TOOL -> "cudnn-tool";
            case NONE -> "no package manager";
            default -> "the " + kind.label() + " package " + name + (version == null ? "" : " " + version);
        };
    }

    /** #32 item 5: the environment as one argument, quoted for the shell of its OS (a drive letter or backslash: PowerShell). */
    private String envArg() {
        boolean windows = env.contains("\\") || env.length() > 1 && env.charAt(1) == ':';
        return Fix.quote(Fix.Shell.of(windows), env);
    }

    /** The owner's own command that takes its files away (before an install replaces them). Null for tool and none. */
    public String removeCommand() {
        return switch (kind) {
            case DPKG -> "sudo apt-get remove " + name;
            case RPM -> "sudo dnf remove " + name;
            case PIP -> "pip uninstall " + name;
            case CONDA -> "conda remove " + (env == null ? "" : "-p " + envArg() + " ") + name;
            default -> null;
        };
    }

    /**
     * The owner's own command that puts its files back as they were: never cudnn install for files a
     * package manager answers for. Null for {@code tool} and {@code none}.
     */
    public String reinstallCommand() {
        return switch (kind) {
            case DPKG -> "sudo apt-get install --reinstall " + name;
            case RPM -> "sudo dnf reinstall " + name;
            case PIP -> (env == null ? "" : "the Python of " + env + ": ") + "pip install --force-reinstall --no-deps " + name
                    + (version == null ? "" : "==" + version);
            case CONDA -> "conda install --force-reinstall " + (env == null ? "" : "-p " + envArg() + " ") + name
                    + (version == null ? "" : "=" + version);
            default -> null;
        };
    }
}
