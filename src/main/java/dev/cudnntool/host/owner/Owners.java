package dev.cudnntool.host.owner;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.ProcessResult;
import dev.cudnntool.host.RealPaths;
import dev.cudnntool.host.TrustedPrograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which package manager answers for a file: pip (a {@code *.dist-info/RECORD} of its site-packages
 * lists it), conda (a {@code conda-meta/*.json} of its environment lists it), dpkg (a cuDNN package's
 * {@code /var/lib/dpkg/info/*.list} names it) or rpm ({@code rpm -qf}, run from a trusted folder
 * through the process port, when {@code /var/lib/rpm} exists). Read-only; answers are kept for the
 * run. Whether this tool installed a file is told by its own history, one layer up.
 */
public final class Owners {
    static final Duration RPM_TIMEOUT = Duration.ofSeconds(10);
    private final Host host;
    private final DpkgRecords dpkg;
    private final Map<Path, Owner> known = new HashMap<>();
    private final Set<Path> unread = new LinkedHashSet<>();

    public Owners(Host host) {
        this.host = host;
        this.dpkg = new DpkgRecords(host.path(host.windows() ? "C:\\" : "/var/lib/dpkg"));
    }

    /** The package manager that answers for {@code file}, or {@link Owner#NONE}. */
    public Owner of(Path file) {
        return known.computeIfAbsent(file, this::lookUp);
    }

    /**
     * The package records asked so far that could not be read (a pip RECORD, a conda-meta file, a dpkg list): a file
     * one of them lists reads as unowned, so its owner was not checked.
     */
    public List<Path> unreadable() {
        List<Path> out = new ArrayList<>(unread);
        out.addAll(dpkg.unread());
        return List.copyOf(out);
    }

    private Owner lookUp(Path file) {
        List<Path> forms = forms(file);
        for (Path f : forms) {
            Optional<Path> site = PythonRecords.siteOf(f);
            Optional<Owner> o = site.flatMap(s -> PythonRecords.ownerOf(s, f, unread::add));
            if (o.isPresent()) {
                return o.get();
            }
            Optional<Path> env = CondaRecords.envOf(f);
            o = env.flatMap(e -> CondaRecords.ownerOf(e, f, unread::add));
            if (o.isPresent()) {
                return o.get();
            }
        }
        if (host.windows()) {
            return Owner.NONE;
        }
        if (dpkg.present()) {
            Optional<Owner> o = dpkg.ownerOf(forms.stream().map(Path::toString).toList());
            if (o.isPresent()) {
                return o.get();
            }
        }
        return rpm(forms.get(forms.size() - 1)).orElse(Owner.NONE);
    }

    /** The path as given, then (when it differs) its real path: a package lists one of them. */
    private static List<Path> forms(Path file) {
        List<Path> out = new ArrayList<>();
        out.add(file.toAbsolutePath().normalize());
        Path real = RealPaths.real(file); // a dangling link: its own path, so only that
        if (!real.equals(out.get(0))) {
            out.add(real);
        }
        return out;
    }

    private Optional<Owner> rpm(Path file) {
        if (!Files.isDirectory(host.path("/var/lib/rpm")) && !Files.isDirectory(host.path("/usr/lib/sysimage/rpm"))) {
            return Optional.empty();
        }
        Optional<Path> rpm = TrustedPrograms.rpm(host);
        if (rpm.isEmpty()) {
            return Optional.empty();
        }
        ProcessResult r = host.runner().run(List.of(rpm.get().toString(), "-qf", "--queryformat", "%{NAME}\\t%{VERSION}-%{RELEASE}\\n",
                "--", file.toString()), RPM_TIMEOUT);
        if (!r.ok() || r.out() == null) {
            return Optional.empty();
        }
        String[] line = r.out().strip().split("\n", 2)[0].split("\t");
        if (line.length != 2) {
            return Optional.empty();
        }
        String name = PackageNames.name(line[0]);
        String version = PackageNames.version(line[1]);
        return name == null ? Optional.empty() : Optional.of(new Owner(Owner.Kind.RPM, name, version, null));
    }
}
