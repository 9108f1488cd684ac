package dev.cudnntool.archive.name;

import com.fasterxml.jackson.annotation.JsonValue;

/** modern: cudnn-&lt;platform&gt;-&lt;version&gt;_cuda&lt;N&gt;-archive (8.3+); legacy: cudnn-&lt;CUDA&gt;-&lt;os&gt;-x64-v&lt;version&gt;. */
public enum NamingScheme {
    MODERN, LEGACY;

    @JsonValue
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
