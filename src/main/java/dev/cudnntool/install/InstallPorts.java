package dev.cudnntool.install;
import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.archive.format.XzDecoders;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.searchpath.SearchPathStore;
import dev.cudnntool.target.FaultHook;
import dev.cudnntool.target.FileOps;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What an install works with besides the request, fixed for the life of a service: the machine,
 * the file operations, the one clock, the check after the commit, the archive limits and .xz decoder, the tool's
 * version for the record, who holds files open (Windows Restart Manager; nobody by default),
 * where --add-to-path writes, and the fault hook (production: {@link FaultHook#NONE}).
 */
public record InstallPorts(Host host, FileOps ops, Clock clock, PostInstallCheck check, InspectionLimits limits,
                           XzDecoders.Choice xz, String toolVersion, Function<List<Path>, List<String>> holders, SearchPathStore searchPaths,
                           FaultHook faults) {
    /** Nobody is named as holding a file open. */
    public static final Function<List<Path>, List<String>> NOBODY = files -> List.of();

    public InstallPorts {
        Objects.requireNonNull(host);
        Objects.requireNonNull(ops);
        Objects.requireNonNull(clock);
        Objects.requireNonNull(check);
        Objects.requireNonNull(limits);
        Objects.requireNonNull(xz);
        Objects.requireNonNull(holders);
        Objects.requireNonNull(searchPaths);
        Objects.requireNonNull(faults);
    }
}
