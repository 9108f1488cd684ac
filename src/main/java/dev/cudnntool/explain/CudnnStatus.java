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
 *
 * <p>Checked against the real headers (#33): every 9.x name and number equals the {@code cudnnStatus_t} block of
 * 9.24.0's {@code cudnn_graph.h} (copied into src/test/resources/explain, pinned by CudnnStatusHeaderTest; a code's
 * first release is noted where it is after 9.0: 1008 in 9.2, 2011 and 3013 in 9.5, 2012 in 9.6, 3014 in 9.18). The
 * 8.x numbers 0-14 are cudnn_ops_infer.h's order (no NVIDIA 8.x header is on this machine: the real 8.9.7 library's
 * cudnnGetErrorString names each of them, RealCudnnStatusTest under -Preal-cudnn).
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
        add("CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER", null, 2003, "a misaligned pointer was passed: a bug in the calling"
                + " program");
        add("CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED", null, 2004, "a descriptor was used before it was finalized: a bug in the"
                + " calling program");
        add("CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND", null, 2005, "an argument is out of bounds: a bug in the calling program");
        add("CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT", null, 2006, "a buffer passed is too small (e.g. the workspace): a bug"
                + " in the calling program");
        add("CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH", null, 2007, "CUDA streams that do not match were passed: a bug in the"
                + " calling program");
        add("CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH", null, 2008, "tensor shapes that do not fit together were passed: a bug"
                + " in the calling program");
        add("CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES", null, 2009, "duplicated entries were passed: a bug in the calling"
                + " program");
        add("CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE", null, 2010, "an attribute of the wrong type was passed: a bug in the"
                + " calling program");
        add("CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH", null, 2011, "a CUDA graph that does not match was passed (cuDNN"
                + " 9.5 and later): a bug in the calling program");
        add("CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE", null, 2012, "a descriptor of the wrong type was passed (cuDNN 9.6 and"
                + " later): a bug in the calling program");
        add("CUDNN_STATUS_NOT_SUPPORTED", 9, 3000, "this operation or configuration is not supported by this cuDNN on this GPU"
                + " (shape, data type or layout; sometimes a GPU too old or too new for the cuDNN build)");
        add("CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN", null, 3001, "the operation graph is not supported by any engine of this"
                + " cuDNN: often a sub-library (libcudnn_engines_*) that did not load");
        add("CUDNN_STATUS_NOT_SUPPORTED_SHAPE", null, 3002, "this tensor shape is not supported by this cuDNN");
        add("CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE", null, 3003, "this data type is not supported by this cuDNN on this GPU");
        add("CUDNN_STATUS_NOT_SUPPORTED_LAYOUT", null, 3004, "this tensor layout is not supported by this cuDNN");
        add("CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER", null, 3005, "the NVIDIA driver is too old for this cuDNN"
                + " build's CUDA (update the driver, or use the cuDNN build for an older CUDA)");
        add("CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART", null, 3006, "the CUDA runtime in the process does not fit this"
                + " cuDNN build (a cuDNN for another CUDA major, or an older libcudart loaded first)");
        add("CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH", null, 3007, "the GPU's compute capability is not supported by this"
                + " cuDNN build");
        add("CUDNN_STATUS_ARCH_MISMATCH", 6, 3007, "the GPU's compute capability is not supported by this cuDNN build");
        add("CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING", null, 3008, "a library cuDNN needs at run time (cuBLAS,"
                + " cuBLASLt, NVRTC) is missing or of the wrong version");
        add("CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", 11, 3008, "a library cuDNN needs at run time (cuBLAS, cuBLASLt,"
                + " NVRTC) is missing or of the wrong version");
        add("CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE", null, 3009, "a cuDNN 9 sub-library this operation needs is not"
                + " available (not installed, or did not load)");
        add("CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT", null, 3010, "the GPU has too little shared memory for"
                + " this operation");
        add("CUDNN_STATUS_NOT_SUPPORTED_PADDING", null, 3011, "this padding mode is not supported by this cuDNN");
        add("CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM", null, 3012, "no kernel launch fits these parameters on this GPU");
        add("CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API", null, 3013, "this operation cannot be captured through the"
                + " native CUDA graph API (cuDNN 9.5 and later)");
        add("CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE", null, 3014, "this dynamic shape is not supported (cuDNN 9.18"
                + " and later)");
        add("CUDNN_STATUS_INTERNAL_ERROR", 4, 4000, "cuDNN failed inside: often out of GPU memory, or a CUDA runtime and driver"
                + " that do not fit");
        add("CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED", null, 4001, "cuDNN could not compile a kernel at run time: often"
                + " NVRTC missing or of another CUDA version, or a driver too old");
        add("CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE", null, 4002, "cuDNN met a value it did not expect inside: a cuDNN"
                + " bug or a damaged installation");
        add("CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED", null, 4003, "cuDNN could not allocate host memory: out of"
                + " memory");
        add("CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED", null, 4004, "cuDNN could not allocate GPU memory: out of"
                + " GPU memory (a smaller batch, or another process holding the GPU)");
        add("CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM", null, 4005, "cuDNN made a kernel launch with bad parameters"
                + " inside: a cuDNN bug");
        add("CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED", null, 4006, "cuDNN could not create a texture (a GPU"
                + " memory mapping failure)");
        add("CUDNN_STATUS_ALLOC_FAILED", 2, 4003, "cuDNN could not allocate memory (host or GPU): out of memory");
        add("CUDNN_STATUS_MAPPING_ERROR", 7, 4006, "cuDNN could not access GPU memory (a texture or mapping failure)");
        add("CUDNN_STATUS_EXECUTION_FAILED", 8, 5000, "a GPU kernel failed to run: a driver problem, a GPU the build does not"
                + " support, or an earlier error in the program");
        add("CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER", null, 5001, "a CUDA driver call failed while running: the driver is"
                + " too old or broken");
        add("CUDNN_STATUS_EXECUTION_FAILED_CUBLAS", null, 5002, "a cuBLAS call failed while running");
        add("CUDNN_STATUS_EXECUTION_FAILED_CUDART", null, 5003, "a CUDA runtime call failed while running");
        add("CUDNN_STATUS_EXECUTION_FAILED_CURAND", null, 5004, "a cuRAND call failed while running");
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

    /**
     * 8.x names kept in 9.x only as deprecated aliases of another code ({@code CUDNN_DEPRECATED_ENUM = OTHER_NAME} in
     * 9.24's cudnn_graph.h); 2001 INVALID_VALUE is deprecated too but no other name has its number.
     */
    static boolean isAlias(Entry e) {
        return switch (e.name()) {
            case "CUDNN_STATUS_ALLOC_FAILED", "CUDNN_STATUS_ARCH_MISMATCH", "CUDNN_STATUS_MAPPING_ERROR",
                    "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING", "CUDNN_STATUS_VERSION_MISMATCH" -> true;
            default -> false;
        };
    }

    /** Every status, in the table's order. */
    static Iterable<Entry> all() {
        return BY_NAME.values();
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
