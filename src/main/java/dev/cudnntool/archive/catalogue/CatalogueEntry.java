package dev.cudnntool.archive.catalogue;

import dev.cudnntool.archive.name.ArchiveName;
import java.util.List;

/**
 * One archive NVIDIA published, as the built-in catalogue knows it.
 *
 * @param version      the version as written in the file name ("9.5.1.17", legacy "v7.1" names keep "7.1")
 * @param os           linux, windows or osx
 * @param arch         x86_64, sbsa, aarch64, ppc64le or arm64
 * @param cudaVariant  the CUDA text of the name: "12", "11.5"
 * @param sha256       the agreed sha256; for a disputed name the first of {@code candidates}
 * @param size         bytes, from NVIDIA's manifests only; null when unknown
 * @param releaseDate  ISO date where the data carries one, else null
 * @param candidates   for a disputed name every sha256 public sources give; empty otherwise
 */
public record CatalogueEntry(String fileName, String version, String os, String arch, String cudaVariant,
                             String format, String sha256, Long size, String releaseDate, List<String> candidates) {
    public CatalogueEntry {
        candidates = List.copyOf(candidates);
    }

    /** An undisputed entry (tests build these for the fixture archives). */
    public static CatalogueEntry of(String fileName, String sha256, Long size) {
        ArchiveName n = ArchiveName.parse(fileName);
        return new CatalogueEntry(n.canonicalName(), n.version().toString(), n.os().label(), n.arch().label(),
                n.cudaVariant().toString(), n.format().label(), sha256, size, null, List.of());
    }

    /** Public sources disagree on this name's sha256 ({@code conflicts} in the data). */
    public boolean disputed() {
        return !candidates.isEmpty();
    }

    /** Every sha256 that passes: the agreed one, or each disputed candidate. */
    public List<String> accepted() {
        return disputed() ? candidates : List.of(sha256);
    }
}
