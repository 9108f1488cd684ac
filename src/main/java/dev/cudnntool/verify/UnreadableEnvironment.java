package dev.cudnntool.verify;

import dev.cudnntool.Finding;
import dev.cudnntool.diagnosis.CudnnScan;
import dev.cudnntool.diagnosis.Diagnosis;
import dev.cudnntool.host.Host;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * #33 item 6: the cuDNN wheel's folder of a Python environment verify looks at ({@code site-packages/nvidia/cudnn/lib},
 * {@code bin} on Windows) that the current user cannot list or enter (mode 000, another user's 0700 folder above it):
 * {@code cudnn.unreadable}, an error, since this user's programs cannot load what is in it either. Never "not found":
 * the copy finder lists no library there, so without this the folder would read as no cuDNN at all.
 */
final class UnreadableEnvironment {
    private UnreadableEnvironment() {
    }

    static List<Finding> findings(Diagnosis d) {
        Host host = d.host();
        List<Finding> out = new ArrayList<>();
        List<Path> said = new ArrayList<>();
        for (Path site : d.environments() == null ? List.<Path>of() : d.environments()) {
            Path lib = site.resolve("nvidia").resolve("cudnn").resolve(host.windows() ? "bin" : "lib");
            if (!Files.exists(lib, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            Optional<Path> denied = CudnnScan.deniedFolder(lib);
            if (denied.isPresent() && said.stream().noneMatch(s -> s.equals(denied.get()))) {
                said.add(denied.get());
                out.add(FileChecks.unreadableFolder(host, denied.get(), lib));
            }
        }
        return out;
    }
}
