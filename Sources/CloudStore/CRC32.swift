import CZlib
import Foundation

/// CRC-32 (IEEE 802.3, as in zip and PNG): detects a truncated or damaged file cheaply. zlib,
/// already linked for compression, computes it (and faster than a table walk in Swift).
enum CRC32 {
    static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> UInt32 in
            var crc = crc32(0, nil, 0)
            var offset = 0
            // zlib takes a 32-bit length: a larger body goes in pieces.
            while offset < bytes.count {
                let piece = min(bytes.count - offset, Int(UInt32.max))
                crc = crc32(crc, bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(piece))
                offset += piece
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }
}
