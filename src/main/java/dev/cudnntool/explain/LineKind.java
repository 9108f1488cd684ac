package dev.cudnntool.explain;

import com.fasterxml.jackson.annotation.JsonValue;

/** The families of cuDNN error lines {@link Recognizer} knows; JSON {@code lines[].kind} (a contract). */
public enum LineKind {
    /** Linux: a cuDNN library (or one it needs) not found by name: "Could not load library …", "Unable to load any of {…}", "cannot open shared object file". */
    LOAD_FAILURE("load-failure"),
    /** Windows: "Could not load library cudnn_…64_8.dll. Error code 126/193/127". */
    WINDOWS_LOAD_FAILURE("windows-load-failure"),
    /** ONNX Runtime's CUDA provider library could not be loaded (Windows error 126, or Linux's missing libcudnn.so.N). */
    ONNXRUNTIME_PROVIDER("onnxruntime-provider"),
    /** PyTorch: "cuDNN version incompatibility: PyTorch was compiled against X but found runtime version Y". */
    TORCH_VERSION_MISMATCH("torch-version-mismatch"),
    /** TensorFlow/XLA: "Loaded runtime CuDNN library: A but source was compiled with: B". */
    TENSORFLOW_VERSION_MISMATCH("tensorflow-version-mismatch"),
    /** A cudnnStatus_t by name or number. */
    CUDNN_STATUS("cudnn-status");

    private final String label;

    LineKind(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }
}
