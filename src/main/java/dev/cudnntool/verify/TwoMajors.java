package dev.cudnntool.verify;

import dev.cudnntool.diagnosis.InstalledCudnn;

import dev.cudnntool.Finding;
import dev.cudnntool.Fix;
import dev.cudnntool.FindingId;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.host.Host;
import java.util.List;

/**
 * cuDNN 8 and 9 side by side in one folder: each major's libraries are there, but one include
 * folder holds only one cudnn_version.h. That is not a half-finished upgrade; say what a program
 * gets: compiled here, it sees the header's major and links that major's library.
 */
final class TwoMajors {
    private TwoMajors() {
    }

    /** The checked major's libraries sit with another major's, and the header is the other one's. */
    static boolean applies(InstalledCudnn c) {
        return c.headerVersion() != null && c.headerVersion().major() != c.major()
                && c.otherMajors().contains(c.headerVersion().major());
    }

    static List<Finding> findings(Host host, InstalledCudnn c) {
        if (!applies(c)) {
            return List.of();
        }
        int other = c.headerVersion().major();
        String checked = host.windows() ? CudnnComponents.windowsDll("cudnn", c.major()) : CudnnComponents.linuxSoname("cudnn", c.major());
        String headerLib = host.windows() ? CudnnComponents.windowsDll("cudnn", other) : CudnnComponents.linuxSoname("cudnn", other);
        return List.of(Finding.warn(FindingId.CUDNN_TWO_MAJORS, "cuDNN " + c.major() + " and cuDNN " + other + " libraries are both in "
                        + c.runtimeDir() + " (" + checked + " and " + headerLib + "); the one " + c.headerFile() + " is cuDNN "
                        + c.headerVersion() + "'s, so a program compiled against this install gets cuDNN " + other
                        + "'s declarations and links " + headerLib + ". Programs built elsewhere against cuDNN " + c.major()
                        + " still load " + checked + " (checked here); only building against cuDNN " + c.major()
                        + " is not possible with these headers",
                Fix.reinstall("to build against cuDNN " + c.major() + ", install its archive with cudnn install --prefix DIR into a"
                        + " folder of its own (its headers come with it) and point the build there")));
    }
}
