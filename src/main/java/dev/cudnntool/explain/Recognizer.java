package dev.cudnntool.explain;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the cuDNN error lines in pasted text (a log, a traceback, an issue): a pure function, text in, {@link ErrorLine}s
 * out, nothing read from the machine. Colour codes (ANSI CSI sequences) are removed before matching; a line that repeats
 * what an earlier one said (TensorFlow prints its line twice, with other time stamps) is kept once. At most
 * {@link #MAX_LINES} lines are returned and only the first {@link #MAX_LINE_CHARS} characters of a line are looked at,
 * so a hostile input costs bounded time (the command caps the input's size too).
 */
public final class Recognizer {
    /** The most error lines reported. */
    public static final int MAX_LINES = 50;
    /** The characters of one line looked at. */
    public static final int MAX_LINE_CHARS = 4096;

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-?]*[ -/]*[@-~]|\u001B\\][^\u0007\u001B]*(?:\u0007|\u001B\\\\)?");
    /** PyTorch: "(8, 5, 0)" tuples (1.12 on) or "7102" numbers (older); "found runtime version" or "linked against". */
    private static final Pattern TORCH = Pattern.compile("cuDNN version (?:incompatibility|mismatch): PyTorch was compiled\\s+against"
            + "\\s+(\\(\\s*\\d+\\s*,\\s*\\d+\\s*,\\s*\\d+\\s*\\)|\\d+)\\s+but\\s+(?:found runtime version|linked against)"
            + "\\s+(\\(\\s*\\d+\\s*,\\s*\\d+\\s*,\\s*\\d+\\s*\\)|\\d+)");
    /** TensorFlow/XLA cuda_dnn.cc: "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0." or the old "7301 (compatibility version 7300) but source was compiled with 7003". */
    private static final Pattern TENSORFLOW = Pattern.compile("Loaded runtime CuDNN library:\\s*([\\d.]+)(?:\\s*\\(compatibility version"
            + " \\d+\\))?\\s+but source was compiled with:?\\s*([\\d.]+?)\\.?(?:\\s|\\(|$)");
    private static final Pattern UNABLE_ANY = Pattern.compile("Unable to load any of \\{\\s*(libcudnn[\\w]*\\.so[\\w.]*)");
    private static final Pattern WINDOWS = Pattern.compile("Could not (?:load|locate) (?:library )?(cudnn[\\w]*?64_(\\d+)\\.dll)"
            + "(?:\\.?\\s*Error code (\\d+))?", Pattern.CASE_INSENSITIVE);
    private static final Pattern ORT_WINDOWS = Pattern.compile("LoadLibrary failed with error (\\d+).*?(onnxruntime_providers_cuda\\.dll)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern ORT_LINUX = Pattern.compile("Failed to load library (libonnxruntime_providers_cuda\\.so) with error:"
            + "\\s*([\\w.+-]+\\.so[\\w.]*): cannot open shared object file");
    /** ctranslate2, paddle, darknet: "Could not load library libcudnn_ops_infer.so.8. Error: libcublas.so.11: cannot open …". */
    private static final Pattern COULD_NOT_LOAD = Pattern.compile("Could not (?:load|locate)(?: dynamic)? library '?(libcudnn[\\w]*\\.so[\\w.]*?)'?"
            + "\\.?(?:;|\\s|$)(?:.*?(?:Error|dlerror):\\s*([\\w.+-]+\\.so[\\w.]*): cannot open shared object file)?");
    private static final Pattern CANNOT_OPEN = Pattern.compile("(libcudnn[\\w]*\\.so[\\w.]*): cannot open shared object file");
    private static final Pattern STATUS_NAME = Pattern.compile("\\b(CUDNN_STATUS_[A-Z_]+)\\b(?:\\s*\\(\\s*(\\d{1,4})\\s*\\))?");
    private static final Pattern STATUS_NUMBER = Pattern.compile("\\bcudnn[ _]?status(?:_t)?\\s*(?:=|:)?\\s*(\\d{1,4})\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern LINUX_NAME = Pattern.compile("libcudnn(?:_(\\w+?))?\\.so(?:\\.(\\d+)((?:\\.\\d+)*))?");
    private static final Pattern WINDOWS_NAME = Pattern.compile("cudnn(?:_(\\w+?))?64_(\\d+)\\.dll", Pattern.CASE_INSENSITIVE);

    private Recognizer() {
    }

    /** The cuDNN error lines of {@code text}, in order, each once; empty when none. */
    public static List<ErrorLine> recognize(String text) {
        List<ErrorLine> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        String[] lines = text.split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length && out.size() < MAX_LINES; i++) {
            String raw = lines[i].length() > MAX_LINE_CHARS ? lines[i].substring(0, MAX_LINE_CHARS) : lines[i];
            String line = ANSI.matcher(raw).replaceAll("");
            Optional<ErrorLine> e = line(i + 1, line);
            if (e.isPresent() && seen.add(key(e.get()))) {
                out.add(e.get());
            }
        }
        return List.copyOf(out);
    }

    /** What makes two lines say the same: the kind and everything named, not the time stamp or the number. */
    private static String key(ErrorLine e) {
        return String.join("|", e.kind().label(), String.valueOf(e.library()), String.valueOf(e.dependency()),
                String.valueOf(e.compiled()), String.valueOf(e.runtime()), String.valueOf(e.status()), String.valueOf(e.windowsError()));
    }

    /** One line's meaning, if it is a cuDNN error line. */
    static Optional<ErrorLine> line(int number, String line) {
        String text = Echo.safe(line.strip());
        Matcher m = TORCH.matcher(line);
        if (m.find()) {
            String compiled = version(m.group(1));
            String runtime = version(m.group(2));
            return Optional.of(new ErrorLine(number, text, LineKind.TORCH_VERSION_MISMATCH, "PyTorch was built with cuDNN " + compiled
                    + " but the cuDNN it loaded is " + runtime + ": another copy of cuDNN, found first by the loader (usually through"
                    + " LD_LIBRARY_PATH), was loaded instead of the one PyTorch brings", null, majorOf(runtime), null, null, null,
                    compiled, runtime, null, null, null));
        }
        m = TENSORFLOW.matcher(line);
        if (m.find()) {
            String runtime = version(m.group(1));
            String compiled = version(m.group(2));
            return Optional.of(new ErrorLine(number, text, LineKind.TENSORFLOW_VERSION_MISMATCH, "TensorFlow (XLA) was built with"
                    + " cuDNN " + compiled + " but loaded cuDNN " + runtime + "; it needs cuDNN " + majorOf(compiled) + " with a minor"
                    + " version of at least " + minorOf(compiled) + " (" + majorOf(compiled) + "." + minorOf(compiled) + " or newer "
                    + majorOf(compiled) + ".x)", null, majorOf(compiled), null, null, null, compiled, runtime, null, null, null));
        }
        m = UNABLE_ANY.matcher(line);
        if (m.find()) {
            return Optional.of(load(number, text, m.group(1), null));
        }
        m = ORT_WINDOWS.matcher(line);
        if (m.find()) {
            int code = Integer.parseInt(m.group(1));
            return Optional.of(new ErrorLine(number, text, LineKind.ONNXRUNTIME_PROVIDER, "ONNX Runtime's CUDA provider ("
                    + m.group(2) + ") did not load: " + windowsError(code) + "; the provider needs cuDNN (cudnn64_9.dll for ONNX"
                    + " Runtime 1.19 and newer, cudnn64_8.dll before), cuBLAS and the CUDA runtime on PATH", m.group(2), null, null,
                    null, null, null, null, null, null, code));
        }
        m = ORT_LINUX.matcher(line);
        if (m.find()) {
            ErrorLine dep = load(number, text, m.group(2), null);
            return Optional.of(new ErrorLine(number, text, LineKind.ONNXRUNTIME_PROVIDER, "ONNX Runtime's CUDA provider ("
                    + m.group(1) + ") did not load because " + m.group(2) + " was not found: " + dep.meaning(), dep.library(),
                    dep.major(), dep.subLibrary(), dep.wanted(), null, null, null, null, null, null));
        }
        m = WINDOWS.matcher(line);
        if (m.find()) {
            Integer code = m.group(3) == null ? null : Integer.valueOf(m.group(3));
            Matcher n = WINDOWS_NAME.matcher(m.group(1));
            String sub = n.matches() ? n.group(1) : null;
            int major = Integer.parseInt(m.group(2));
            return Optional.of(new ErrorLine(number, text, LineKind.WINDOWS_LOAD_FAILURE, "the program wants cuDNN " + major + "'s "
                    + (sub == null ? "main library" : sub + " sub-library") + " (" + m.group(1) + "): "
                    + (code == null ? "no such DLL was found in the folders Windows searches" : windowsError(code)),
                    m.group(1), major, sub, null, null, null, null, null, null, code));
        }
        m = COULD_NOT_LOAD.matcher(line);
        if (m.find()) {
            String dependency = m.group(2) != null && !m.group(2).equals(m.group(1)) ? m.group(2) : null;
            return Optional.of(load(number, text, m.group(1), dependency));
        }
        m = CANNOT_OPEN.matcher(line);
        if (m.find()) {
            return Optional.of(load(number, text, m.group(1), null));
        }
        m = STATUS_NAME.matcher(line);
        while (m.find()) {
            Optional<CudnnStatus.Entry> s = CudnnStatus.named(m.group(1));
            if (s.isPresent()) {
                Integer code = m.group(2) != null ? Integer.valueOf(m.group(2)) : null;
                return Optional.of(status(number, text, s.get(), code));
            }
        }
        m = STATUS_NUMBER.matcher(line);
        if (m.find()) {
            int code = Integer.parseInt(m.group(1));
            Optional<CudnnStatus.Entry> s = CudnnStatus.numbered(code);
            if (s.isPresent()) {
                return Optional.of(status(number, text, s.get(), code));
            }
        }
        return Optional.empty();
    }

    private static ErrorLine status(int number, String text, CudnnStatus.Entry s, Integer code) {
        String numbering = code == null ? numbers(s) : code >= 1000 ? code + " in cuDNN 9's numbering" : code == 0 ? "0"
                : code + " in cuDNN 8's numbering";
        return new ErrorLine(number, text, LineKind.CUDNN_STATUS, s.name() + " (" + numbering + "): " + s.meaning(), null,
                code == null || code == 0 ? null : code >= 1000 ? 9 : 8, null, null, null, null, null, s.name(),
                code != null ? code : s.v9() != null ? s.v9() : s.v8(), null);
    }

    private static String numbers(CudnnStatus.Entry s) {
        if (s.v8() != null && s.v9() != null) {
            return s.v8().equals(s.v9()) ? String.valueOf(s.v8()) : s.v8() + " in cuDNN 8, " + s.v9() + " in cuDNN 9";
        }
        return s.v9() != null ? s.v9() + ", cuDNN 9 only" : s.v8() + ", cuDNN 8 only";
    }

    /** A Linux library not found by name: which major and sub-library, and why it matters. */
    private static ErrorLine load(int number, String text, String file, String dependency) {
        Matcher n = LINUX_NAME.matcher(file);
        String sub = null;
        Integer major = null;
        String wanted = null;
        if (n.find()) {
            sub = n.group(1);
            major = n.group(2) == null ? null : Integer.valueOf(n.group(2));
            wanted = n.group(3) == null || n.group(3).isEmpty() ? null : n.group(2) + n.group(3);
        }
        String what = (major == null ? "cuDNN's " : "cuDNN " + major + "'s ") + (sub == null ? "main library" : sub + " sub-library");
        String meaning;
        if (dependency != null) {
            meaning = "the program loads " + what + " (" + file + ") but a library it needs, " + dependency + ", is not found by"
                    + " name" + (dependency.startsWith("libcublas") ? " (cuBLAS of that CUDA major)" : "");
        } else {
            meaning = "the program wants " + what + " (" + file + (wanted != null ? ", version " + wanted : "") + ") and the loader"
                    + " found no file of that name in the folders it searches";
        }
        if (sub != null && sub.matches("(ops|cnn|adv)_(infer|train)")) {
            meaning += "; the _infer/_train sub-libraries exist only in cuDNN 8 (cuDNN 9 has libcudnn_ops, _cnn, _adv, _graph),"
                    + " so a cuDNN 9 install (e.g. PyTorch's) does not satisfy it: CTranslate2 3.x and faster-whisper before 1.1 need"
                    + " cuDNN 8 beside it";
        }
        return new ErrorLine(number, text, LineKind.LOAD_FAILURE, meaning, file, major, sub, wanted, dependency, null, null, null,
                null, null);
    }

    /** What a Windows LoadLibrary error code means for a DLL. */
    static String windowsError(int code) {
        return switch (code) {
            case 126 -> "Windows error 126 (ERROR_MOD_NOT_FOUND): the DLL or a DLL it depends on was not found; for cuDNN 8.3 to"
                    + " 9.1 this is usually zlibwapi.dll, which NVIDIA does not ship";
            case 193 -> "Windows error 193 (ERROR_BAD_EXE_FORMAT): the DLL is not a 64-bit (x64) DLL for this program: a 32-bit or"
                    + " other-architecture copy, or a damaged file, was found first";
            case 127 -> "Windows error 127 (ERROR_PROC_NOT_FOUND): the DLL loaded but lacks a function the program needs: DLLs of"
                    + " two cuDNN versions are mixed on PATH";
            default -> "Windows error " + code;
        };
    }

    /** "(8, 5, 0)" → "8.5.0"; "7102" → "7.1.2"; "8.9.6" stays. */
    static String version(String s) {
        String t = s.replaceAll("[()\\s]", "");
        if (t.contains(",")) {
            return t.replace(',', '.');
        }
        if (t.contains(".")) {
            return t;
        }
        long v = Long.parseLong(t.length() > 9 ? t.substring(0, 9) : t);
        return v >= 10000 ? (v / 10000) + "." + (v % 10000 / 100) + "." + (v % 100) // 9.x: 90501
                : (v / 1000) + "." + (v % 1000 / 100) + "." + (v % 100); // 8.x and 7.x: 8907, 7102
    }

    static Integer majorOf(String version) {
        return Integer.valueOf(version.split("\\.")[0]);
    }

    static Integer minorOf(String version) {
        String[] p = version.split("\\.");
        return p.length > 1 ? Integer.valueOf(p[1]) : 0;
    }
}
