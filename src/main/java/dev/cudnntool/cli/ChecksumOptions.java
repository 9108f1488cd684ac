package dev.cudnntool.cli;

import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.host.Host;
import picocli.CommandLine.Option;

/** --sha256 and --manifest: what the archive's checksum must be; without them, NVIDIA's published value from the catalogue. */
public class ChecksumOptions {
    @Option(names = "--sha256", paramLabel = "HEX", description = "The archive's expected sha256.")
    String sha256;

    @Option(names = "--manifest", paramLabel = "FILE",
            description = "NVIDIA's redistrib_<version>.json; the entry for this archive gives sha256 and size.")
    String manifest;

    /** Whether --sha256 or --manifest was given. */
    boolean given() {
        return sha256 != null || manifest != null;
    }

    /** The user's checksum when given (it wins), else what the built-in catalogue says about this name. */
    ChecksumExpectation expectation(Host host, ArchiveName name, Catalogue catalogue) {
        if (sha256 != null && manifest != null) {
            throw new ToolException(ExitCode.USAGE, "--sha256 and --manifest both give a checksum", "pass only one of them");
        }
        if (sha256 != null) {
            return ChecksumExpectation.ofHex(sha256);
        }
        if (manifest != null) {
            return ChecksumExpectation.fromManifest(PathArgument.of(host, "--manifest", manifest), name.canonicalName());
        }
        return catalogue.expectation(name);
    }
}
