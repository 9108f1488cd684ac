package dev.cudnntool.cli;

import dev.cudnntool.ExitCode;
import java.util.StringJoiner;
import picocli.CommandLine.Command;

/** The root command; its help ends with the exit codes, written from {@link ExitCode} by {@link #exitCodes()}. */
@Command(name = "cudnn", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Installs, verifies and rolls back NVIDIA cuDNN in a CUDA toolkit.")
public class CudnnCommand {
    /**
     * The subcommands, registered by {@link Main}: only the one being run is built (picocli's
     * reflection over every command costs about 0.1 s, a third of cudnn-verify's run time).
     */
    static final java.util.Map<String, Class<?>> SUBCOMMANDS = new java.util.LinkedHashMap<>();

    static {
        SUBCOMMANDS.put("install", InstallCommand.class);
        SUBCOMMANDS.put("verify", VerifyCommand.class);
        SUBCOMMANDS.put("rollback", RollbackCommand.class);
        SUBCOMMANDS.put("inspect", InspectCommand.class);
        SUBCOMMANDS.put("releases", ReleasesCommand.class);
    }

    /** "Exit codes: 0 ok, 1 checks found errors, …": the help's footer, one entry per {@link ExitCode}. */
    static String exitCodes() {
        StringJoiner codes = new StringJoiner(", ", "Exit codes: ", ".");
        for (ExitCode c : ExitCode.values()) {
            codes.add(c.code() + " " + c.summary());
        }
        return codes.toString();
    }
}
