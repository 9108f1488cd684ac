package dev.cudnntool.testing;

/** nvidia-smi output as real drivers print it (facts §6), for parsers and fake runners. */
public final class NvidiaSmiOutputs {
    private NvidiaSmiOutputs() {
    }

    public static final String R450 = """
            Tue Nov 10 09:31:05 2020
            +-----------------------------------------------------------------------------+
            | NVIDIA-SMI 450.80.02    Driver Version: 450.80.02    CUDA Version: 11.0     |
            |-------------------------------+----------------------+----------------------+
            | GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
            """;
    public static final String R535 = """
            Mon Nov 27 10:12:31 2023
            +---------------------------------------------------------------------------------------+
            | NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |
            |-----------------------------------------+----------------------+----------------------+
            | GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
            |   0  NVIDIA A100-SXM4-80GB          On  | 00000000:07:00.0 Off |                    0 |
            """;
    public static final String R575 = """
            +-----------------------------------------------------------------------------------------+
            | NVIDIA-SMI 575.51.03              Driver Version: 575.51.03      CUDA Version: 12.9     |
            +-----------------------------------------+------------------------+----------------------+
            """;
    public static final String R580 = """
            +-----------------------------------------------------------------------------------------+
            | NVIDIA-SMI 580.65.06              Driver Version: 580.65.06      CUDA Version: 13.0     |
            +-----------------------------------------+------------------------+----------------------+
            """;
    public static final String R610 = """
            +-----------------------------------------------------------------------------------------+
            | NVIDIA-SMI 610.57.04   KMD Version: 610.57.04   CUDA UMD Version: 13.3                  |
            +-----------------------------------------+------------------------+----------------------+
            """;
    public static final String WINDOWS = """
            +---------------------------------------------------------------------------------------+
            | NVIDIA-SMI 536.25                 Driver Version: 536.25       CUDA Version: 12.2     |
            |-----------------------------------------+----------------------+----------------------+
            | GPU  Name                     TCC/WDDM  | Bus-Id        Disp.A | Volatile Uncorr. ECC |
            """;
    public static final String QUERY_Q = """
            ==============NVSMI LOG==============

            Timestamp                                 : Mon Nov 27 10:12:31 2023
            Driver Version                            : 535.104.05
            CUDA Version                              : 12.2
            """;
    public static final String NO_DRIVER = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. "
            + "Make sure that the latest NVIDIA driver is installed and running.\n";


    /** {@code --query-gpu=name,driver_version,compute_cap --format=csv,noheader} of one RTX 3090 on R535. */
    public static final String GPU_CC_RTX3090 = "NVIDIA GeForce RTX 3090, 535.104.05, 8.6\n";

    /** What an nvidia-smi older than the {@code compute_cap} field says to that query (exit 2). */
    public static final String NO_COMPUTE_CAP_FIELD = "Field \"compute_cap\" is not a valid field to query.\n\n";

    /** The query suffix the tool asks first (then the plain one when it fails). */
    public static final String QUERY_CC = "--query-gpu=name,driver_version,compute_cap --format=csv,noheader";

    /** One GPU line of the compute-capability query. */
    public static String gpuWithCc(String name, String driver, String cc) {
        return name + ", " + driver + ", " + cc + "\n";
    }
}
