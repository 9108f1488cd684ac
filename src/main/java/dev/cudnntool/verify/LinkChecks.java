package dev.cudnntool.verify;

import dev.cudnntool.Fix;
import dev.cudnntool.host.RealPaths;
import dev.cudnntool.diagnosis.InstalledCudnn;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.LibraryName;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.ElfFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Links in a cuDNN folder that point the wrong way. {@code cudnn.dev-link-mismatch}: the
 * development link {@code libcudnn.so} (what {@code -lcudnn} opens at build time) leads to another
 * major than the soname link, so a program built here against these headers records the old
 * major's soname.
 */
final class LinkChecks {
    private LinkChecks() {
    }

    static List<Finding> devLinks(Host host, InstalledCudnn c) {
        if (host.windows()) {
            return List.of();
        }
        Path dir = c.runtimeDir();
        List<String> wrong = new ArrayList<>();
        List<String> fixes = new ArrayList<>();
        String sudo = FileChecks.ownFolder(host, dir) ? "" : "sudo ";
        for (String base : CudnnComponents.libraries(c.major())) {
            Path dev = dir.resolve("lib" + base + ".so");
            String soname = CudnnComponents.linuxSoname(base, c.major());
            if (!Files.exists(dir.resolve(soname))) {
                continue; // no soname link of the verified major to point at: said by other findings
            }
            Optional<Integer> major = majorOf(dev);
            if (major.isEmpty() || major.get() == c.major()) {
                continue;
            }
            wrong.add(dev.getFileName() + " -> " + target(dev) + " (cuDNN " + major.get() + (Files.exists(dev) ? ")"
                    : ", no longer there: the link dangles)"));
            fixes.add(Files.isSymbolicLink(dev) ? sudo + "ln -sfn " + Fix.quote(Fix.Shell.POSIX, soname) + " " + Fix.quote(Fix.Shell.POSIX, dev.toString())
                    : sudo + "rm " + Fix.quote(Fix.Shell.POSIX, dev.toString()) + " && " + sudo + "ln -s " + Fix.quote(Fix.Shell.POSIX, soname) + " " + Fix.quote(Fix.Shell.POSIX, dev.toString()));
        }
        if (wrong.isEmpty()) {
            return List.of();
        }
        return List.of(Finding.error(FindingId.CUDNN_DEV_LINK_MISMATCH, "in " + dir + " the development link" + (wrong.size() == 1
                        ? " " : "s ") + String.join(", ", wrong) + (wrong.size() == 1 ? " leads" : " lead") + " to another major than"
                        + " the soname link (cuDNN " + c.major() + "): a program built here with -lcudnn links the old major"
                        + " against the cuDNN " + c.major() + " headers, and at run time loads that major, or fails to find it",
                String.join(" && ", fixes)));
    }

    /** The cuDNN major a dev link (or a copied file under that name) leads to: its DT_SONAME, else the name it links to. */
    static Optional<Integer> majorOf(Path dev) {
        if (!Files.exists(dev)) {
            // absent or a loop: not this check's to say; dangling (#33 item 6): the major its last link names
            return Files.isSymbolicLink(dev) && loop(dev).isEmpty() ? danglingMajor(dev) : Optional.empty();
        }
        try {
            Path real = RealPaths.real(dev);
            String soname = ElfFile.read(real, false).soname();
            Optional<LibraryName> n = soname == null ? Optional.empty() : LibraryName.parse(soname);
            if (n.isEmpty() || n.get().major() == null) {
                n = LibraryName.parse(real.getFileName().toString());
            }
            return n.map(LibraryName::major);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The cuDNN major named by the last link of a dangling chain ({@code libcudnn.so -> libcudnn.so.8}, which is gone). */
    static Optional<Integer> danglingMajor(Path dev) {
        Path at = dev;
        try {
            for (int hop = 0; hop < MAX_HOPS && Files.isSymbolicLink(at); hop++) {
                Path target = Files.readSymbolicLink(at);
                at = at.getParent() == null ? target : at.getParent().resolve(target);
            }
            Path name = at.getFileName();
            return name == null ? Optional.empty() : LibraryName.parse(name.toString()).map(LibraryName::major);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String target(Path dev) {
        try {
            return Files.isSymbolicLink(dev) ? Files.readSymbolicLink(dev).toString() : "a copied file";
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** Links followed at most this many hops, as the kernel's own limit (ELOOP after 40). */
    static final int MAX_HOPS = 40;

    /**
     * The links from {@code link} around to where they repeat ({@code a -> b -> a}), or empty when
     * the chain ends (in a file, or a missing target) within MAX_HOPS. Bounded; never follows more.
     */
    static Optional<List<Path>> loop(Path link) {
        List<Path> chain = new ArrayList<>();
        Path at = link.toAbsolutePath().normalize();
        for (int hop = 0; hop <= MAX_HOPS; hop++) {
            int seen = chain.indexOf(at);
            if (seen >= 0) {
                List<Path> out = new ArrayList<>(chain.subList(seen, chain.size()));
                out.add(at);
                if (seen > 0) {
                    out.addAll(0, chain.subList(0, seen));
                }
                return Optional.of(out);
            }
            chain.add(at);
            if (!Files.isSymbolicLink(at)) {
                return Optional.empty();
            }
            try {
                Path target = Files.readSymbolicLink(at);
                at = (at.getParent() == null ? target : at.getParent().resolve(target)).toAbsolutePath().normalize();
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }
        return Optional.of(chain); // longer than the kernel follows: the loader gives up just the same
    }
}
