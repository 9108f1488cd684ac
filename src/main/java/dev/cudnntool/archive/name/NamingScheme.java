package dev.cudnntool.archive.name;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * modern: cudnn-&lt;platform&gt;-&lt;version&gt;_cuda&lt;N&gt;-archive (8.3+); legacy: cudnn-&lt;CUDA&gt;-&lt;os&gt;-x64-v&lt;version&gt;;
 * wheel: nvidia_cudnn_cu&lt;N&gt;-&lt;version&gt;-py3-none-&lt;platform&gt;.whl (NVIDIA's pip wheel).
 */
public enum NamingScheme {
    MODERN, LEGACY, WHEEL;

    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
