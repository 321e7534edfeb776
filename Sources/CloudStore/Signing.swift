@preconcurrency import Crypto
import Foundation

/// A machine's signing key (Ed25519, swift-crypto): made once in the data dir (mode 0600) and
/// never written into the cloud folder. Every file the machine writes there is signed with it
/// (docs/trust.md).
public struct DeviceKey: Sendable {
    let secret: Curve25519.Signing.PrivateKey
    public let publicKey: DevicePublicKey

    public init() { self.init(Curve25519.Signing.PrivateKey()) }

    init(_ secret: Curve25519.Signing.PrivateKey) {
        self.secret = secret
        self.publicKey = DevicePublicKey(validated: secret.publicKey.rawRepresentation)
    }

    /// The key from its 32 secret bytes, or nil when they are not one.
    public init?(secretBytes: Data) {
        guard secretBytes.count == 32, let secret = try? Curve25519.Signing.PrivateKey(rawRepresentation: secretBytes) else { return nil }
        self.init(secret)
    }

    /// A key derived from `seed` (a pairing code's secret): the same seed gives the same key.
    static func derived(from seed: Data) -> DeviceKey {
        let bytes = Data(SHA256.hash(data: seed))
        // 32 bytes always make an Ed25519 secret key.
        return DeviceKey(secretBytes: bytes)!
    }

    public var secretBytes: Data { secret.rawRepresentation }

    func sign(_ message: Data) -> Data {
        // Signing with a valid key does not fail; an empty signature would only fail to verify.
        (try? secret.signature(for: message)) ?? Data()
    }

    /// The key kept in `file`, or a new one written there first (mode 0600, never replaced: two
    /// processes starting at once keep the one written first).
    /// `create` false: nil when there is none.
    public static func loadOrCreate(at file: URL, create: Bool = true) throws -> DeviceKey? {
        if let key = try load(file) { return key }
        guard create else { return nil }
        let key = DeviceKey()
        if try key.write(to: file, replacing: false) { return key }
        guard let kept = try load(file) else { throw KeyFileError("could not make the signing key \(file.path)") }
        return kept
    }

    /// The key made from anything but itself: never nil when `create` is true.
    public static func loadOrCreate(at file: URL) throws -> DeviceKey {
        // `create` true always gives a key or throws.
        try loadOrCreate(at: file, create: true)!
    }

    /// Writes the key to `file`, mode 0600. Not `replacing`: false when a key is there already
    /// (two processes starting at once keep the one written first); `replacing`: through a
    /// temporary file renamed over the old one.
    @discardableResult
    public func write(to file: URL, replacing: Bool) throws -> Bool {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let text = secretBytes.base64EncodedString() + "\n"
        let target = replacing ? file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp") : file
        let fd = open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST && !replacing { return false }
            throw KeyFileError("could not make the signing key \(file.path): \(String(cString: strerror(errno)))")
        }
        let written = text.utf8CString.withUnsafeBufferPointer { Foundation.write(fd, $0.baseAddress, $0.count - 1) }
        fsync(fd)
        close(fd)
        guard written == text.utf8.count else {
            unlink(target.path)
            throw KeyFileError("could not write the signing key \(file.path)")
        }
        if replacing, rename(target.path, file.path) != 0 {
            unlink(target.path)
            throw KeyFileError("could not write the signing key \(file.path): \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// The key in `file`, nil when there is none; a file that holds no key is an error (it is
    /// never replaced: a new key would make this machine a stranger to its player).
    static func load(_ file: URL) throws -> DeviceKey? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        guard data.count < 200, let text = String(data: data, encoding: .utf8),
              let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
              let key = DeviceKey(secretBytes: bytes)
        else { throw KeyFileError("the signing key \(file.path) is damaged; restore it from a backup, or move it away to make this a new machine that joins again") }
        return key
    }
}

public struct KeyFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A machine's public key: what a player's device set and a friend's pin hold.
public struct DevicePublicKey: Hashable, Sendable, Codable, Comparable {
    public let raw: Data
    /// The 64 hex digits of the key's SHA-256, worked out once: every signed file read names its
    /// key by them, and a first sync reads thousands.
    private let digest: String

    init(validated raw: Data) {
        self.raw = raw
        digest = Self.hexDigest(of: raw)
    }

    public init?(raw: Data) {
        guard raw.count == 32, (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil else { return nil }
        self.init(validated: raw)
    }

    public init?(base64: String) {
        guard let raw = Data(base64Encoded: base64) else { return nil }
        self.init(raw: raw)
    }

    public var base64: String { raw.base64EncodedString() }

    /// The short name a signed file gives for the key that signed it: 16 hex digits of its SHA-256.
    public var id: String { String(digest.prefix(16)) }

    /// What two people compare out of band: 32 hex digits of the key's SHA-256 in groups of four.
    public var fingerprint: String {
        let digits = Array(digest.prefix(32))
        return stride(from: 0, to: digits.count, by: 4).map { String(digits[$0..<$0 + 4]) }.joined(separator: " ")
    }

    private static func hexDigest(of raw: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: raw) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public func verifies(_ signature: Data, of message: Data) -> Bool {
        guard signature.count == 64, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return false }
        return key.isValidSignature(signature, for: message)
    }

    public static func < (a: Self, b: Self) -> Bool { a.raw.lexicographicallyPrecedes(b.raw) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let key = DevicePublicKey(base64: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a public key"))
        }
        self = key
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(base64)
    }
}

/// A signed file: one line `QKSIG 1 <key id> <counter> <signature>` before the bytes it signs.
/// The signature covers the file's path in the folder (player, generation, device, zone and
/// sequence are all in it), the counter and the bytes, so a signed file read under another
/// name, or an older copy of a file that is rewritten (a head), does not pass.
enum SignedFile {
    static let tag = "QKSIG"
    static let version = 1
    /// The longest signature line: the tag, the version, a key id, a counter and 88 characters of signature.
    static let maxLine = 160

    static func message(path: String, counter: UInt64, body: Data) -> Data {
        var message = Data("qiktionary signed file \(version)\n\(path)\n\(counter)\n".utf8)
        message.append(body)
        return message
    }

    static func seal(_ body: Data, path: FolderPath, counter: UInt64, key: DeviceKey) -> Data {
        let signature = key.sign(message(path: path.description, counter: counter, body: body))
        var file = Data("\(tag) \(version) \(key.publicKey.id) \(counter) \(signature.base64EncodedString())\n".utf8)
        file.append(body)
        return file
    }

    struct Opened {
        var keyID: String
        var counter: UInt64
        var signature: Data
        var body: Data
    }

    enum Reading {
        /// No signature line: the bytes as they are.
        case unsigned
        case signed(Opened)
        case malformed(String)

        var isUnsigned: Bool {
            if case .unsigned = self { return true }
            return false
        }
    }

    static func read(_ data: Data) -> Reading {
        let tagBytes = Data((tag + " ").utf8)
        guard data.starts(with: tagBytes) else { return .unsigned }
        guard let newline = data.prefix(maxLine).firstIndex(of: UInt8(ascii: "\n")),
              let line = String(data: data[data.startIndex..<newline], encoding: .utf8)
        else { return .malformed("its signature line is damaged") }
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[1] == "\(version)", parts[2].count == 16, parts[2].allSatisfy(\.isHexDigit),
              let counter = UInt64(parts[3]), let signature = Data(base64Encoded: String(parts[4])), signature.count == 64
        else { return .malformed("its signature line is damaged") }
        return .signed(Opened(keyID: String(parts[2]), counter: counter, signature: signature, body: Data(data[data.index(after: newline)...])))
    }

    static func verify(_ opened: Opened, path: FolderPath, key: DevicePublicKey) -> Bool {
        opened.keyID == key.id && key.verifies(opened.signature, of: message(path: path.description, counter: opened.counter, body: opened.body))
    }
}
