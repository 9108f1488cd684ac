package dev.cudnntool.verify;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.diagnosis.CopyFinder;
import dev.cudnntool.diagnosis.CudnnCopy;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code cudnn.copies} and PyTorch's own load ({@link TorchLoad}), from the copies the collector found. */
final class CopiesFindings {
    private CopiesFindings() {
    }

    /**
     * Which copy a program loading cuDNN by name gets, and for each Python site-packages with
     * PyTorch, which copy PyTorch really loads ({@link TorchLoad}: its own DT_RPATH or DT_RUNPATH
     * in the loader's order).
     */
    static List<Finding> findings(Host host, List<CudnnCopy> copies) {
        List<Finding> out = new ArrayList<>();
        boolean inTarget = copies.stream().anyMatch(c -> c.origin() == CudnnCopy.Origin.TARGET);
        if (!inTarget && !copies.isEmpty()) {
            // the only cuDNN is elsewhere (conda, pip, another toolkit): say so, in the text and the JSON alike
            List<String> each = copies.stream().map(c -> c.path() + " (" + c.origin().label() + (c.version() == null ? ""
                    : ", cuDNN " + c.version()) + (c.winsByName() ? ", what a program loading " + CopyFinder.bareName(host, c.major())
                    + " by name gets" : "") + ")").toList();
            out.add(Finding.info(FindingId.CUDNN_COPIES, "no cuDNN in the target, but " + copies.size() + " cuDNN "
                    + (copies.size() == 1 ? "copy" : "copies") + " elsewhere on this machine: " + String.join("; ", each)
                    + "; not checked here (verify --all checks " + (copies.size() == 1 ? "it" : "each") + ")"));
        }
        for (CudnnCopy c : copies) {
            if (inTarget && c.winsByName() && copies.size() > 1) {
                out.add(Finding.info(FindingId.CUDNN_COPIES, copies.size() + " cuDNN copies on this machine; a program loading "
                        + CopyFinder.bareName(host, c.major()) + " by name gets " + c.path() + " (" + c.origin().label()
                        + (c.version() == null ? "" : ", cuDNN " + c.version()) + ")"));
            }
        }
        LdSoCache cache = null;
        for (Path site : CopyFinder.sitePackages(host)) {
            if (!Files.isDirectory(site.resolve("torch"))) {
                continue;
            }
            cache = cache != null ? cache : host.windows() ? LdSoCache.empty() : LdSoCache.of(host);
            out.add(TorchLoad.finding(host, site, copies, cache));
        }
        return out;
    }
}
