package dev.cudnntool.cli;

import picocli.CommandLine.Command;

@Command(name = "cudnn", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Installs, verifies and rolls back NVIDIA cuDNN in a CUDA toolkit.",
        footer = {"", "Exit codes: 0 ok, 1 checks found errors, 2 usage, 3 archive rejected, 4 host not ready,",
                "5 target not writable or locked, 6 install failed and was rolled back,",
                "7 install failed and the automatic rollback failed too, 8 nothing to roll back or rollback refused."})
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
}
