package dev.cudnntool.archive;

import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.name.ArchiveFormat;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.CudaVariant;
import dev.cudnntool.archive.name.NamingScheme;

/** The "archive" object of the JSON output: what the name says plus the file's sha256 and size. */
public record ArchiveInfo(String fileName, String canonicalName, String version, int major, OsFamily os,
                          Arch arch, CudaVariant cudaVariant, ArchiveFormat format, NamingScheme scheme,
                          String sha256, long sizeBytes) {
    public static ArchiveInfo of(ArchiveName n, String sha256, long sizeBytes) {
        return new ArchiveInfo(n.fileName(), n.canonicalName(), n.version().toString(), n.major(), n.os(),
                n.arch(), n.cudaVariant(), n.format(), n.scheme(), sha256, sizeBytes);
    }
}
