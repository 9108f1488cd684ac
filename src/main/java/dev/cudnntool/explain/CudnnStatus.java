package dev.cudnntool.explain;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * cuDNN's status codes ({@code cudnnStatus_t}) in both numberings, with what each means for a user.
 *
 * <p>Sources: NVIDIA's API reference. cuDNN 8.x ({@code cudnn_ops_infer.h}, "cudnnStatus_t" in the 8.9 API reference,
 * docs.nvidia.com/deeplearning/cudnn/archives/cudnn-890/api/index.html#cudnnStatus_t): 0 SUCCESS … 14 VERSION_MISMATCH,
 * as also listed by the cudarc crate's bindings (docs.rs/cudarc/0.9.9, enum cudnnStatus_t, 15 variants in this order).
 * cuDNN 9.x ({@code cudnn_graph.h}, "cudnnStatus_t" in the cuDNN 9 Graph Library reference,
 * docs.nvidia.com/deeplearning/cudnn/latest/api/cudnn-graph-library.html#cudnnstatus-t): codes in families, 0 success,
 * 1000s not initialized and sub-library problems, 2000 bad parameter, 3000 not supported, 4000 internal error, 5000
 * execution failed; the 8.x names that remain are aliases of a 9.x code ({@code cudnn-facts.md} §probe confirms 1001, 1002,
 * 1008, 2000, 3000, 4000 and 5000 on real libraries).
 */
public final class CudnnStatus {
    /** One status: its name, its 8.x number (null when 8.x has none), its 9.x number (null when 9.x has none), and what it means. */
    public record Entry(String name, Integer v8, Integer v9, String meaning) {
    }

    private static final Map<String, Entry> BY_NAME = new LinkedHashMap<>();

    private static void add(String name, Integer v8, Integer v9, String meaning) {
        BY_NAME.put(name, new Entry(name, v8, v9, meaning));
    }

    static {
        add("CUDNN_STATUS_SUCCESS", 0, 0, "success: the call worked");
        add("CUDNN_STATUS_NOT_INITIALIZED", 1, 1001, "cuDNN could not start: usually cudnnCreate failed because the CUDA runtime"
                + " found no usable GPU or driver (driver too old for the CUDA build of cuDNN, no GPU visible, or a sub-library that"
                + " did not load)");
        add("CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH", null, 1002, "cuDNN's sub-libraries are of different versions: the main"
                + " library and libcudnn_ops/cnn/adv/graph come from two copies or a partly replaced install");
        add("CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH", null, 1003, "a serialized plan was made by another cuDNN version");
        add("CUDNN_STATUS_DEPRECATED", null, 1004, "a deprecated function was called (a warning-like status)");
        add("CUDNN_STATUS_LICENSE_ERROR", 10, 1005, "cuDNN's licence check failed (a licence file or server it was built to need)");
        add("CUDNN_STATUS_RUNTIME_IN_PROGRESS", 12, 1006, "an asynchronous check is still running (query again later)");
        add("CUDNN_STATUS_RUNTIME_FP_OVERFLOW", 13, 1007, "a floating-point overflow was detected in a computation");
        add("CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED", null, 1008, "a cuDNN 9 sub-library (libcudnn_graph, _ops, _cnn, _adv,"
                + " _engines_*) could not be loaded: missing, of another version, or a library it needs (cuBLASLt, zlib) is missing");
        add("CUDNN_STATUS_BAD_PARAM", 3, 2000, "a wrong argument was passed: a bug or an unsupported use in the calling program,"
                + " not an installation problem");
        add("CUDNN_STATUS_INVALID_VALUE", 5, 2001, "an invalid value was passed: a bug or an unsupported use in the calling program");
        add("CUDNN_STATUS_BAD_PARAM_NULL_POINTER", null, 2002, "a null pointer was passed: a bug in the calling program");
        add("CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED", null, 2004, "a descriptor was used before it was finalized: a bug in the"
                + " calling program");
        add("CUDNN_STATUS_NOT_SUPPORTED", 9, 3000, "this operation or configuration is not supported by this cuDNN on this GPU"
                + " (shape, data type or layout; sometimes a GPU too old or too new for the cuDNN build)");
        add("CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN", null, 3001, "the operation graph is not supported by any engine of this"
                + " cuDNN: often a sub-library (libcudnn_engines_*) that did not load");
        add("CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", null, 3007, "the GPU's compute capability is not supported by this"
                + " cuDNN build");
        add("CUDNN_STATUS_ARCH_MISMATCH", 6, 3007, "the GPU's compute capability is not supported by this cuDNN build");
        add("CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING", null, 3008, "a library cuDNN needs at run time (cuBLAS,"
                + " cuBLASLt, NVRTC) is missing or of the wrong version");
        add("CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", 11, 3008, "a library cuDNN needs at run time (cuBLAS, cuBLASLt,"
                + " NVRTC) is missing or of the wrong version");
        add("CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE", null, 3009, "a cuDNN 9 sub-library this operation needs is not"
                + " available (not installed, or did not load)");
        add("CUDNN_STATUS_INTERNAL_ERROR", 4, 4000, "cuDNN failed inside: often out of GPU memory, or a CUDA runtime and driver"
                + " that do not fit");
        add("CUDNN_STATUS_ALLOC_FAILED", 2, 4003, "cuDNN could not allocate memory (host or GPU): out of memory");
        add("CUDNN_STATUS_MAPPING_ERROR", 7, 4006, "cuDNN could not access GPU memory (a texture or mapping failure)");
        add("CUDNN_STATUS_EXECUTION_FAILED", 8, 5000, "a GPU kernel failed to run: a driver problem, a GPU the build does not"
                + " support, or an earlier error in the program");
        add("CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER", null, 5001, "a CUDA driver call failed while running: the driver is"
                + " too old or broken");
        add("CUDNN_STATUS_EXECUTION_FAILED_CUBLAS", null, 5002, "a cuBLAS call failed while running");
        add("CUDNN_STATUS_EXECUTION_FAILED_CUDART", null, 5003, "a CUDA runtime call failed while running");
        add("CUDNN_STATUS_VERSION_MISMATCH", 14, 1002, "cuDNN 8's libraries are of different versions (main library and"
                + " _infer/_train sub-libraries from two copies)");
    }

    private CudnnStatus() {
    }

    /** The status named {@code name} (as printed, e.g. "CUDNN_STATUS_NOT_INITIALIZED"), if known. */
    public static Optional<Entry> named(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /**
     * The status numbered {@code code}: 9.x's numbers are 1000 and above, 8.x's below 15, 0 is success in both (the
     * name whose own numbering has that value; for 9.x the first name listed, not a deprecated alias).
     */
    public static Optional<Entry> numbered(int code) {
        for (Entry e : BY_NAME.values()) {
            if (code >= 1000 ? e.v9() != null && e.v9() == code && (e.v8() == null || !isAlias(e)) : e.v8() != null && e.v8() == code) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /** 8.x names kept in 9.x only as aliases of another code. */
    private static boolean isAlias(Entry e) {
        return e.name().equals("CUDNN_STATUS_ARCH_MISMATCH") || e.name().equals("CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING")
                || e.name().equals("CUDNN_STATUS_VERSION_MISMATCH");
    }

    /** Whether the status is about this machine's installation (libraries, driver, GPU), not the calling program's arguments. */
    static boolean aboutInstallation(Entry e) {
        int family = e.v9() == null ? 0 : e.v9() / 1000;
        return switch (e.name()) {
            case "CUDNN_STATUS_SUCCESS", "CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH", "CUDNN_STATUS_DEPRECATED",
                    "CUDNN_STATUS_RUNTIME_IN_PROGRESS", "CUDNN_STATUS_RUNTIME_FP_OVERFLOW" -> false;
            default -> family != 2;
        };
    }
}
