package dev.cudnntool.diagnosis;

import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.host.DriverCheck;
import dev.cudnntool.host.FolderListing;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.Platform;
import dev.cudnntool.host.Toolkit;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.target.InstallTarget;
import java.nio.file.Path;
import java.util.List;

/**
 * The facts one {@code verify} judges, gathered once by {@link DiagnosisCollector}: the question asked,
 * the platform, the driver's answer (GPUs included), the toolkits, the target and the folders looked at,
 * the cuDNN scanned there, the search path, the probe's answer, every copy on the machine with its
 * owner, and the Python environments. Checks read it; none gathers again.
 *
 * @param located    how the toolkit was chosen (its findings unjudged), or null with --prefix
 * @param target     null when there is none (no toolkit, or a --prefix that is not a folder)
 * @param cudnn      the cuDNN scanned in the target, or null
 * @param bareName   the name programs load it by (libcudnn.so.9, cudnn64_9.dll), or null
 * @param loadable   false when the files were judged unsafe to load (the probe was not started)
 * @param search     the library search path for the scanned runtime folder, or null
 * @param probe      the probe's answer, or null (--no-probe, nothing to load, or not loadable)
 * @param copies     every cuDNN copy found, each with its owner
 * @param environments the Python site-packages folders looked at (all of them with --all)
 * @param unreadRecords package records (pip RECORD, conda-meta, dpkg lists) that could not be read while the copies'
 *                      owners were looked up: those owners were not checked
 * @param scanCuts   folders whose cuDNN names were not all read (#32 item 7's bound)
 * @param skipped    folders found by scanning that were not searched, not being the user's own (#32 item 4)
 */
public record Diagnosis(Host host, Question question, Platform platform, DriverCheck.Result driver,
                        ToolkitLocator.Selection located, Toolkit toolkit, List<Toolkit> toolkitsFound, InstallTarget target,
                        List<Path> runtimeDirs, Path headerDir, InstalledCudnn cudnn, String bareName, boolean loadable,
                        LibrarySearchCheck.Result search, ProbeResult probe, List<CudnnCopy> copies, List<Path> environments,
                        List<Path> unreadRecords, List<FolderListing.Cut> scanCuts, List<CopyFinder.Skipped> skipped) {

    /** What was asked: --cuda-path, --prefix, --expect, --all. */
    public record Question(Path cudaPath, Path prefix, CudnnVersion expect, boolean all) {
        /** Something was asserted: then "no toolkit" or "no cuDNN" is a failure, not the plain answer. */
        public boolean asserted() {
            return expect != null || cudaPath != null || prefix != null;
        }
    }
}
