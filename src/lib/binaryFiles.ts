/**
 * Telling binary files from text: by extension first (no I/O), then by the
 * first bytes (a NUL, or bytes that are not UTF-8), and naming what a binary
 * file is from its magic number so the model learns something from a refusal.
 */

/** Extensions never read as text: images, audio, video, archives, office documents, fonts, executables, databases, model weights. */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  // images
  ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".webp", ".tif", ".tiff", ".psd", ".heic", ".heif", ".avif", ".raw", ".cr2", ".nef",
  // audio
  ".mp3", ".wav", ".ogg", ".oga", ".flac", ".aac", ".m4a", ".wma", ".opus", ".aiff", ".mid", ".midi",
  // video
  ".mp4", ".m4v", ".avi", ".mov", ".mkv", ".webm", ".wmv", ".flv", ".mpeg", ".mpg", ".3gp",
  // archives and packages
  ".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".txz", ".7z", ".rar", ".zst", ".lz4", ".lzma", ".jar", ".war", ".ear", ".apk", ".ipa",
  ".deb", ".rpm", ".dmg", ".iso", ".img", ".whl", ".egg", ".crx", ".xpi",
  // office and print
  ".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".odp", ".epub",
  // fonts
  ".ttf", ".otf", ".woff", ".woff2", ".eot",
  // executables and objects
  ".exe", ".dll", ".so", ".dylib", ".bin", ".o", ".a", ".obj", ".lib", ".class", ".pyc", ".pyo", ".pyd", ".wasm", ".elf", ".msi",
  // databases and data
  ".db", ".sqlite", ".sqlite3", ".mdb", ".accdb", ".pkl", ".pickle", ".npy", ".npz", ".parquet", ".feather", ".h5", ".hdf5",
  ".onnx", ".pt", ".pth", ".safetensors", ".ckpt", ".tflite"
])

export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".ico", ".tif", ".tiff", ".heic", ".avif"])

export const extensionOf = (path: string): string => {
  const name = path.slice(path.lastIndexOf("/") + 1)
  const dot = name.lastIndexOf(".")
  return dot <= 0 ? "" : name.slice(dot).toLowerCase()
}

export const hasBinaryExtension = (path: string): boolean => BINARY_EXTENSIONS.has(extensionOf(path))

/** How many leading bytes decide whether a file is text. */
export const SAMPLE_BYTES = 1000

const utf8 = new TextDecoder("utf-8", { fatal: true })

/**
 * Binary when the sample holds a NUL or is not valid UTF-8, allowing one
 * multi-byte character cut off at the very end of the sample.
 */
export const looksBinary = (sample: Uint8Array): boolean => {
  if (sample.length === 0) return false
  if (sample.includes(0)) return true
  try {
    utf8.decode(sample)
    return false
  } catch {
    // A sequence cut by the sample's end: try again without the last 1-3 bytes.
    for (let cut = 1; cut <= 3 && cut < sample.length; cut++) {
      try {
        utf8.decode(sample.subarray(0, sample.length - cut))
        return false
      } catch {
        // keep cutting
      }
    }
    return true
  }
}

const MAGIC: ReadonlyArray<readonly [ReadonlyArray<number>, string]> = [
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG image data"],
  [[0xff, 0xd8, 0xff], "JPEG image data"],
  [[0x47, 0x49, 0x46, 0x38], "GIF image data"],
  [[0x52, 0x49, 0x46, 0x46], "RIFF container (WAV/AVI/WebP)"],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], "PDF document"],
  [[0x50, 0x4b, 0x03, 0x04], "ZIP archive (also docx/xlsx/jar)"],
  [[0x1f, 0x8b], "gzip compressed data"],
  [[0x42, 0x5a, 0x68], "bzip2 compressed data"],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], "xz compressed data"],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], "7-Zip archive"],
  [[0x7f, 0x45, 0x4c, 0x46], "ELF executable"],
  [[0x4d, 0x5a], "Windows PE executable"],
  [[0xcf, 0xfa, 0xed, 0xfe], "Mach-O executable"],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00], "SQLite database"],
  [[0x4f, 0x67, 0x67, 0x53], "Ogg container"],
  [[0x66, 0x4c, 0x61, 0x43], "FLAC audio"],
  [[0x49, 0x44, 0x33], "MP3 audio"],
  [[0x00, 0x61, 0x73, 0x6d], "WebAssembly module"]
]

export const identifyBinary = (sample: Uint8Array): string => {
  for (const [prefix, name] of MAGIC) {
    if (prefix.length <= sample.length && prefix.every((b, i) => sample[i] === b)) return name
  }
  return "unknown binary"
}

export const formatSize = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`
