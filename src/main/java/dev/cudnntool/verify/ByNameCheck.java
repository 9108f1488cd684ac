package dev.cudnntool.verify;
import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.diagnosis.InstalledCudnn;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LibrarySearchCheck;
import dev.cudnntool.host.loader.LoaderPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a program gets when it loads cuDNN by bare name (as every framework does): nothing, or
 * another copy. The probe's own by-name load is the evidence; the loader model names the
 * mechanism (an ld.so.conf.d line not yet cached, LD_LIBRARY_PATH, a system folder, PATH, ...).
 */
final class ByNameCheck {
    /** "libz.so.1: cannot open shared object file" names the library the loader could not find. */
    private static final Pattern CANNOT_OPEN = Pattern.compile("([\\w.+-]+\\.so[\\w.]*): cannot open shared object file");

    private ByNameCheck() {
    }

    /**
     * @param bareName the name the probe loaded (libcudnn.so.9, cudnn64_9.dll)
     */
    static List<Finding> findings(Host host, ProbeResult p, InstalledCudnn c, String bareName) {
        List<Finding> out = new ArrayList<>();
        if (p == null || bareName == null || p.byNameError() == null) {
            return out;
        }
        Path dir = c.runtimeDir();
        String err = p.byNameError();
        Matcher m = CANNOT_OPEN.matcher(err);
        String what = "programs that load " + bareName + " by name (PyTorch, TensorFlow, your own) cannot load it: the loader says \""
                + err + "\"";
        if (m.find() && !m.group(1).equals(bareName)) {
            out.add(Finding.error(FindingId.CUDNN_NOT_FOUND_BY_NAME, what + "; it finds cuDNN but not " + m.group(1) + ", which cuDNN needs",
                    DependencyCheck.origin(m.group(1), c.major())));
            return out;
        }
        if (err.toLowerCase(Locale.ROOT).contains("permission denied")) {
            out.add(FileChecks.unreadableFinding(host, c.mainLibrary().toString()));
            return out;
        }
        out.add(Finding.error(FindingId.CUDNN_NOT_FOUND_BY_NAME, what + "; " + dir + " is " + why(host, dir, bareName), fix(host, dir, bareName)));
        return out;
    }

    private static String why(Host host, Path dir, String bareName) {
        if (host.windows()) {
            return "not on PATH (the DLL search order: the program's folder, System32, the Windows folder, PATH)";
        }
        Optional<LoaderPath.ConfLine> conf = LoaderPath.confLine(host, LoaderPath.ldSoConfLines(host), dir);
        if (conf.isPresent()) {
            return "listed in " + conf.get() + ", but /etc/ld.so.cache has no " + bareName + " from it: ldconfig has not"
                    + " been run since the folder was added or the files were copied";
        }
        return "neither on LD_LIBRARY_PATH nor in /etc/ld.so.cache (no /etc/ld.so.conf.d file lists it) nor a system folder";
    }

    private static Fix fix(Host host, Path dir, String bareName) {
        if (!host.windows() && LoaderPath.confLine(host, LoaderPath.ldSoConfLines(host), dir).isPresent()) {
            return Fix.text("sudo ldconfig");
        }
        return Fix.reinstall(LibrarySearchCheck.fixLine(host, dir) + "; or reinstall with cudnn install --add-to-path, which does this"
                + " for good");
    }

    /**
     * The fix for {@code cudnn.shadowed}: which mechanism put the other copy first, from the
     * loader model; the generic advice when the model cannot tell.
     */
    static String shadowedFix(Host host, Path other, Path target) {
        LdSoCache cache = host.windows() ? LdSoCache.empty() : LdSoCache.of(host);
        Optional<LoaderPath.Hit> hit = LoaderPath.find(host, cache, other.getFileName().toString(), List.of(), List.of());
        LoaderPath.Place place = hit.isPresent() && Files.exists(other) && host.samePath(hit.get().file().getParent(), other.getParent())
                ? hit.get().place() : null;
        String how = place == null ? "" : "that copy comes first through " + place.describe() + ": ";
        return how + LibrarySearchCheck.shadowFix(host, other, place, target);
    }
}
