package dev.cudnntool.host.fetch;

import java.nio.file.Path;

/**
 * One archive {@code cudnn fetch} made available.
 *
 * @param file       NVIDIA's file name
 * @param url        where it came from (or would have): a URL, or the folder's file for {@code --from DIR}
 * @param size       its size in bytes
 * @param sha256     its sha256, as the catalogue has it
 * @param path       where it lies now
 * @param downloaded false when it was already there, genuine, and nothing was read
 */
public record FetchResult(String file, String url, long size, String sha256, Path path, boolean downloaded) {
}
