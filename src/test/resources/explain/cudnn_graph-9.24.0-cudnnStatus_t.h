/* The cudnnStatus_t enum block of NVIDIA's cudnn_graph.h, cuDNN 9.24.0 (the nvidia-cudnn-cu13 9.24.0.43 wheel,
 * nvidia/cudnn/include/cudnn_graph.h, lines 156-219), copied unchanged below this comment, for CudnnStatusHeaderTest. */
typedef enum {
    CUDNN_STATUS_SUCCESS = 0, /**< Operation completed successfully. @since cuDNN 9.0.0 */

    /* Uncategorized errors */
    CUDNN_STATUS_NOT_INITIALIZED                = 1001, /**< cuDNN library not initialized. @since cuDNN 9.0.0 */
    CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH    = 1002, /**< Sub-library version mismatch. @since cuDNN 9.0.0 */
    CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH = 1003, /**< Serialization version mismatch. @since cuDNN 9.0.0 */
    CUDNN_STATUS_DEPRECATED                     = 1004, /**< Deprecated feature was used. @since cuDNN 9.0.0 */
    CUDNN_STATUS_LICENSE_ERROR                  = 1005, /**< License error. @since cuDNN 9.0.0 */
    CUDNN_STATUS_RUNTIME_IN_PROGRESS            = 1006, /**< Runtime operation in progress. @since cuDNN 9.0.0 */
    CUDNN_STATUS_RUNTIME_FP_OVERFLOW            = 1007, /**< Floating-point overflow at runtime. @since cuDNN 9.0.0 */
    CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED      = 1008, /**< Sub-library loading failed. @since cuDNN 9.2.0 */

    CUDNN_STATUS_BAD_PARAM                     = 2000, /**< Invalid parameter value. @since cuDNN 9.0.0 */
    CUDNN_STATUS_BAD_PARAM_NULL_POINTER        = 2002, /**< Null pointer passed as parameter. @since cuDNN 9.0.0 */
    CUDNN_STATUS_BAD_PARAM_MISALIGNED_POINTER  = 2003, /**< Misaligned pointer passed. @since cuDNN 9.0.0 */
    CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED       = 2004, /**< Descriptor not finalized. @since cuDNN 9.0.0 */
    CUDNN_STATUS_BAD_PARAM_OUT_OF_BOUND        = 2005, /**< Parameter out of bounds. @since cuDNN 9.0.0 */
    CUDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT   = 2006, /**< Insufficient buffer size. @since cuDNN 9.0.0 */
    CUDNN_STATUS_BAD_PARAM_STREAM_MISMATCH     = 2007, /**< CUDA stream mismatch. @since cuDNN 9.0.0 */
    CUDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH      = 2008, /**< Tensor shape mismatch. @since cuDNN 9.0.0 */
    CUDNN_STATUS_BAD_PARAM_DUPLICATED_ENTRIES  = 2009, /**< Duplicated entries detected. @since cuDNN 9.0.0 */
    CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE      = 2010, /**< Wrong attribute type. @since cuDNN 9.0.0 */
    CUDNN_STATUS_BAD_PARAM_CUDA_GRAPH_MISMATCH = 2011, /**< CUDA graph mismatch. @since cuDNN 9.5.0 */
    CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE     = 2012, /**< Wrong descriptor type. @since cuDNN 9.6.0 */

    CUDNN_STATUS_NOT_SUPPORTED                              = 3000, /**< Operation not supported. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN                = 3001, /**< Graph pattern not supported. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_SHAPE                        = 3002, /**< Shape not supported. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_DATA_TYPE                    = 3003, /**< Data type not supported. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_LAYOUT                       = 3004, /**< Layout not supported. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER     = 3005, /**< Incompatible CUDA driver. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART          = 3006, /**< Incompatible CUDA runtime. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH                = 3007, /**< GPU architecture mismatch. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING = 3008, /**< Runtime prerequisite missing. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE       = 3009, /**< Sub-library unavailable. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT   = 3010, /**< Insufficient shared memory. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_PADDING                      = 3011, /**< Padding mode not supported. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_BAD_LAUNCH_PARAM             = 3012, /**< Bad launch parameters. @since cuDNN 9.0.0 */
    CUDNN_STATUS_NOT_SUPPORTED_CUDA_GRAPH_NATIVE_API        = 3013, /**< CUDA graph native API not supported. @since cuDNN 9.5.0 */
    CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE        = 3014, /**< Invalid dynamic shape. @since cuDNN 9.18.0 */

    CUDNN_STATUS_INTERNAL_ERROR                          = 4000, /**< Internal error. @since cuDNN 9.0.0 */
    CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED       = 4001, /**< Kernel compilation failed. @since cuDNN 9.0.0 */
    CUDNN_STATUS_INTERNAL_ERROR_UNEXPECTED_VALUE         = 4002, /**< Unexpected internal value. @since cuDNN 9.0.0 */
    CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED   = 4003, /**< Host memory allocation failed. @since cuDNN 9.0.0 */
    CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED = 4004, /**< Device memory allocation failed. @since cuDNN 9.0.0 */
    CUDNN_STATUS_INTERNAL_ERROR_BAD_LAUNCH_PARAM         = 4005, /**< Bad internal launch parameters. @since cuDNN 9.0.0 */
    CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED  = 4006, /**< Texture creation failed. @since cuDNN 9.0.0 */

    CUDNN_STATUS_EXECUTION_FAILED             = 5000, /**< Execution failed. @since cuDNN 9.0.0 */
    CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER = 5001, /**< CUDA driver execution failure. @since cuDNN 9.0.0 */
    CUDNN_STATUS_EXECUTION_FAILED_CUBLAS      = 5002, /**< cuBLAS execution failure. @since cuDNN 9.0.0 */
    CUDNN_STATUS_EXECUTION_FAILED_CUDART      = 5003, /**< CUDA runtime execution failure. @since cuDNN 9.0.0 */
    CUDNN_STATUS_EXECUTION_FAILED_CURAND      = 5004, /**< cuRAND execution failure. @since cuDNN 9.0.0 */

    CUDNN_STATUS_ALLOC_FAILED CUDNN_DEPRECATED_ENUM  = CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, /**< @deprecated Use CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED. @since cuDNN 9.0.0 */
    CUDNN_STATUS_INVALID_VALUE CUDNN_DEPRECATED_ENUM = 2001 /* please transition to CUDNN_STATUS_BAD_PARAM instead */, /**< @deprecated Use CUDNN_STATUS_BAD_PARAM. @since cuDNN 9.0.0 */
    CUDNN_STATUS_ARCH_MISMATCH CUDNN_DEPRECATED_ENUM = CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH, /**< @deprecated Use CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH. @since cuDNN 9.0.0 */
    CUDNN_STATUS_MAPPING_ERROR CUDNN_DEPRECATED_ENUM = CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED, /**< @deprecated Use CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED. @since cuDNN 9.0.0 */
    CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING CUDNN_DEPRECATED_ENUM =
        CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING, /**< @deprecated Use CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING. @since cuDNN 9.0.0 */
    CUDNN_STATUS_VERSION_MISMATCH CUDNN_DEPRECATED_ENUM = CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH, /**< @deprecated Use CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH. @since cuDNN 9.0.0 */
} cudnnStatus_t;
