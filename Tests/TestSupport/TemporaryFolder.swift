import Foundation

/// A fresh folder under the system's temporary folder, its name `prefix` and a UUID; the caller
/// removes it.
public func temporaryFolder(_ prefix: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
