package dev.cudnntool.testing;

import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.archive.format.XzDecoders;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.searchpath.SearchPathStore;
import dev.cudnntool.host.searchpath.SearchPathStores;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.install.InstallPorts;
import dev.cudnntool.install.InstallService;
import dev.cudnntool.install.PostInstallCheck;
import dev.cudnntool.rollback.RollbackService;
import dev.cudnntool.target.FaultHook;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Function;

/** The services as tests build them: one place that knows their constructors. */
public final class TestPorts {
    /** The clock every test install reads: ids start "20261130T030000Z". */
    public static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T03:00:00Z"), ZoneOffset.UTC);

    private TestPorts() {
    }

    /** The host's own search paths, nobody holding files, no faults. */
    public static InstallPorts ports(Host host, FileOps ops, PostInstallCheck check) {
        return ports(host, ops, check, InstallPorts.NOBODY, SearchPathStores.withoutRegistry(host));
    }

    public static InstallPorts ports(Host host, FileOps ops, PostInstallCheck check,
                                     Function<List<Path>, List<String>> holders, SearchPathStore searchPaths) {
        return new InstallPorts(host, ops, CLOCK, check, InspectionLimits.DEFAULT, XzDecoders.Choice.AUTO, "test", holders, searchPaths,
                FaultHook.NONE);
    }

    public static InstallService install(Host host, FileOps ops, PostInstallCheck check) {
        return new InstallService(ports(host, ops, check));
    }

    public static RollbackService rollback(Host host, FileOps ops, SearchPathStore searchPaths) {
        return new RollbackService(host, ops, Clock.systemUTC(), searchPaths, FaultHook.NONE);
    }
}
