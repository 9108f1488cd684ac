package dev.cudnntool.cli;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.host.Host;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** --cuda-path and --prefix: where cuDNN is (or goes). Only one of them. */
public class TargetOptions {
    @Option(names = "--cuda-path", paramLabel = "DIR",
            description = "The CUDA toolkit folder (default: CUDA_PATH, CUDA_HOME, CUDA_PATH_Vx_y, then the usual places).")
    String cudaPath;

    @Option(names = "--prefix", paramLabel = "DIR",
            description = "A stand-alone folder for cuDNN in the archive's own layout instead of a toolkit.")
    String prefix;

    Path cudaPath(Host host) {
        check();
        return cudaPath == null ? null : PathArgument.of(host, "--cuda-path", cudaPath).toAbsolutePath().normalize();
    }

    Path prefix(Host host) {
        check();
        return prefix == null ? null : PathArgument.of(host, "--prefix", prefix).toAbsolutePath().normalize();
    }

    private void check() {
        if (cudaPath != null && prefix != null) {
            throw new ToolException(ExitCode.USAGE, "--cuda-path and --prefix name two different targets",
                    "pass only one of them");
        }
    }
}
