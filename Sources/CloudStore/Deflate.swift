import CZlib
import Foundation

/// zlib compression for segment and snapshot bodies. Inflating is bounded: a body that would
/// grow past the limit of its kind is refused, so a small hostile file cannot fill memory.
enum Deflate {
    /// The body compressed as a zlib stream (which carries its own Adler-32 check).
    static func compress(_ data: Data, level: Int32 = 6) -> Data {
        var stream = z_stream()
        guard deflateInit_(&stream, level, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib could not start (out of memory)")
        }
        defer { deflateEnd(&stream) }
        var output = Data(count: Int(deflateBound(&stream, uLong(data.count))))
        let written: Int = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                // deflateBound leaves room for everything, so one call finishes the stream.
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "zlib did not finish within its own bound")
                return Int(stream.total_out)
            }
        }
        output.count = written
        return output
    }

    /// The inflated body, or nil when the stream is damaged, incomplete, followed by extra
    /// bytes, or longer than `limit`.
    static func decompress(_ data: Data, limit: Int) -> Data? {
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        // JSON bodies compress about five- to tenfold; start there and grow, never past the limit.
        var output = Data(count: min(limit, max(4_096, data.count * 8)))
        var produced = 0
        let finished: Bool = data.withUnsafeBytes { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                if produced == output.count {
                    guard output.count < limit else { return false }
                    output.count = min(limit, output.count * 2)
                }
                let status: Int32 = output.withUnsafeMutableBytes { out in
                    stream.next_out = out.bindMemory(to: Bytef.self).baseAddress! + produced
                    stream.avail_out = uInt(out.count - produced)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    produced = out.count - Int(stream.avail_out)
                    return status
                }
                switch status {
                case Z_STREAM_END: return stream.avail_in == 0
                case Z_OK: continue
                case Z_BUF_ERROR where produced == output.count: continue
                default: return false
                }
            }
        }
        guard finished else { return nil }
        output.count = produced
        return output
    }
}
