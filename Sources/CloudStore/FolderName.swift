import Foundation

/// The allow-list for every name that becomes a path component: letters, digits, `_` and `-`,
/// starting with a letter or digit. No `..`, `/`, control characters or dot-files can pass,
/// so a name read from the folder can never lead outside the store.
enum FolderName {
    static let maxLength = 80

    static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= maxLength, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
